import { useEffect, useId, useRef, useState } from "react";
import { Dialog } from "../../../components/ui/dialog.tsx";
import type { Participant } from "../admin-api.ts";
import { formatAud } from "../format.ts";
import { dollarsToCents, giveCredit } from "../give-credit.ts";

/**
 * **Give credit** to one participant (issue 52, docs/decisions/057-credit.md): the amount in dollars
 * and the reason (both required; the reason is what the guest reads in their credit history), then
 * the outcome in the dialog. The credit goes to the participant's verified number.
 */
export function GiveCreditDialog({
  participant,
  onClose,
  onGiven,
}: {
  participant: Pick<Participant, "id" | "username">;
  onClose(): void;
  /** The gift went: the row says so after the dialog closes. */
  onGiven(amountCents: number): void;
}) {
  const id = useId();
  const amountRef = useRef<HTMLInputElement>(null);
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [given, setGiven] = useState<number | null>(null);
  const doneRef = useRef<HTMLButtonElement>(null);
  // The form goes once the gift is made: the focus goes to the outcome's Done.
  useEffect(() => {
    if (given !== null) doneRef.current?.focus();
  }, [given]);
  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const cents = dollarsToCents(amount);
    if (cents === null) {
      setError("Enter an amount from $0.01 to $1,000, in dollars and cents.");
      amountRef.current?.focus();
      return;
    }
    if (!reason.trim()) {
      setError("Enter the reason: the guest reads it in their credit history.");
      return;
    }
    setBusy(true);
    setError(null);
    const outcome = await giveCredit({ userID: participant.id, amountCents: cents, reason: reason.trim() });
    setBusy(false);
    if (outcome.ok) {
      setGiven(cents);
      onGiven(cents);
    } else setError(outcome.message);
  };
  return (
    <Dialog className="admin-dialog" aria-labelledby={`${id}-title`} onClose={onClose} initialFocus={amountRef}>
      <h2 id={`${id}-title`}>Give credit to {participant.username}</h2>
      {given === null ? (
        <form className="admin-form give-credit-form" onSubmit={(e) => void submit(e)} noValidate>
          <div className="field">
            <label htmlFor={`${id}-amount`}>Amount (AUD)</label>
            <input
              id={`${id}-amount`}
              ref={amountRef}
              inputMode="decimal"
              autoComplete="off"
              required
              value={amount}
              onChange={(e) => setAmount(e.target.value)}
              aria-describedby={`${id}-amount-hint`}
            />
            <p className="hint" id={`${id}-amount-hint`}>
              Towards any night, on their verified number; at most $1,000.
            </p>
          </div>
          <div className="field">
            <label htmlFor={`${id}-reason`}>Reason</label>
            <input
              id={`${id}-reason`}
              required
              maxLength={200}
              autoComplete="off"
              value={reason}
              onChange={(e) => setReason(e.target.value)}
            />
          </div>
          <p className="message error" role="alert">
            {error}
          </p>
          <div className="admin-actions admin-dialog-actions">
            <button type="button" className="button" onClick={onClose} disabled={busy}>
              Go back
            </button>
            <button type="submit" className="button primary" disabled={busy} aria-busy={busy}>
              Give credit
            </button>
          </div>
        </form>
      ) : (
        <>
          <p role="status">
            Gave {formatAud(given / 100)} of credit to {participant.username}. They have been texted.
          </p>
          <div className="admin-actions admin-dialog-actions">
            <button ref={doneRef} type="button" className="button primary" onClick={onClose}>
              Done
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}
