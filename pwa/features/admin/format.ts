import { EVENT_LIMITS } from "../../../common/event-limits.ts";
import { formatVenueTime, utcToWallClock, venueWeekday, type WallClock } from "../../../common/time-zone.ts";
import { tomorrowIn, wallClockToUtc } from "../../../common/venue-time-input.ts";

/** The earliest date the server accepts for a new event: tomorrow on the venue's calendar. */
export const tomorrowAt = (zone: string, now = Date.now()) => tomorrowIn(zone, now);

/**
 * The organiser types the venue's wall clock; the API's calls carry UTC (`eventDate`, `eventTime` as
 * H:M; docs/api.md), so the form converts here, with the zone's daylight saving applied.
 */
export function wallClockToApi(clock: WallClock, zone: string): { eventDate: string; eventTime: string } {
  const utc = utcToWallClock(wallClockToUtc(clock, zone), "UTC");
  return { eventDate: utc.date, eventTime: `${utc.hour}:${utc.minute}` };
}

/** A stored event's start back on the venue's clock, for the edit form. */
export const apiToWallClock = (iso: string, zone: string): WallClock => utcToWallClock(Date.parse(iso), zone);

/** `Tue 2026-12-01 07:00 PM AEDT`: the venue's time with its weekday, for a sentence about the day. */
export function formatDayAtVenue(iso: string, zone: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return "";
  return `${venueWeekday(ms, zone)} ${formatVenueTime(ms, zone)}`;
}

/**
 * The warning Start Event gives when pressed before the event's day at the venue (a slip on the
 * wrong row, or a test press), or null on the day and after: starting texts every participant at once.
 */
export function earlyStartWarning(iso: string, zone: string, now = Date.now()): string | null {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms) || utcToWallClock(now, zone).date >= utcToWallClock(ms, zone).date) return null;
  return `This event is planned for ${formatDayAtVenue(iso, zone)}; starting now texts everyone today.`;
}

export const HOURS = Array.from({ length: 24 }, (_, h) => h);
// The edit form offers the add form's 0, 15, 30, 45: an early design listed 14, a slip, and the server only
// takes quarter hours.
export const MINUTES = EVENT_LIMITS.minutes;

export const formatAud = (aud: number) =>
  new Intl.NumberFormat("en-AU", { style: "currency", currency: "AUD" }).format(aud);

/** The stored thumbnail beside an uploaded photo (api/booking/images.ts names them `x.jpg` / `x-thumb.jpg`). */
export const thumbnailOf = (imageName: string) => imageName.replace(/\.jpg$/, "-thumb.jpg");

export { nationalPhone } from "../../../common/national-phone.ts";

// The staff screens' shared words for an event (the picker and a host's phone use them too).
export { formatAtVenue, statusLabel } from "../../lib/event-labels.ts";

/** `Texts 1 participant`, `Refunds 3 payments`: a count with its noun. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The Edit tab's seats: `35% seats left`, or `Sold Out` (the cards' word) when none is (a balanced event by
 * its two sides). A percentage rounds to 0 with a seat or two left of many: that is not sold out.
 */
export function seatsLeftLabel(event: {
  SeatAvailabilityPer: number;
  SeatsLeft: { male: number; female: number } | null;
}): string {
  const left = event.SeatsLeft ? event.SeatsLeft.male > 0 || event.SeatsLeft.female > 0 : event.SeatAvailabilityPer > 0;
  return left ? `${Math.max(1, event.SeatAvailabilityPer)}% seats left` : "Sold Out";
}
