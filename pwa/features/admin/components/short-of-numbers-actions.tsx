import { useId, useRef, useState } from "react";
import { useConfirm } from "../../../components/ui/confirm-dialog.tsx";
import { Dialog } from "../../../components/ui/dialog.tsx";
import type { AdminEventSummary } from "../admin-api.ts";
import { plural } from "../format.ts";
import { cancelTheNight, moveGuests, moveTargets, type Shortfall, shortfallWords } from "../short-of-numbers.ts";
import { VenueTime } from "./venue-time.tsx";

/** What an action did, said by the row (it stays when the night, now cancelled, is no longer short). */
export type ShortOutcome = { kind: "ok" | "error"; text: string };

/**
 * The desk's **Short of numbers** (issue 52 part 3): what the night lacks at its deciding time, and
 * the organiser's two ways out. Nothing has been said to the guests; if the organiser does nothing,
 * the night runs as booked. **Cancel the night** asks each guest to choose a refund or credit (a
 * refund if they don't within 72 hours); **Move to another night** asks each to keep a seat on the
 * chosen night, or take a refund or credit.
 */
export function ShortOfNumbers({
  event,
  short,
  events,
  onOutcome,
}: {
  event: AdminEventSummary;
  short: readonly Shortfall[];
  /** Every event the panel lists: where the guests may move. */
  events: readonly AdminEventSummary[];
  /** An action went through (the list is then read again) or failed. */
  onOutcome(outcome: ShortOutcome): void;
}) {
  const { confirm, dialog } = useConfirm();
  const [moving, setMoving] = useState(false);
  const [busy, setBusy] = useState(false);

  const cancel = async () => {
    const go = await confirm({
      title: `Cancel ${event.name}?`,
      warning: `It is short of numbers: ${shortfallWords(short)}.`,
      lines: [
        "Texts every paid guest: each chooses a refund or credit towards any night.",
        "Anyone who doesn't choose within 72 hours gets the refund.",
        "Releases every hold, and the night leaves the home page. This cannot be undone.",
      ],
      confirmLabel: "Cancel the night",
    });
    if (!go) return;
    setBusy(true);
    const reply = await cancelTheNight(event.id).catch(() => null);
    setBusy(false);
    if (reply?.ok) {
      onOutcome({
        kind: "ok",
        text: `Night cancelled. ${plural(reply.data.asked ?? 0, "guest")} asked to choose a refund or credit.`,
      });
    } else if (reply?.status !== 401) {
      onOutcome({ kind: "error", text: reply ? reply.data.error : "The server could not be reached." });
    }
  };

  return (
    <div className="short-of-numbers">
      <span className="admin-badge status-short">Short of numbers</span>
      <span className="admin-sub">{shortfallWords(short)}</span>
      <span className="admin-row-actions">
        <button type="button" className="button" disabled={busy} onClick={() => void cancel()}>
          Cancel the night
        </button>
        <button type="button" className="button" disabled={busy} onClick={() => setMoving(true)}>
          Move to another night
        </button>
      </span>
      {moving ? (
        <MoveDialog
          event={event}
          targets={moveTargets(event, events)}
          onClose={() => setMoving(false)}
          onMoved={(text) => {
            setMoving(false);
            onOutcome({ kind: "ok", text });
          }}
        />
      ) : null}
      {dialog}
    </div>
  );
}

/** Where the guests go: a night of the same format, still to come. */
function MoveDialog({
  event,
  targets,
  onClose,
  onMoved,
}: {
  event: AdminEventSummary;
  targets: readonly AdminEventSummary[];
  onClose(): void;
  onMoved(text: string): void;
}) {
  const id = useId();
  const back = useRef<HTMLButtonElement>(null);
  const [to, setTo] = useState(targets[0]?.id ?? 0);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const target = targets.find((t) => t.id === to);

  const move = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!target) return;
    setBusy(true);
    setError(null);
    const reply = await moveGuests(event.id, target.id).catch(() => null);
    setBusy(false);
    if (reply?.ok) {
      onMoved(
        `${target.name}: ${plural(reply.data.asked, "guest")} asked to keep a seat there, or take a refund or credit.`,
      );
    } else if (reply?.status !== 401) setError(reply ? reply.data.error : "The server could not be reached.");
  };

  return (
    <Dialog className="admin-dialog" aria-labelledby={`${id}-title`} onClose={onClose} initialFocus={back}>
      <h2 id={`${id}-title`}>Move the guests of {event.name}</h2>
      {targets.length === 0 ? (
        <p>No other night of this format is still to come: add one first, or cancel the night.</p>
      ) : (
        <form className="admin-form" onSubmit={(e) => void move(e)}>
          <div className="field">
            <label htmlFor={`${id}-to`}>Move to</label>
            <select id={`${id}-to`} value={to} onChange={(e) => setTo(Number(e.target.value))}>
              {targets.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
            {target ? (
              <p className="hint">
                <VenueTime iso={target.startsAt} zone={target.timeZone} />
              </p>
            ) : null}
          </div>
          <p>
            Texts every paid guest: each keeps a seat on the new night, or takes a refund or credit. Their seats there
            are held until they choose; anyone who doesn't choose within 72 hours gets the refund.
          </p>
          {error ? (
            <p role="alert" className="message error">
              {error}
            </p>
          ) : null}
          <div className="admin-dialog-actions">
            <button type="button" className="button" ref={back} onClick={onClose}>
              Go back
            </button>
            <button type="submit" className="button admin-end" disabled={busy}>
              Move to another night
            </button>
          </div>
        </form>
      )}
      {targets.length === 0 ? (
        <div className="admin-dialog-actions">
          <button type="button" className="button" ref={back} onClick={onClose}>
            Go back
          </button>
        </div>
      ) : null}
    </Dialog>
  );
}
