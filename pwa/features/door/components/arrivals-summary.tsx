import type { Counts } from "../roster-view.ts";

type Props = {
  counts: Counts;
  waiting: number;
  kept: boolean;
  online: boolean;
  /** Women and men are counted apart only at Women meet men; One group and Mixed are one room. */
  bySide?: boolean;
};

export const waitingText = (n: number) => `${n} ${n === 1 ? "check-in" : "check-ins"} waiting to sync`;

/** Who is in, by gender, readable at arm's length; and whether this phone still has taps to send. */
export function ArrivalsSummary({ counts, waiting, kept, online, bySide = true }: Props) {
  const sync =
    waiting > 0
      ? waitingText(waiting)
      : online
        ? "All check-ins synced"
        : "Offline: new check-ins will wait on this phone";
  return (
    <section className="door-summary" aria-label="Arrivals">
      <p className="door-count" aria-live="polite" aria-atomic="true">
        Arrived {counts.arrived} of {counts.total}
      </p>
      {bySide ? (
        <p className="door-split">
          Women {counts.women.arrived}/{counts.women.total} · Men {counts.men.arrived}/{counts.men.total}
        </p>
      ) : null}
      <p className={`door-sync${waiting > 0 ? " waiting" : ""}`} role="status">
        {sync}
      </p>
      {kept ? <p className="door-kept">Showing the list kept on this phone.</p> : null}
    </section>
  );
}
