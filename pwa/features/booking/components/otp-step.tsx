import { type FormEvent, useState } from "react";
import { normaliseAuMobile } from "../../../../common/phone.ts";
import { formatPhone } from "../phone.ts";
import { verifyOtp } from "../verify-otp.ts";

const MESSAGES = {
  incorrect: "Incorrect OTP.",
  limited: "Too many wrong codes. Please try again in an hour.",
  failed: "Error verifying OTP.",
} as const;

/** Step 2: the code texted to `phone`. */
export function OtpStep(props: { phone: string; onVerified: () => void; onChangeNumber: () => void }) {
  const [otp, setOtp] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setMessage(null);
    const outcome = await verifyOtp(props.phone, otp.trim());
    setBusy(false);
    if (outcome === "verified") props.onVerified();
    else setMessage(MESSAGES[outcome]);
  };

  const e164 = normaliseAuMobile(props.phone);
  return (
    <form className="form" onSubmit={submit} noValidate>
      <p className="message ok" role="status">
        We sent a code to {e164 ? formatPhone(e164) : props.phone}.
      </p>
      <div className="field">
        <label htmlFor="booking-otp">OTP</label>
        <input
          id="booking-otp"
          name="otp"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]*"
          maxLength={10}
          required
          value={otp}
          onChange={(e) => setOtp(e.target.value.replace(/\D/g, ""))}
        />
      </div>
      <p className="message error" role="alert">
        {message}
      </p>
      <button type="submit" className="button primary" disabled={busy || !otp} aria-busy={busy}>
        Verify OTP
      </button>
      <button type="button" className="button link-button" onClick={props.onChangeNumber} disabled={busy}>
        Use a different number
      </button>
    </form>
  );
}
