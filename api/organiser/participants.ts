import { and, asc, eq, inArray, ne } from "drizzle-orm";
import { ageAtEvent } from "../../common/age.ts";
import type { Db } from "../../db/client.ts";
import { bookings, documents, events, type PersonGender, promoCodes, users } from "../../db/schema.ts";
import { NotFound } from "../lib/errors.ts";

/**
 * One row of the admin's participant table (`get-event-user/{id}`, docs/api.md): the booking's fields from
 * `id` to `phone`, plus `status`, `checkedInAt`, and for the organiser's desk `email` and `bookedAt` (when
 * the payment went through; ISO 8601 UTC).
 */
export type EventParticipant = {
  /** The attendee's user id: the same id the feedback links carry for this participant. */
  id: number;
  username: string;
  gender: PersonGender;
  booking_amount: number;
  payment_intent_id: string | null;
  image_name: string;
  phone: string;
  status: "paid" | "refunded";
  checkedInAt: string | null;
  email: string;
  bookedAt: string;
  /** Age on the event's date, null when no date of birth was given (decision 023). */
  age: number | null;
  /** Dollars off the list price (early bird and promo code), and the code used, if any. */
  discount: number;
  code: string | null;
  /** The booking's receipt or tax invoice number (`INV-000123`), null when it has none (decision 032). */
  invoiceNumber: string | null;
  /** The buyer's address refused an email for good (an SMTP 5xx, decision 031): write or call them. */
  emailBounced: boolean;
};

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
