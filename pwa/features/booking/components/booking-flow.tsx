import { useState } from "react";
import { useLocation, useNavigate } from "react-router-dom";
import { paths } from "../../../app/paths.ts";
import type { EventSummary } from "../../events/types.ts";
import { toE164 } from "../phone.ts";
import type { ConfirmationState } from "../types.ts";
import { DetailsForm } from "./details-form.tsx";
import { OtpStep } from "./otp-step.tsx";
import { PhoneStep } from "./phone-step.tsx";
import "../booking.css";

type Step = { name: "phone" } | { name: "otp"; phone: string } | { name: "details"; phone: string };

const STEP_TITLES = { phone: "Verify your mobile", otp: "Enter your code", details: "Your details" } as const;

/** SPEC.md section 4's booking flow up to the seat hold: phone, code (skipped when already verified), details. */
export function BookingFlow({ event }: { event: EventSummary }) {
  const navigate = useNavigate();
  const location = useLocation();
  // Back from /confirmation returns to the details, not to the start: the verified number is kept
  // in this history entry (the server's cookie still decides whether it is verified).
  const verifiedPhone = (location.state as { verifiedPhone?: string } | null)?.verifiedPhone;
  const [step, setStep] = useState<Step>(verifiedPhone ? { name: "details", phone: verifiedPhone } : { name: "phone" });
  const [typedPhone, setTypedPhone] = useState("");
  // The server accepted the number, so it is an Australian mobile; E.164 is what the details carry.
  const details = (phone: string) => {
    const e164 = toE164(phone) ?? phone;
    setStep({ name: "details", phone: e164 });
    navigate(`${location.pathname}${location.search}`, {
      replace: true,
      state: { ...(location.state as object | null), verifiedPhone: e164 },
    });
  };

  return (
    <section className="booking-step" aria-labelledby="booking-step-title">
      <h2 id="booking-step-title">{STEP_TITLES[step.name]}</h2>
      {step.name === "phone" ? (
        <PhoneStep
          initialPhone={typedPhone}
          eventID={event.id}
          onSent={(phone) => {
            setTypedPhone(phone);
            setStep({ name: "otp", phone });
          }}
          onVerified={(phone) => {
            setTypedPhone(phone);
            details(phone);
          }}
        />
      ) : step.name === "otp" ? (
        <OtpStep
          phone={step.phone}
          onVerified={() => details(step.phone)}
          onChangeNumber={() => setStep({ name: "phone" })}
        />
      ) : (
        <DetailsForm
          phone={step.phone}
          event={event}
          onUnverified={() => setStep({ name: "phone" })}
          onSaved={(user) => {
            const state: ConfirmationState = { user, event };
            navigate(paths.confirmation, { state });
          }}
        />
      )}
    </section>
  );
}
