import { useState } from "react";
import { OtpStep, PhoneStep } from "../../booking/index.ts";

const SIGN_IN = { signIn: true } as const;

/**
 * Signing in on /me: the mobile, then the code texted to it, through the booking's own steps and
 * calls (send-otp and verify-otp with `signIn`, so the same limits and messages apply). A code is
 * always texted: a browser that verified the number for a booking still types one
 * (docs/decisions/027-guest-identity.md).
 */
export function MeSignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [step, setStep] = useState<{ name: "phone" } | { name: "otp"; phone: string }>({ name: "phone" });
  const [typedPhone, setTypedPhone] = useState("");
  return (
    <section className="me-sign-in booking-step" aria-labelledby="me-sign-in-title">
      <h2 id="me-sign-in-title">{step.name === "phone" ? "Sign in" : "Enter your code"}</h2>
      {step.name === "phone" ? (
        <>
          <p className="hint">Sign in with the mobile you booked with.</p>
          <PhoneStep
            initialPhone={typedPhone}
            codeFor={SIGN_IN}
            onSent={(phone) => {
              setTypedPhone(phone);
              setStep({ name: "otp", phone });
            }}
            onVerified={onSignedIn}
          />
        </>
      ) : (
        <OtpStep
          phone={step.phone}
          codeFor={SIGN_IN}
          onVerified={onSignedIn}
          onAlreadyVerified={onSignedIn}
          onChangeNumber={() => setStep({ name: "phone" })}
        />
      )}
    </section>
  );
}
