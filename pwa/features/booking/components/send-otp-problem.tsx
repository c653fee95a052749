import { type SendOtpProblem as Problem, SEND_OTP_MESSAGES } from "../send-otp.ts";

/** Why no code went out: the product's message, and on a second line what to do. */
export function SendOtpProblem({ problem }: { problem: Problem | null }) {
  const text = problem ? SEND_OTP_MESSAGES[problem] : null;
  return (
    <p className="message error send-otp-problem" role="alert">
      {text ? (
        <>
          <span className="message-line">{text.message}</span>
          {text.advice ? <span className="message-advice">{text.advice}</span> : null}
        </>
      ) : null}
    </p>
  );
}
