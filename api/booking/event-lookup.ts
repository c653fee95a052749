import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { type Event, events } from "../../db/schema.ts";
import { Conflict, NotFound } from "../lib/errors.ts";

// Event lookup for booking: finding an event and whether it still takes bookings. The holds, the
// checkout, the waitlist and the organiser's routes all start here.

/** Sales close at the start, whatever the status: nobody should pay for a night already under way. */
export function assertSalesOpen(event: Event, now: number) {
  if (event.startsAt <= now) throw Conflict(BOOKING_CLOSED, "booking_closed");
}

export const BOOKING_CLOSED = "booking has closed";

/** 404 for an unknown event, 409 once it has started (by clock or by the organiser): no more bookings. */
export function assertBookable(event: Event | undefined, now: number): asserts event is Event {
  if (!event) throw NotFound("no such event");
  assertSalesOpen(event, now);
  if (event.status !== "upcoming") throw Conflict("this event is no longer taking bookings", "not_taking_bookings");
}

export function findEvent(db: Db, eventId: number): Event | undefined {
  return db.select().from(events).where(eq(events.id, eventId)).get();
}
