import { utcToWallClock, venueClock, venueWeekday, zoneAbbreviation } from "./time-zone.ts";
import { wallClockToUtc } from "./venue-time-input.ts";

// When a night's results are released (docs/decisions/021-results.md). Pure, so the API decides with
// it and the admin form shows the same default before anything is saved.

const HOUR = 3_600_000;

/** Ratings stay open this long after the planned end before the scheduler ends a forgotten night. */
export const AUTO_END_AFTER_MS = 3 * HOUR;

const nextDate = (date: string) => {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
};

/**
 * 12:00 PM on the venue's clock, the day after the day the event starts. A night that starts on
 * Saturday evening and runs past midnight still gets its results on Sunday at noon: "the day after"
 * is counted from the start day, the one on the ticket. Only an event still running at that noon
 * (a day-long event) moves to noon the day after its planned end, so results never come first.
 */
export function defaultResultsAt(event: { startsAt: number; durationHours: number; timeZone: string }): number {
  const noonAfter = (ms: number) =>
    wallClockToUtc({ date: nextDate(utcToWallClock(ms, event.timeZone).date), hour: 12, minute: 0 }, event.timeZone);
  const end = plannedEnd(event);
  const fromStart = noonAfter(event.startsAt);
  return fromStart >= end ? fromStart : noonAfter(end);
}

export const plannedEnd = (event: { startsAt: number; durationHours: number }) =>
  event.startsAt + Math.round(event.durationHours * HOUR);

/** The event's results time: the organiser's, or the default. */
export const resultsAtOf = (event: {
  startsAt: number;
  durationHours: number;
  timeZone: string;
  resultsAt: number | null;
}) => event.resultsAt ?? defaultResultsAt(event);

const clock = (ms: number, zone: string) => `${venueClock(ms, zone)} ${zoneAbbreviation(ms, zone)}`;

/**
 * `12:00 PM AEDT tomorrow`: the results time as a guest reads it, relative to `now` on the venue's
 * clock ("today", "tomorrow", else the weekday and date).
 */
export function resultsWhen(resultsAt: number, zone: string, now: number): string {
  const day = utcToWallClock(resultsAt, zone).date;
  const today = utcToWallClock(now, zone).date;
  const when =
    day === today ? "today" : day === nextDate(today) ? "tomorrow" : `on ${venueWeekday(resultsAt, zone)} ${day}`;
  return `${clock(resultsAt, zone)} ${when}`;
}
