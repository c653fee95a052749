import { DEFAULT_TIME_ZONE, formatUtcTime, formatVenueTime } from "../../../api/lib/time-zone.ts";
import type { EventSummary } from "./types.ts";

const pad = (n: number) => String(n).padStart(2, "0");

/** SPEC.md: date-time in UTC as `YYYY-MM-DD hh:mm A`, e.g. `2026-12-05 07:30 PM`. */
export function formatEventDateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const h = d.getUTCHours();
  const hour12 = h % 12 === 0 ? 12 : h % 12;
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(hour12)}:${pad(d.getUTCMinutes())} ${h < 12 ? "AM" : "PM"}`;
}

/** SPEC.md section 4: the seats label, shown only when seats are low or gone. */
export function seatsLabel(seatsLeftPercent: number): string | null {
  if (seatsLeftPercent <= 0) return "Sold Out";
  if (seatsLeftPercent <= 40) return `Only ${seatsLeftPercent}% seats left!`;
  return null;
}

/** The venue's local time with its zone, and SPEC.md's UTC form as the secondary line. */
export function venueDateTime(iso: string, zone: string | undefined): { local: string; utc: string } | null {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return null;
  return { local: formatVenueTime(ms, zone ?? DEFAULT_TIME_ZONE), utc: formatUtcTime(ms) };
}

/**
 * The banner on an event's card, most important first: a cancelled event says so wherever it is
 * still shown; then sales closed at the start; then SPEC.md's seats label.
 */
export function cardLabel(
  event: Pick<EventSummary, "event_status" | "SeatAvailabilityPer" | "EventDateTime">,
  now = Date.now(),
): { text: string; kind: "cancelled" | "closed" | "sold-out" | "low" } | null {
  if (event.event_status === "cancelled") return { text: "Cancelled", kind: "cancelled" };
  if (salesClosed(event, now)) return { text: "Booking closed", kind: "closed" };
  const seats = seatsLabel(event.SeatAvailabilityPer);
  if (!seats) return null;
  return { text: seats, kind: event.SeatAvailabilityPer <= 0 ? "sold-out" : "low" };
}

/** The server's error when sales have closed, and what the attendee reads instead. */
export const BOOKING_CLOSED = "booking has closed";
export const BOOKING_CLOSED_MESSAGE = "Booking has closed: this event has already started.";

/** Sales close at the start, whatever the status (the server refuses with "booking has closed"). */
export const salesClosed = (event: Pick<EventSummary, "EventDateTime">, now = Date.now()) =>
  Date.parse(event.EventDateTime) <= now;

/** Book Tickets is disabled once the event has started (or ended), at its start time, or when no seat is left. */
export function canBook(
  event: Pick<EventSummary, "event_status" | "SeatAvailabilityPer" | "EventDateTime">,
  now = Date.now(),
): boolean {
  return event.event_status === "upcoming" && event.SeatAvailabilityPer > 0 && !salesClosed(event, now);
}

const HOUR = 3_600_000;
// An event nobody pressed End for still leaves the home page, half a day after it should be over.
const LISTED_AFTER_END_MS = 12 * HOUR;

/**
 * The home page lists upcoming and started events, until 12 hours after their planned end; ended
 * and cancelled events never.
 */
export function isListed(
  event: Pick<EventSummary, "event_status" | "EventDateTime" | "event_duration">,
  now = Date.now(),
): boolean {
  if (event.event_status !== "upcoming" && event.event_status !== "started") return false;
  const start = Date.parse(event.EventDateTime);
  return Number.isNaN(start) || start + event.event_duration * HOUR + LISTED_AFTER_END_MS > now;
}

export const formatPrice = (aud: number) =>
  new Intl.NumberFormat("en-AU", { style: "currency", currency: "AUD" }).format(aud);

export const formatHours = (hours: number) => `${hours} ${hours === 1 ? "hour" : "hours"}`;
