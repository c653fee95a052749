// What other features use of the booking flow: the phone and code steps, which /me reuses to sign a
// guest in, and a number as the steps show it.
export { OtpStep } from "./components/otp-step.tsx";
export { PhoneStep } from "./components/phone-step.tsx";
export { formatPhone } from "./phone.ts";
