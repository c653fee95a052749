import { isOverByClock } from "../../../common/ticket-status.ts";
import type { SavedTicket } from "./ticket-store.ts";

// Events last a few hours; a ticket saved before durations were kept assumes two (as calendar.ts does).
const FALLBACK_HOURS = 2;

export type StandingTicket = Pick<SavedTicket, "status" | "eventDateTime" | "durationHours">;

/**
 * How a ticket is shown. `void`: refunded, cancelled (the event, or the booking by its guest) or
 * given to a friend, so
 * no scannable QR and no calendar entry.
 * `past`: the night is over, by the server's word or, when it could not be asked, by the clock.
 */
export function ticketStanding(ticket: StandingTicket, now: number) {
  const start = ticket.eventDateTime ? Date.parse(ticket.eventDateTime) : Number.NaN;
  const past =
    ticket.status === "ended" ||
    (!Number.isNaN(start) && isOverByClock(start, ticket.durationHours ?? FALLBACK_HOURS, now));
  const voided =
    ticket.status === "refunded" ||
    ticket.status === "cancelled" ||
    ticket.status === "booking_cancelled" ||
    ticket.status === "transferred"
      ? ticket.status
      : null;
  return { voided, past };
}

/** Upcoming tickets soonest first, then past ones, the latest first. */
export function groupTickets<T extends StandingTicket>(tickets: T[], now: number) {
  const upcoming: T[] = [];
  const past: T[] = [];
  for (const ticket of tickets) (ticketStanding(ticket, now).past ? past : upcoming).push(ticket);
  const when = (t: T) => t.eventDateTime ?? "9999";
  upcoming.sort((a, b) => when(a).localeCompare(when(b)));
  past.sort((a, b) => when(b).localeCompare(when(a)));
  return { upcoming, past };
}
