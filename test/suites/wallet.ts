import { eq } from "drizzle-orm";
import { linkToken } from "../../api/lib/capability.ts";
import { bookings, type NewEvent } from "../../db/schema.ts";
import type { TestServer } from "../api-harness.ts";
import { insertEvent, insertPaidBookings } from "../fixtures.ts";

const CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/**
 * A paid booking with its ticket issued (a door code), as payment completion leaves it, on a wallet
 * suite's server: its id, the ticket link's token (`t`), and who holds it. The wallet suites start here.
 */
export async function paidTicket(
  server: TestServer,
  options: { event?: Partial<NewEvent>; eventId?: number; name?: string; gender?: "male" | "female" } = {},
) {
  const { db, env } = server.deps;
  const eventId = options.eventId ?? (await insertEvent(db, env.UPLOADS_DIR, options.event)).id;
  const [paid] = insertPaidBookings(db, eventId, 1, { name: options.name ?? "Asha Rao", gender: options.gender });
  const { bookingId, userId, phone } = paid!;
  // A door code from the ticket's alphabet (no 0/O, 1/I/L), as issueTicket makes one.
  const uniqueCode = Array.from(
    { length: 10 },
    () => CODE_ALPHABET[Math.floor(Math.random() * CODE_ALPHABET.length)],
  ).join("");
  db.update(bookings).set({ uniqueCode }).where(eq(bookings.id, bookingId)).run();
  return { eventId, bookingId, userId, phone, uniqueCode, token: linkToken(env, "ticket", bookingId) };
}
