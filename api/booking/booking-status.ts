import { type BookingStatus, bookingStatuses } from "../../db/schema.ts";

/**
 * What can happen to a booking, and the one rule of where each takes it (docs/decisions/002). Every
 * writer of `bookings.status` asks this function, so the rule is read in one place and tested over
 * every pair (booking-status.test.ts):
 * - `paid`: its payment took the seat (from a live hold, or a late payment that found a seat free);
 * - `payment_returned`: a payment came but buys nothing (no seat, sales closed, a second payment of
 *   the phone), so it is refunded at once;
 * - `hold_lapsed`: the hold ran out or its checkout was cancelled, and the seat went back on sale;
 * - `refunded`: the organiser, a cancel or the guest refunded a paid seat;
 * - `cancelled`: the guest gave a paid seat back after the policy's cut-off, so nothing came back
 *   (docs/decisions/028-cancellation-money-path.md);
 * - `transferred`: the guest gave a paid seat to a friend, whose own new booking holds it now
 *   (docs/decisions/058-ticket-transfer.md).
 */
export const bookingChanges = [
  "paid",
  "payment_returned",
  "hold_lapsed",
  "refunded",
  "cancelled",
  "transferred",
] as const;
export type BookingChange = (typeof bookingChanges)[number];

const RULE: Record<BookingChange, Partial<Record<BookingStatus, BookingStatus>>> = {
  paid: { held: "paid", released: "paid" },
  payment_returned: { held: "refunded", released: "refunded" },
  hold_lapsed: { held: "released" },
  refunded: { paid: "refunded" },
  cancelled: { paid: "cancelled" },
  transferred: { paid: "transferred" },
};

/** The status `change` leads to from `from`, or null when it cannot happen to such a booking. */
export function nextBookingStatus(from: BookingStatus, change: BookingChange): BookingStatus | null {
  return RULE[change][from] ?? null;
}

/** The statuses `change` may start from: the `where` of a writer that changes many rows at once. */
export function bookingStatusesFor(change: BookingChange): BookingStatus[] {
  return bookingStatuses.filter((from) => nextBookingStatus(from, change) !== null);
}

/** The status `change` leads to, for a writer that has already narrowed the rows to `from`. */
export function bookingStatusAfter(from: BookingStatus, change: BookingChange): BookingStatus {
  const next = nextBookingStatus(from, change);
  if (next === null) throw new Error(`a ${from} booking cannot be ${change}`);
  return next;
}
