import { eq } from "drizzle-orm";
import { beforeAll, expect } from "vitest";
import { bookings } from "../../db/schema.ts";
import { type BrowserClient, browserClient, suiteTestServer, verifiedPhoneBrowser } from "../api-harness.ts";
import { insertEvent, insertPaidBookings, makeImage } from "../fixtures.ts";
import { newMobile } from "./booking-flow.ts";

// What the seats-by-gender and waitlist suites (docs/decisions/015) share: one server per file with an
// admin signed in, a photo to book with, and events and paid seats written straight to its database.

const PASSWORD = "correct horse battery staple";
const DAY = 24 * 60 * 60_000;

export type Gender = "male" | "female";
export type Person = { phone: string; browser: BrowserClient };

export const json = async <T = Record<string, unknown>>(response: Response) => (await response.json()) as T;

/**
 * The server for a whole test file (see suiteTestServer), with the admin signed in. Call at the top
 * of the file; the admin and photo are there once the tests run. The file's own afterAll hooks run
 * before the server closes (Vitest runs after-hooks as a stack).
 */
export function waitlistSuite() {
  // Every test verifies fresh phones from one address, far past the usual per-address limit.
  const server = suiteTestServer({ env: { OTP_MAX_PER_ADDRESS: "100000" } });
  let admin: BrowserClient;
  let photo: Uint8Array;

  beforeAll(async () => {
    admin = browserClient(server.url);
    expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
    photo = new Uint8Array(await makeImage("jpeg", 160, 120));
  });

  const now = () => server.deps.now();
  const browserFor = (phone: string) => verifiedPhoneBrowser(server, phone);

  return {
    server,
    /** A browser signed in as the organiser. */
    get admin() {
      return admin;
    },
    /** A JPEG the details form accepts. */
    get photo() {
      return photo;
    },
    now,
    browserFor,
    /** A fresh phone and a browser that verified it. */
    person(): Person {
      const phone = newMobile();
      return { phone, browser: browserFor(phone) };
    },
    /**
     * An event that starts in a week (or `startsIn`), balanced when `male` and `female` are given,
     * else one pool of seats.
     */
    newEvent(seats: { total: number; male?: number; female?: number; startsIn?: number; name?: string }) {
      return insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR, {
        ...(seats.name ? { name: seats.name } : {}),
        totalSeats: seats.total,
        seatsMale: seats.male ?? null,
        seatsFemale: seats.female ?? null,
        startsAt: now() + (seats.startsIn ?? 7 * DAY),
      });
    },
    /** Paid seats whose payments the local provider can refund (its intents are `pi_local_…`). */
    paidSeats(eventId: number, count: number, gender: Gender) {
      return insertPaidBookings(server.deps.db, eventId, count, { gender }).map((p) => {
        const paymentIntentId = `pi_local_${p.bookingId}_${Math.random().toString(36).slice(2, 10)}`;
        server.deps.db.update(bookings).set({ paymentIntentId }).where(eq(bookings.id, p.bookingId)).run();
        return { ...p, paymentIntentId };
      });
    },
  };
}

/** The offer link in a waitlist SMS: the offer's id and its signed token. */
export function offerLink(body: string | undefined): { o: number; t: string } {
  const [, o, t] = body?.match(/\/waitlist-offer\?o=(\d+)&t=(\S+)/) ?? [];
  return { o: Number(o), t: t ?? "" };
}
