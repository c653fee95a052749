// The steps bring their stylesheet, so /me, which reuses them to sign a guest in, gets it too.
import "../booking.css";
import { type FormEvent, useState } from "react";
import { type CodeFor, type SendOtpProblem as Problem, sendOtp } from "../send-otp.ts";
import { SendOtpProblem } from "./send-otp-problem.tsx";

/** Step 1: the mobile number. `onSent` when a code is on its way, `onVerified` when this browser already verified it. */
export function PhoneStep(props: {
  initialPhone: string;
  codeFor: CodeFor;
  onSent: (phone: string) => void;
  onVerified: (phone: string) => void;
}) {
  const [phone, setPhone] = useState(props.initialPhone);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setProblem(null);
    const outcome = await sendOtp(phone, props.codeFor);
    setBusy(false);
    if (outcome.kind === "sent") props.onSent(phone);
    else if (outcome.kind === "skip") props.onVerified(phone);
    else setProblem(outcome.kind);
  };

  return (
    <form className="form" onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor="booking-phone">Mobile number</label>
        <div className="input-group">
          <span className="prefix" aria-hidden="true">
            +61
          </span>
          <input
            id="booking-phone"
            name="phone"
            type="tel"
            inputMode="tel"
            autoComplete="tel-national"
            placeholder="412 345 678"
            aria-describedby="booking-phone-hint"
            aria-invalid={problem === "refused" ? true : undefined}
            required
            value={phone}
            onChange={(e) => setPhone(e.target.value)}
          />
        </div>
        <small id="booking-phone-hint" className="hint">
          Australian mobile. We text you a 6-digit code.
        </small>
      </div>
      <SendOtpProblem problem={problem} />
      <button type="submit" className="button primary" disabled={busy || !phone.trim()} aria-busy={busy}>
        Send OTP
      </button>
    </form>
  );
}
