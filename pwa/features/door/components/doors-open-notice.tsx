import { useEffect, useState } from "react";
import { doorsOpenText } from "../../../../common/doors-open.ts";
import type { KeptDoorEvent } from "../../../lib/offline-db.ts";
import { openDoors } from "../door-api.ts";
import { useDoorStore } from "../door-store.ts";
import { zoneOf } from "../roster-view.ts";

/**
 * Whether the doors are open now, re-rendering the moment they open. A roster kept before the time
 * was sent has none: the server still judges every tap, so the door stays usable.
 */
export function useDoorsOpen(doorsOpenAt: string | undefined): boolean {
  const opens = doorsOpenAt ? Date.parse(doorsOpenAt) : Number.NaN;
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (Number.isNaN(opens) || opens <= now) return;
    // Timers longer than ~24 days overflow; a day at a time is plenty.
    const timer = setTimeout(() => setNow(Date.now()), Math.min(opens - Date.now() + 50, 86_400_000));
    return () => clearTimeout(timer);
  }, [opens, now]);
  return Number.isNaN(opens) || opens <= now;
}

/** `Doors open at 4:00 PM AEDT`, and **Open doors now** for the organiser or the night's host. */
export function DoorsOpenNotice({ event, online }: { event: KeptDoorEvent; online: boolean }) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  if (!event.doorsOpenAt) return null;
  const zone = zoneOf(event);
  const open = async () => {
    setBusy(true);
    setProblem(null);
    const result = await openDoors(event.id);
    if (result.ok) await useDoorStore.getState().refresh({ quiet: true });
    else setProblem(result.message);
    setBusy(false);
  };
  return (
    <div className="notice door-doors">
      <p id="door-doors-closed">
        {doorsOpenText(Date.parse(event.doorsOpenAt), zone, Date.now())}. Check-in opens then.
      </p>
      <button type="button" className="button" disabled={busy || !online} onClick={() => void open()}>
        Open doors now
      </button>
      {online ? null : <p className="door-doors-hint">Open doors now needs a connection.</p>}
      {problem ? (
        <p role="alert" className="door-doors-hint">
          {problem}
        </p>
      ) : null}
    </div>
  );
}
