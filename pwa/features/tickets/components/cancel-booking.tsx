import { useEffect, useRef, useState } from "react";
import { Link } from "react-router-dom";
import { type CancellationPolicy, CONSUMER_LAW_NOTE, policyText, refundDue } from "../../../../common/cancellation.ts";
import { type CancelAs, type CancelOutcome, cancelBooking, ticketStatusAfter } from "../cancel-booking.ts";
import { CREDIT_CLOSED, cancelledSentence, comesBack, creditLabel, refundLabel } from "../cancel-choices.ts";
import "../tickets.css";

type Props = {
  eventID: number;
  userID: number;
  eventName: string;
  eventDate: string;
  amountCents: number;
  policy: CancellationPolicy;
  /** Until when Credit is offered (ISO); left out (a ticket's own cancel), until the server says it has passed. */
  creditUntil?: string;
  /**
   * Called once the booking is cancelled, with the sentence to announce. The caller says it in a live
   * region of its own: this part goes away as the night moves to "Cancelled and refunded".
   */
  onCancelled(announcement: string, ticketStatus: ReturnType<typeof ticketStatusAfter>): void;
  /** On the ticket, where the phone may not be signed in: where to sign in to cancel. */
  signInPath?: string;
  /** Opens the confirmation at once (a ticket's cancel that came to /me to sign in first). */
  startOpen?: boolean;
};

function failure(outcome: Exclude<CancelOutcome, { kind: "done" }>, onTicket: boolean) {
  switch (outcome.kind) {
    case "too-late":
      return "The event has started, so this booking can no longer be cancelled.";
    case "signed-out":
      return onTicket
        ? "To cancel, sign in on My nights with the mobile this ticket was booked with."
        : "Your sign-in has ended. Sign in again to cancel.";
    case "offline":
      return "You're offline. Cancel again when you have a connection.";
    case "credit-closed":
      return CREDIT_CLOSED;
    default:
      return "Couldn't cancel the booking. Try again.";
  }
}

/**
 * **Cancel my booking**: the policy, then a confirmation that offers **Refund $X** (the policy's amount
 * now) or **Credit $Y** (the full price paid, towards any night, while the event's Credit until allows;
 * issue 52), and says what the chosen one gives before the guest confirms.
 */
export function CancelBooking(props: Props) {
  const { eventID, userID, eventName, eventDate, amountCents, policy, onCancelled, signInPath } = props;
  const [asking, setAsking] = useState(props.startOpen ?? false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<Exclude<CancelOutcome, { kind: "done" }> | null>(null);
  const [choice, setChoice] = useState<CancelAs>("refund");
  // The server said the Credit until time has passed: only the refund is offered from then on.
  const [creditClosed, setCreditClosed] = useState(
    props.creditUntil !== undefined && Date.now() > Date.parse(props.creditUntil),
  );
  const confirmRef = useRef<HTMLFieldSetElement>(null);
  const openRef = useRef<HTMLButtonElement>(null);
  const due = refundDue(policy, amountCents, Date.parse(eventDate), Date.now());
  // Opened from a ticket's sign-in: the question is where the guest's eyes and focus go.
  const startOpen = props.startOpen ?? false;
  useEffect(() => {
    if (!startOpen) return;
    confirmRef.current?.scrollIntoView({ block: "center" });
    confirmRef.current?.querySelector("button")?.focus();
  }, [startOpen]);
  const confirm = async () => {
    setBusy(true);
    setFailed(null);
    const outcome = await cancelBooking({ eventID, userID, as: choice });
    setBusy(false);
    if (outcome.kind === "done") {
      setAsking(false);
      onCancelled(cancelledSentence(eventName, outcome), ticketStatusAfter(outcome));
    } else {
      if (outcome.kind === "credit-closed") {
        setCreditClosed(true);
        setChoice("refund");
      }
      setFailed(outcome);
    }
  };
  const keep = () => {
    setAsking(false);
    setFailed(null);
    setChoice("refund");
    // The confirmation's buttons go: the focus goes back to the button that opened it.
    requestAnimationFrame(() => openRef.current?.focus());
  };
  return (
    <div className="cancel-booking">
      <p className="night-note">{policyText(policy)}</p>
      <p className="night-note">{CONSUMER_LAW_NOTE}</p>
      {asking ? (
        <fieldset className="cancel-confirm" ref={confirmRef}>
          <legend>
            <strong>{comesBack(choice, due, amountCents)}</strong>
          </legend>
          {due !== null ? (
            <div className="cancel-choices">
              <label className="cancel-choice">
                <input
                  type="radio"
                  name={`cancel-as-${eventID}-${userID}`}
                  value="refund"
                  checked={choice === "refund"}
                  onChange={() => setChoice("refund")}
                  disabled={busy}
                />{" "}
                {refundLabel(due)}
              </label>
              {creditClosed ? null : (
                <label className="cancel-choice">
                  <input
                    type="radio"
                    name={`cancel-as-${eventID}-${userID}`}
                    value="credit"
                    checked={choice === "credit"}
                    onChange={() => setChoice("credit")}
                    disabled={busy}
                  />{" "}
                  {creditLabel(amountCents)}
                </label>
              )}
            </div>
          ) : null}
          {due !== null ? (
            <button
              type="button"
              className="button danger"
              onClick={() => void confirm()}
              disabled={busy}
              aria-busy={busy}
            >
              Yes, cancel {eventName}
            </button>
          ) : null}
          <button type="button" className="button" onClick={keep} disabled={busy}>
            Keep my booking
          </button>
        </fieldset>
      ) : (
        <button type="button" className="button" onClick={() => setAsking(true)} ref={openRef}>
          Cancel my booking
        </button>
      )}
      <div className="message error" role="alert">
        {failed ? <p>{failure(failed, signInPath !== undefined)}</p> : null}
        {failed?.kind === "signed-out" && signInPath ? (
          <Link className="button primary" to={signInPath}>
            Sign in to cancel
          </Link>
        ) : null}
      </div>
    </div>
  );
}
