import { and, asc, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { bookings } from "../../db/schema.ts";
import { enqueueSms } from "./outbox.ts";

/** A paid booking, as much of it as a text to its attendee needs. */
export type PaidAttendee = { id: number; userId: number; phone: string; amountCents: number };

/**
 * Queues one text to every attendee with a paid seat at the event, in booking order, and returns how
 * many. Call it inside the transaction that makes the news true (the event started, ended or was
 * cancelled), so the texts exist exactly when the change does; the dedupe key makes a second run
 * queue nothing more. The caller sends them after the commit (`deliverBatch`).
 */
export function textPaidAttendees(
  tx: DbOrTx,
  eventId: number,
  text: {
    dedupeKey: (attendee: PaidAttendee) => string;
    body: (attendee: PaidAttendee) => string;
    /** Leaves out the attendees it answers false for (a no-show at the results, results.ts). */
    only?: (attendee: PaidAttendee) => boolean;
  },
): number {
  const paid = tx
    .select({ id: bookings.id, userId: bookings.userId, phone: bookings.phone, amountCents: bookings.amountCents })
    .from(bookings)
    .where(and(eq(bookings.eventId, eventId), eq(bookings.status, "paid")))
    .orderBy(asc(bookings.id))
    .all()
    .filter((attendee) => text.only?.(attendee) ?? true);
  for (const attendee of paid) {
    enqueueSms(tx, { dedupeKey: text.dedupeKey(attendee), to: attendee.phone, body: text.body(attendee) });
  }
  return paid.length;
}
