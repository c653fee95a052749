import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { bookings, checkoutSessions, type Event, events, users } from "../../db/schema.ts";
import { Conflict, NotFound, TooLarge } from "../lib/errors.ts";
import { MAX_IMAGE_BYTES, removeStoredImage, storeImage } from "./images.ts";
import { takenSeats } from "./seats.ts";

export type Attendee = {
  name: string;
  email: string;
  phone: string;
  gender: "male" | "female";
  imageName: string;
  thumbName: string;
};

/** Sales close at the start, whatever the status: nobody should pay for a night already under way. */
export function assertSalesOpen(event: Event, now: number) {
  if (event.startsAt <= now) throw Conflict(BOOKING_CLOSED);
}

export const BOOKING_CLOSED = "booking has closed";

/** 404 for an unknown event, 409 once it has started (by clock or by the organiser): no more bookings. */
export function assertBookable(event: Event | undefined, now: number): asserts event is Event {
  if (!event) throw NotFound("no such event");
  assertSalesOpen(event, now);
  if (event.status !== "upcoming") throw Conflict("this event is no longer taking bookings");
}

export function findEvent(db: Db, eventId: number): Event | undefined {
  return db.select().from(events).where(eq(events.id, eventId)).get();
}

/**
 * Holds one seat for `holdMinutes`, in one immediate transaction so that two buyers can never both
 * take the last seat: the write lock is taken before the seats are counted.
 */
export function holdSeat(
  db: Db,
  input: { eventId: number; attendee: Attendee; holdMinutes: number; now: number },
): { userId: number; bookingId: number } {
  const { eventId, attendee, now } = input;
  return db.transaction(
    (tx) => {
      const event = tx.select().from(events).where(eq(events.id, eventId)).get();
      assertBookable(event, now);
      // A retry (back button, a second tab) replaces this phone's earlier hold instead of taking a second seat.
      const replaced = tx
        .update(bookings)
        .set({ status: "released" })
        .where(and(eq(bookings.phone, attendee.phone), eq(bookings.eventId, eventId), eq(bookings.status, "held")))
        .returning({ id: bookings.id })
        .all();
      // Their checkouts close too: an old payment page left open must not buy a second seat.
      if (replaced.length > 0) {
        tx.update(checkoutSessions)
          .set({ status: "cancelled" })
          .where(
            and(
              inArray(
                checkoutSessions.bookingId,
                replaced.map((r) => r.id),
              ),
              eq(checkoutSessions.status, "open"),
            ),
          )
          .run();
      }
      const paid = tx
        .select({ id: bookings.id })
        .from(bookings)
        .where(and(eq(bookings.phone, attendee.phone), eq(bookings.eventId, eventId), eq(bookings.status, "paid")))
        .get();
      if (paid) throw Conflict("this phone already has a paid seat for this event", { alreadyBooked: true });
      const taken =
        tx
          .select({ n: takenSeats(now) })
          .from(bookings)
          .where(eq(bookings.eventId, eventId))
          .get()?.n ?? 0;
      if (taken >= event.totalSeats) throw Conflict("no seats left");
      const user = tx.insert(users).values(attendee).returning({ id: users.id }).get();
      const booking = tx
        .insert(bookings)
        .values({
          userId: user.id,
          eventId,
          phone: attendee.phone,
          status: "held",
          holdExpiresAt: now + input.holdMinutes * 60_000,
          amountCents: event.priceCents,
        })
        .returning({ id: bookings.id })
        .get();
      return { userId: user.id, bookingId: booking.id };
    },
    { behavior: "immediate" },
  );
}

/**
 * The details form: store the photo (decoded, re-encoded, thumbnailed), then hold the seat. The photo
 * is processed before the transaction because sharp is asynchronous and nothing may await inside it;
 * when the hold is refused the photo is deleted again, so refusals leave nothing behind.
 */
export async function saveUserDetails(
  deps: { db: Db; uploadsDir: string; holdMinutes: number; now: () => number },
  input: { eventId: number; name: string; email: string; phone: string; gender: "male" | "female"; image: File },
): Promise<{ userId: number; bookingId: number }> {
  if (input.image.size > MAX_IMAGE_BYTES) throw TooLarge("image larger than 5 MB");
  const stored = await storeImage(deps.uploadsDir, new Uint8Array(await input.image.arrayBuffer()));
  try {
    return holdSeat(deps.db, {
      eventId: input.eventId,
      attendee: { name: input.name, email: input.email, phone: input.phone, gender: input.gender, ...stored },
      holdMinutes: deps.holdMinutes,
      now: deps.now(),
    });
  } catch (error) {
    await removeStoredImage(deps.uploadsDir, stored);
    throw error;
  }
}
