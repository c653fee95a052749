import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { bookings } from "../../db/schema.ts";
import { safeEqual } from "../lib/crypto.ts";
import { assertUnderLimit, type Limit, recordHit } from "../lib/rate-limit.ts";
import { loadBookingContext } from "./checkout.ts";

/** Wrong door codes per address: enough for typos at a busy door, far too few to guess a code. */
export const CHECK_IN_LIMIT: Limit = { bucket: "confirm-booking", max: 20, windowMs: 10 * 60_000 };

/** The confirm-booking page's header. The code itself is only for the admin (door staff). */
export function getEventDetails(db: Db, input: { userId: number; eventId: number; admin: boolean }) {
  const { booking, event } = loadBookingContext(db, input.userId, input.eventId);
  return {
    event: {
      eventName: event.name,
      eventDate: new Date(event.startsAt).toISOString(),
      eventLocation: event.address,
    },
    uniqueCode: input.admin ? booking.uniqueCode : null,
  };
}

/**
 * Checks a door code on the server, in constant time, for a paid booking only, and records the first
 * check-in. Wrong guesses count against the caller's address; at the limit every guess is refused.
 */
export function confirmBooking(
  db: Db,
  input: { userId: number; eventId: number; uniqueCode: string; address: string; now: number },
): { confirmed: boolean; checkedInAt?: string } {
  assertUnderLimit(db, CHECK_IN_LIMIT, input.address, input.now);
  let stored: string | null = null;
  let paid = false;
  try {
    const { booking } = loadBookingContext(db, input.userId, input.eventId);
    stored = booking.uniqueCode;
    paid = booking.status === "paid";
  } catch {
    // An unknown booking is just a wrong answer: the page shows "Invalid code".
  }
  // SPEC.md: the code is compared as-is.
  const matches = safeEqual(input.uniqueCode, stored ?? "\u0000");
  if (!paid || !stored || !matches) {
    recordHit(db, CHECK_IN_LIMIT, input.address, input.now);
    return { confirmed: false };
  }
  return db.transaction(
    (tx) => {
      tx.update(bookings)
        .set({ checkedInAt: input.now })
        .where(
          and(eq(bookings.userId, input.userId), eq(bookings.eventId, input.eventId), isNull(bookings.checkedInAt)),
        )
        .run();
      const { booking } = loadBookingContext(tx, input.userId, input.eventId);
      return { confirmed: true, checkedInAt: new Date(booking.checkedInAt ?? input.now).toISOString() };
    },
    { behavior: "immediate" },
  );
}
