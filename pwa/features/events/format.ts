import type { EventFormat } from "../../../common/formats.ts";
import {
  DEFAULT_TIME_ZONE,
  formatUtcTime,
  formatVenueTime,
  venueDateAndClock,
  venueWeekday,
} from "../../../common/time-zone.ts";
import type { EventView, SeatsByGender } from "./types.ts";

/** Date-time in UTC as `YYYY-MM-DD hh:mm A`, e.g. `2026-12-05 07:30 PM`: the form events were first shown in. */
export function formatEventDateTime(iso: string): string {
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? "" : venueDateAndClock(ms, "UTC");
}

/** Seats are "low" at this percentage left or below: the label warns, and the card gives the count. */
const LOW_SEATS_PERCENT = 40;

/** The seats label, shown only when seats are low (40% or less left) or gone. */
export function seatsLabel(seatsLeftPercent: number): string | null {
  if (seatsLeftPercent <= 0) return "Sold Out";
  if (seatsLeftPercent <= LOW_SEATS_PERCENT) return `Only ${seatsLeftPercent}% seats left!`;
  return null;
}

/**
 * The venue's local time with its zone, and the UTC form as the secondary line (decision 005).
 * `weekday` puts the venue's day of the week first: `Tue 2026-12-01 07:00 PM AEDT`.
 */
export function venueDateTime(
  iso: string,
  zone: string | undefined,
  options: { weekday?: boolean } = {},
): { local: string; utc: string } | null {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return null;
  const venueZone = zone ?? DEFAULT_TIME_ZONE;
  const local = formatVenueTime(ms, venueZone);
  return {
    local: options.weekday ? `${venueWeekday(ms, venueZone)} ${local}` : local,
    utc: formatUtcTime(ms),
  };
}

/**
 * The banner on an event's card, most important first: a cancelled event says so wherever it is
 * still shown; then sales closed at the start; then the seats label (`seatsLabel`).
 */
export function cardLabel(event: SeatFacts, now = Date.now()): CardLabel | null {
  if (event.status === "cancelled") return { text: "Cancelled", kind: "cancelled" };
  if (salesClosed(event, now)) return { text: "Booking closed", kind: "closed" };
  if (!hasSeat(event)) return { text: "Sold Out", kind: "sold-out" };
  // A percentage rounds to 0 with a seat or two left of many: it is still not sold out.
  const seats = seatsLabel(Math.max(1, event.SeatAvailabilityPer));
  return seats ? { text: seats, kind: "low" } : null;
}

type CardLabel = { text: string; kind: "cancelled" | "closed" | "sold-out" | "low" };

/**
 * What the seat rules read: the percentage left, the per-gender counts of a balanced event, and the
 * count left in all (absent from a list this phone kept from before the server sent it).
 */
type SeatFacts = Pick<EventView, "status" | "SeatAvailabilityPer" | "startsAt"> & {
  SeatsLeft?: SeatsByGender;
  seatsLeftTotal?: number;
};

/** A seat is left for someone: for either gender at a balanced event, in the one pool otherwise. */
export const hasSeat = (event: Pick<SeatFacts, "SeatAvailabilityPer" | "SeatsLeft">) =>
  event.SeatsLeft ? event.SeatsLeft.male > 0 || event.SeatsLeft.female > 0 : event.SeatAvailabilityPer > 0;

/** `3 seats left`, `1 seat left`, `sold out`. */
const seatCount = (n: number) => (n <= 0 ? "sold out" : `${n} ${n === 1 ? "seat" : "seats"} left`);

/** A balanced event's line per gender on its card (`Women: 3 seats left`, `Men: sold out`); none otherwise. */
export function genderSeatLines(event: Pick<SeatFacts, "SeatAvailabilityPer" | "SeatsLeft">): string[] {
  if (!event.SeatsLeft) return [];
  return [`Women: ${seatCount(event.SeatsLeft.female)}`, `Men: ${seatCount(event.SeatsLeft.male)}`];
}

/**
 * The seat lines on a card: a balanced event's per gender, always; an event with one pool of seats
 * says how many are left once few remain (when the percentage label warns), and nothing before.
 */
export function seatLines(
  event: Pick<SeatFacts, "SeatAvailabilityPer" | "SeatsLeft" | "seatsLeftTotal"> & { format?: EventFormat },
): string[] {
  if (event.SeatsLeft) return genderSeatLines(event);
  const left = event.seatsLeftTotal;
  // One group and Mixed are one pool by nature: their card always says how many are left (`12 seats left`).
  if (event.format && event.format !== "women_men" && typeof left === "number" && left > 0) return [seatCount(left)];
  if (typeof left !== "number" || left <= 0 || event.SeatAvailabilityPer > LOW_SEATS_PERCENT) return [];
  return [seatCount(left)];
}

/** The server's error when sales have closed, and what the attendee reads instead. */
export const BOOKING_CLOSED = "booking has closed";
export const BOOKING_CLOSED_MESSAGE = "Booking has closed: this event has already started.";

/** Sales close at the start, whatever the status (the server refuses with "booking has closed"). */
export const salesClosed = (event: Pick<EventView, "startsAt">, now = Date.now()) => Date.parse(event.startsAt) <= now;

/**
 * Book Tickets is disabled once the event has started (or ended), at its start time, or when no seat
 * is left; at a balanced event it stays enabled while either gender has a seat.
 */
export function canBook(event: SeatFacts, now = Date.now()): boolean {
  return event.status === "upcoming" && hasSeat(event) && !salesClosed(event, now);
}

/** A full event still taking bookings offers its waitlist instead (the server closes it at the start). */
export function canJoinWaitlist(event: SeatFacts, now = Date.now()): boolean {
  return event.status === "upcoming" && !hasSeat(event) && !salesClosed(event, now);
}

export { isListed } from "../../../common/event-listing.ts";

/** Built once, when a price is first shown: each card's render used to build its own. */
let audFormat: Intl.NumberFormat | undefined;
export function formatPrice(aud: number): string {
  audFormat ??= new Intl.NumberFormat("en-AU", { style: "currency", currency: "AUD" });
  return audFormat.format(aud);
}

export const formatHours = (hours: number) => `${hours} ${hours === 1 ? "hour" : "hours"}`;
