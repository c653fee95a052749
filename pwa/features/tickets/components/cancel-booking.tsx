import { useEffect, useRef, useState } from "react";
import { Link } from "react-router-dom";
import { type CancellationPolicy, CONSUMER_LAW_NOTE, policyText, refundDue } from "../../../../common/cancellation.ts";
import { formatPrice } from "../../events/index.ts";
import { type CancelOutcome, cancelBooking, ticketStatusAfter } from "../cancel-booking.ts";
import "../tickets.css";

type Props = {
  eventID: number;
  userID: number;
  eventName: string;
  eventDate: string;
  amountCents: number;
  policy: CancellationPolicy;
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

const dollars = (cents: number) => formatPrice(cents / 100);

/** What comes back if the guest cancels now, said before they confirm. */
function comesBack(cents: number | null, paid: number) {
  if (cents === null) return "The event has started, so this booking can no longer be cancelled.";
  if (cents === 0) return "Under this event's policy nothing comes back if you cancel now.";
  return cents === paid
    ? `You'll get back the full ${dollars(cents)}.`
    : `You'll get back ${dollars(cents)} of the ${dollars(paid)} you paid.`;
}

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
    default:
      return "Couldn't cancel the booking. Try again.";
  }
}

/** **Cancel my booking**: the policy, the amount that would come back now, then a confirmation. */
export function CancelBooking(props: Props) {
  const { eventID, userID, eventName, eventDate, amountCents, policy, onCancelled, signInPath } = props;
  const [asking, setAsking] = useState(props.startOpen ?? false);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<Exclude<CancelOutcome, { kind: "done" }> | null>(null);
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
    const outcome = await cancelBooking({ eventID, userID });
    setBusy(false);
    if (outcome.kind === "done") {
      setAsking(false);
      onCancelled(
        outcome.refundCents > 0
          ? `Your booking for ${eventName} is cancelled. ${dollars(outcome.refundCents)} is being refunded to your card.`
          : `Your booking for ${eventName} is cancelled. No refund was due.`,
        ticketStatusAfter(outcome),
      );
    } else {
      setFailed(outcome);
    }
  };
  const keep = () => {
    setAsking(false);
    setFailed(null);
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
            <strong>{comesBack(due, amountCents)}</strong>
          </legend>
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
