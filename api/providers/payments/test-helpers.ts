import type { Db } from "../../../db/client.ts";
import { bookings, users } from "../../../db/schema.ts";

let counter = 0;

/**
 * A seat held the way save-user-details leaves it (issue 3's routes have their own tests), so the
 * payment suites start from "Proceed to Payment" without the OTP steps.
 */
export function insertHeldBooking(
  db: Db,
  eventId: number,
  options: { holdMs?: number; now?: number; name?: string; email?: string; amountCents?: number } = {},
) {
  counter++;
  const now = options.now ?? Date.now();
  const phone = `+6141${String((counter * 7919 + Math.floor(Math.random() * 1e5)) % 1e7).padStart(7, "0")}`;
  const user = db
    .insert(users)
    .values({
      name: options.name ?? `Buyer ${counter}`,
      email: options.email ?? `buyer${counter}@example.com`,
      phone,
      gender: counter % 2 ? "female" : "male",
      imageName: `${"0".repeat(32)}.jpg`,
      thumbName: `${"0".repeat(32)}-thumb.jpg`,
    })
    .returning()
    .get();
  const booking = db
    .insert(bookings)
    .values({
      userId: user.id,
      eventId,
      phone,
      status: "held",
      holdExpiresAt: now + (options.holdMs ?? 30 * 60_000),
      amountCents: options.amountCents ?? 4500,
    })
    .returning()
    .get();
  return { userId: user.id, bookingId: booking.id, phone, email: user.email, name: user.name };
}
