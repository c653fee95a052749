// The steps bring their stylesheet, so /me, which reuses them to sign a guest in, gets it too.
import "../booking.css";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { normaliseAuMobile } from "../../../../common/phone.ts";
import { formatPhone } from "../phone.ts";
import { type CodeFor, type SendOtpProblem as Problem, sendOtp } from "../send-otp.ts";
import { verifyOtp } from "../verify-otp.ts";
import { SendOtpProblem } from "./send-otp-problem.tsx";

const MESSAGES = {
  incorrect: "Incorrect OTP.",
  void: "This code can't be used any more. Tap Resend code for a new one.",
  limited: "Too many wrong codes. Please try again in an hour.",
  failed: "Error verifying OTP.",
} as const;

/** How long a code is waited for before another may be asked (send-otp's own limits still apply). */
export const RESEND_AFTER_MS = 30_000;

/** Step 2: the code texted to `phone`, with Resend code once it has had time to arrive. */
export function OtpStep(props: {
  phone: string;
  /** A booking's event, or signing in on /me (the right code then opens the guest session too). */
  codeFor: CodeFor;
  onVerified: () => void;
  /** The phone turned out to be verified already when a new code was asked. */
  onAlreadyVerified: () => void;
  onChangeNumber: () => void;
}) {
  const [otp, setOtp] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const resend = useResend(props.phone, props.codeFor, props.onAlreadyVerified);

  // The code box takes the focus, so the keypad (and the SMS code suggestion) is up at once.
  useEffect(() => {
    input.current?.focus();
  }, []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setMessage(null);
    const outcome = await verifyOtp(props.phone, otp.trim(), props.codeFor.signIn);
    setBusy(false);
    if (outcome === "verified") props.onVerified();
    else setMessage(MESSAGES[outcome]);
    // A void code is past waiting for: Resend code at once (send-otp's per-phone limits still apply).
    if (outcome === "void") resend.offerNow();
  };

  const e164 = normaliseAuMobile(props.phone);
  const shownPhone = e164 ? formatPhone(e164) : props.phone;
  return (
    <form className="form" onSubmit={submit} noValidate>
      <p className="message ok" role="status">
        {resend.resent ? `We sent a new code to ${shownPhone}.` : `We sent a code to ${shownPhone}.`}
      </p>
      <div className="field">
        <label htmlFor="booking-otp">OTP</label>
        <input
          ref={input}
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
      <div className="resend">
        {resend.ready ? (
          <button
            type="button"
            className="button"
            onClick={() => {
              setMessage(null);
              void resend.send();
            }}
            disabled={resend.busy || busy}
            aria-busy={resend.busy}
          >
            Resend code
          </button>
        ) : (
          <p className="hint">No code yet? You can ask for a new one after 30 seconds.</p>
        )}
        <SendOtpProblem problem={resend.problem} />
      </div>
      <button type="button" className="button link-button" onClick={props.onChangeNumber} disabled={busy}>
        Use a different number
      </button>
    </form>
  );
}

/** Resend code: offered RESEND_AFTER_MS after the last code was sent, through the same send-otp call. */
function useResend(phone: string, codeFor: CodeFor, onAlreadyVerified: () => void) {
  const [sentAt, setSentAt] = useState(() => Date.now());
  const [ready, setReady] = useState(false);
  const [busy, setBusy] = useState(false);
  const [resent, setResent] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  useEffect(() => {
    setReady(false);
    const timer = setTimeout(() => setReady(true), Math.max(0, sentAt + RESEND_AFTER_MS - Date.now()));
    return () => clearTimeout(timer);
  }, [sentAt]);
  const send = async () => {
    setBusy(true);
    setProblem(null);
    const outcome = await sendOtp(phone, codeFor);
    setBusy(false);
    if (outcome.kind === "sent") {
      setResent(true);
      setSentAt(Date.now());
    } else if (outcome.kind === "skip") onAlreadyVerified();
    else setProblem(outcome.kind);
  };
  return { ready, busy, resent, problem, send, offerNow: () => setReady(true) };
}
