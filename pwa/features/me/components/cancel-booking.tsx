import { useState } from "react";
import { type CancellationPolicy, CONSUMER_LAW_NOTE, policyText, refundDue } from "../../../../common/cancellation.ts";
import { formatPrice } from "../../events/format.ts";
import { type CancelOutcome, cancelBooking } from "../cancel-booking.ts";

type Props = {
  eventID: number;
  userID: number;
  eventName: string;
  eventDate: string;
  amountCents: number;
  policy: CancellationPolicy;
  /** Called once the booking is cancelled, so /me lists it again. */
  onCancelled(): void;
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

function failure(outcome: Exclude<CancelOutcome, { kind: "done" }>) {
  switch (outcome.kind) {
    case "too-late":
      return "The event has started, so this booking can no longer be cancelled.";
    case "signed-out":
      return "Your sign-in has ended. Sign in again to cancel.";
    case "offline":
      return "You're offline. Cancel again when you have a connection.";
    default:
      return "Couldn't cancel the booking. Try again.";
  }
}

/** **Cancel my booking**: the policy, the amount that would come back now, then a confirmation. */
export function CancelBooking({ eventID, userID, eventName, eventDate, amountCents, policy, onCancelled }: Props) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const due = refundDue(policy, amountCents, Date.parse(eventDate), Date.now());
  const confirm = async () => {
    setBusy(true);
    setMessage(null);
    const outcome = await cancelBooking({ eventID, userID });
    setBusy(false);
    if (outcome.kind === "done") {
      setAsking(false);
      setMessage({
        ok: true,
        text:
          outcome.refundCents > 0
            ? `Cancelled. ${dollars(outcome.refundCents)} is being refunded to your card.`
            : "Cancelled. No refund was due.",
      });
      onCancelled();
    } else {
      setMessage({ ok: false, text: failure(outcome) });
    }
  };
  return (
    <div className="cancel-booking">
      <p className="night-note">{policyText(policy)}</p>
      <p className="night-note">{CONSUMER_LAW_NOTE}</p>
      {asking ? (
        <fieldset className="cancel-confirm">
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
          <button type="button" className="button" onClick={() => setAsking(false)} disabled={busy}>
            Keep my booking
          </button>
        </fieldset>
      ) : (
        <button type="button" className="button" onClick={() => setAsking(true)}>
          Cancel my booking
        </button>
      )}
      <p className={message?.ok ? "message" : "message error"} role={message?.ok ? "status" : "alert"}>
        {message?.text ?? null}
      </p>
    </div>
  );
}
