import { resultsWhen } from "./results-time.ts";

// When a night's door may check people in (docs/decisions/008-door.md). Pure, so the API decides with it
// and the door view and the Edit form show the same time before anything is saved.

const HOUR = 3_600_000;

/** The default: doors open this long before the start (or an early start). */
export const DOORS_OPEN_BEFORE_START_MS = 3 * HOUR;

/**
 * The moment the doors open: the organiser's time (or the moment **Open doors now** was pressed), else
 * 3 hours before the start. A night the organiser started early opens its doors from 3 hours before
 * that too, whichever comes first.
 */
export function doorsOpenAtOf(event: { startsAt: number; startedAt: number | null; doorsOpenAt: number | null }) {
  const planned = event.doorsOpenAt ?? event.startsAt - DOORS_OPEN_BEFORE_START_MS;
  return event.startedAt === null ? planned : Math.min(planned, event.startedAt - DOORS_OPEN_BEFORE_START_MS);
}

/**
 * `Doors open at 4:00 PM AEDT`, on the venue's clock, with `tomorrow` or the weekday and date when the
 * doors open on another day than `now` there. The door view and the server's refusals say the same.
 */
export function doorsOpenText(doorsOpenAt: number, zone: string, now: number): string {
  return `Doors open at ${resultsWhen(doorsOpenAt, zone, now).replace(/ today$/, "")}`;
}
