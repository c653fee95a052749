import { useEffect, useState } from "react";
import { holdEndLabel, timeLeftLabel } from "../held-booking.ts";

/**
 * How long the seat stays held: `Your seat is held until 7:45 PM AEDT` (venue time) with the minutes left,
 * and plainly when the hold has run out. After Cancel on the payment page it starts with
 * "Payment cancelled". `until`: ISO UTC; null when the server said the hold is gone; undefined when
 * this booking was saved before the server told (then the usual 30 minutes are named).
 */
export function HoldNotice(props: {
  until: string | null | undefined;
  zone: string | undefined;
  cancelled: boolean;
  /** Called once the hold runs out (or is already gone). */
  onGone?: () => void;
}) {
  const untilMs = props.until ? Date.parse(props.until) : null;
  const now = useNow(untilMs);
  const gone = props.until === null || (untilMs !== null && untilMs <= now);
  const { onGone } = props;
  useEffect(() => {
    if (gone) onGone?.();
  }, [gone, onGone]);

  if (gone) {
    return (
      <div className="notice error hold-notice" role="alert">
        <p>
          {props.cancelled ? "Payment cancelled. " : null}Your seat hold has run out, so the seat is no longer kept for
          you.
        </p>
        <p>Book again to get a seat if one is still free.</p>
      </div>
    );
  }
  if (untilMs === null || !props.until) {
    return <p>Your seat is held for 30 minutes. Check your details, then pay to confirm it.</p>;
  }
  const end = holdEndLabel(props.until, props.zone);
  return (
    <div className={`notice hold-notice${props.cancelled ? "" : " ok"}`} role="status">
      <p>
        {props.cancelled ? (
          <>
            Payment cancelled — your seat is still held until <strong>{end}</strong>.
          </>
        ) : (
          <>
            Your seat is held until <strong>{end}</strong>.
          </>
        )}{" "}
        {/* Not read out every time it ticks: the time above says the same once. */}
        <span className="hold-left" aria-hidden="true">
          ({timeLeftLabel(untilMs, now)})
        </span>
      </p>
      <p>
        {props.cancelled ? "Nothing was charged. Pay below to keep it." : "Check your details, then pay to confirm it."}
      </p>
    </div>
  );
}

/** The clock, ticking every 15 seconds while a hold is counted down (and once more at its end). */
function useNow(untilMs: number | null): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (untilMs === null) return;
    const tick = () => setNow(Date.now());
    const every = setInterval(tick, 15_000);
    const atEnd = setTimeout(tick, Math.max(0, untilMs - Date.now()) + 50);
    return () => {
      clearInterval(every);
      clearTimeout(atEnd);
    };
  }, [untilMs]);
  return now;
}
