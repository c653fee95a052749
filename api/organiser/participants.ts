import { and, asc, eq, inArray, ne } from "drizzle-orm";
import type { z } from "zod";
import { ageAtEvent } from "../../common/age.ts";
import type { Db } from "../../db/client.ts";
import { bookings, documents, events, promoCodes, users } from "../../db/schema.ts";
import { NotFound } from "../lib/errors.ts";
import type { eventParticipant } from "./admin-schemas.ts";

/** One row of the admin's participant table (`get-event-user/{id}`): its schema's type (admin-schemas.ts). */
export type EventParticipant = z.output<typeof eventParticipant>;

/** The paid and refunded bookings of an event, oldest booking first. Holds never paid are not participants. */
export function listEventParticipants(db: Db, eventId: number): EventParticipant[] {
  const event = db.select().from(events).where(eq(events.id, eventId)).get();
  if (!event) throw NotFound("no such event");
  return db
    .select({ booking: bookings, user: users, code: promoCodes.code, invoiceNumber: documents.number })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .leftJoin(promoCodes, eq(promoCodes.id, bookings.promoCodeId))
    .leftJoin(documents, and(eq(documents.bookingId, bookings.id), ne(documents.kind, "adjustment")))
    .where(and(eq(bookings.eventId, eventId), inArray(bookings.status, ["paid", "refunded"])))
    .orderBy(asc(bookings.id))
    .all()
    .map(({ booking, user, code, invoiceNumber }) => ({
      id: user.id,
      username: user.name,
      gender: user.gender,
      booking_amount: booking.amountCents / 100,
      payment_intent_id: booking.paymentIntentId,
      image_name: user.imageName,
      phone: booking.phone,
      status: booking.status as "paid" | "refunded",
      checkedInAt: booking.checkedInAt === null ? null : new Date(booking.checkedInAt).toISOString(),
      email: user.email,
      // A booking refunded for want of a seat was never marked paid: its hold's time is the best there is.
      bookedAt: new Date(booking.paidAt ?? booking.createdAt).toISOString(),
      age: ageAtEvent(user.dateOfBirth, event),
      discount: booking.discountCents / 100,
      code,
      invoiceNumber,
      emailBounced: booking.emailFailedAt !== null,
    }));
}
