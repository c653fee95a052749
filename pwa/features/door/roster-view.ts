import type { RosterAttendee } from "../../../api/night/roster.ts";
import { DEFAULT_TIME_ZONE, formatVenueTime, utcToWallClock } from "../../../common/time-zone.ts";
import type { KeptDoorEvent, QueuedCheckIn } from "../../lib/offline-db.ts";

/** What the door view shows for one attendee: the server's roster with this phone's waiting taps on top. */
export type DoorAttendee = RosterAttendee & {
  /** This phone has a check-in or undo for them that the server does not have yet. */
  waiting: boolean;
};

/** Applies the taps still waiting on this phone to the roster last received. */
export function withPending(attendees: RosterAttendee[], pending: QueuedCheckIn[]): DoorAttendee[] {
  const latest = new Map(pending.map((p) => [p.userID, p]));
  return attendees.map((a) => {
    const p = latest.get(a.userID);
    if (!p) return { ...a, waiting: false };
    if (p.action === "undo") return { ...a, checkedInAt: null, waiting: true };
    // The server keeps the earliest check-in; show what it will keep.
    const server = a.checkedInAt ? Date.parse(a.checkedInAt) : Number.POSITIVE_INFINITY;
    return { ...a, checkedInAt: new Date(Math.min(server, p.clientTs)).toISOString(), waiting: true };
  });
}

export type Tally = { arrived: number; total: number };
export type Counts = Tally & { women: Tally; men: Tally };

export function countArrivals(attendees: RosterAttendee[]): Counts {
  const tally = (list: RosterAttendee[]): Tally => ({
    arrived: list.filter((a) => a.checkedInAt !== null).length,
    total: list.length,
  });
  return {
    ...tally(attendees),
    women: tally(attendees.filter((a) => a.gender === "female")),
    men: tally(attendees.filter((a) => a.gender === "male")),
  };
}

const fold = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/**
 * "Find attendee": every word typed appears in the name ("pri sha" finds Priya Sharma), or, when only
 * digits are typed, they are the end of the phone number ("678", or "345678" for a number ending 5678).
 */
export function matchesQuery(attendee: RosterAttendee, query: string): boolean {
  const q = query.trim();
  if (!q) return true;
  if (/^[\d\s+]+$/.test(q)) {
    const digits = q.replace(/\D/g, "");
    return attendee.phoneLast4.endsWith(digits) || digits.endsWith(attendee.phoneLast4);
  }
  const name = fold(attendee.name);
  return fold(q)
    .split(/\s+/)
    .every((word) => name.includes(word));
}

/** Events now carry their venue's zone; an answer from before that change reads as Sydney's. */
export const zoneOf = (event: { timeZone?: unknown }) =>
  typeof event.timeZone === "string" && event.timeZone ? event.timeZone : DEFAULT_TIME_ZONE;

/** `Harbour Mixer · 2026-11-29 07:00 PM AEDT · started`, for the event picker. */
export const eventLabel = (event: KeptDoorEvent) =>
  `${event.name} · ${formatVenueTime(Date.parse(event.startsAt), zoneOf(event))} · ${event.status}`;

/** `07:42 PM AEDT`: an arrival on the venue's clock; the date is the night's own. */
export const arrivalTime = (iso: string, zone: string) =>
  formatVenueTime(Date.parse(iso), zone).replace(/^\d{4}-\d{2}-\d{2} /, "");

/**
 * The event the door view opens on: one that has started (the latest start if several), otherwise
 * the soonest that is today or later on its venue's clock. Ended and cancelled events are never the default.
 */
export function defaultEventId(events: KeptDoorEvent[], now: number): number | null {
  // A cancelled event has nobody to let in: it is never the door's default either.
  const live = events.filter(
    (e) => e.status !== "ended" && e.status !== "cancelled" && !Number.isNaN(Date.parse(e.startsAt)),
  );
  const started = live
    .filter((e) => e.status === "started")
    .sort((a, b) => Date.parse(b.startsAt) - Date.parse(a.startsAt));
  if (started[0]) return started[0].id;
  const coming = live
    .filter((e) => {
      const zone = zoneOf(e);
      return utcToWallClock(Date.parse(e.startsAt), zone).date >= utcToWallClock(now, zone).date;
    })
    .sort((a, b) => Date.parse(a.startsAt) - Date.parse(b.startsAt));
  return coming[0]?.id ?? null;
}
