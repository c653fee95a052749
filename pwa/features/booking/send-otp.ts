import { api, CallFailed, send } from "../../lib/api.ts";

export type SendOtpOutcome =
  | { kind: "sent" }
  | { kind: "skip" }
  | { kind: "refused" }
  | { kind: "failed" }
  | { kind: "closed" };

/** Any reply that is not a success is "Failed to send OTP.", a call that fails "Error sending OTP.". */
export async function sendOtp(phone: string, eventID: number): Promise<SendOtpOutcome> {
  try {
    const reply = await send(api["send-otp"].$post({ json: { phone, countryCode: "+61", eventID } }));
    if (!reply.ok) return reply.data.code === "booking_closed" ? { kind: "closed" } : { kind: "refused" };
    return reply.data.PhoneVerification ? { kind: "skip" } : { kind: "sent" };
  } catch (error) {
    if (error instanceof CallFailed) return { kind: "failed" };
    throw error;
  }
}
