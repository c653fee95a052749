import { and, asc, eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { bookings, users } from "../../db/schema.ts";
import type { Env } from "../env.ts";
import { enqueueEmail, enqueueSms } from "./outbox.ts";
import type { EmailContent } from "./templates/email-frame.ts";

/** A paid booking, as much of it as a text to its attendee needs. */
export type PaidAttendee = {
  id: number;
  userId: number;
  phone: string;
  amountCents: number;
  /** As the details form took them, for an email's greeting and address. */
  name: string;
  email: string;
};

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
    /**
     * The same news by email too (docs/decisions/033-emails.md), to each attendee who gave an
     * address, keyed `{dedupeKey}:email`. Not counted: the count is of texts.
     */
    email?: { env: Pick<Env, "EMAIL">; content: (attendee: PaidAttendee) => EmailContent };
  },
): number {
  const paid = tx
    .select({
      id: bookings.id,
      userId: bookings.userId,
      phone: bookings.phone,
      amountCents: bookings.amountCents,
      name: users.name,
      email: users.email,
    })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .where(and(eq(bookings.eventId, eventId), eq(bookings.status, "paid")))
    .orderBy(asc(bookings.id))
    .all()
    .filter((attendee) => text.only?.(attendee) ?? true);
  for (const attendee of paid) {
    enqueueSms(tx, { dedupeKey: text.dedupeKey(attendee), to: attendee.phone, body: text.body(attendee) });
    if (text.email && attendee.email) {
      const content = text.email.content(attendee);
      const dedupeKey = `${text.dedupeKey(attendee)}:email`;
      enqueueEmail(tx, { dedupeKey, to: attendee.email, bookingId: attendee.id, ...content }, text.email.env);
    }
  }
  return paid.length;
}
