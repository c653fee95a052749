import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../db/client.ts";
import { bookings, outboxMessages, users } from "../db/schema.ts";
import { insertEvent, makeImage } from "../test/fixtures.ts";
import {
  cookieOf,
  createCheckout,
  holdSeat,
  newMobile,
  pay,
  paymentIntentOf,
  sendConfirmation,
  verifiedBrowser,
} from "../test/suites/booking-flow.ts";
import { integrity } from "../test/suites/db-state.ts";
import { type AppServer, startAppServer } from "./harness.ts";

// The promises of docs/decisions/002-seats-holds-and-payment.md hold through a crash: the real server (spawned like `npm start`) is killed
// with SIGKILL while bookings are in flight and restarted on the same SQLite file, three times.
// Whatever the server answered as confirmed must still be confirmed with the same code, no event
// may hold more seats than it has (nor a balanced one more of a gender than its half), holds still
// expire, and the file must be sound.

const ENV = {
  SEED_DEMO: "0",
  HOLD_MINUTES: "1",
  OTP_MAX_PER_ADDRESS: "100000",
  OTP_MAX_PER_PHONE: "1000",
};
const TOTAL_SEATS = 60;
const BUYERS_PER_ROUND = 18;
const ROUNDS = 3;
/** A small balanced room, contested every round. */
const ROOM = { totalSeats: 4, seatsMale: 2, seatsFemale: 2 };
/** As many women as the whole room, first in line: only the rule per gender keeps them to their half. */
const ROOM_BUYERS = { female: 4, male: 2 };

type Confirmed = { userID: number; eventID: number; paymentIntentId: string; uniqueCode: string; cookie: string };

/** One buyer from the phone number to the confirmation; stops quietly when the server dies under it. */
async function buyer(
  baseUrl: string,
  eventId: number,
  photo: Uint8Array,
  confirmed: Confirmed[],
  gender: "male" | "female" = "female",
): Promise<"confirmed" | "refused" | "interrupted"> {
  try {
    const phone = newMobile();
    const browser = await verifiedBrowser(baseUrl, phone);
    const held = await holdSeat(browser, { phone, eventId, image: photo, gender });
    if (held.status !== 200 || !held.userID) return "refused";
    const session = await createCheckout(baseUrl, { userID: held.userID, eventID: eventId }, browser);
    if (!session.sessionId || (await pay(baseUrl, session.sessionId)) !== 303) return "refused";
    const paymentIntentId = await paymentIntentOf(baseUrl, session.sessionId, browser);
    if (!paymentIntentId) return "refused";
    const reply = await sendConfirmation(baseUrl, { userID: held.userID, eventID: eventId, paymentIntentId }, browser);
    if (reply.status !== 200 || !reply.uniqueCode) return "refused";
    // The cookie outlives the server: the harness keeps SESSION_SECRET across restarts.
    const cookie = cookieOf(browser);
    confirmed.push({ userID: held.userID, eventID: eventId, paymentIntentId, uniqueCode: reply.uniqueCode, cookie });
    return "confirmed";
  } catch {
    // The server was killed mid-request: this buyer was never told anything, so nothing is promised.
    return "interrupted";
  }
}

/** Seats taken as docs/decisions/002-seats-holds-and-payment.md counts them, at a chosen moment. */
function takenSeats(sqlite: ReturnType<typeof openDatabase>["$client"], eventId: number, now: number): number {
  return sqlite
    .prepare(
      `select count(*) from bookings where event_id = ? and (status = 'paid'
         or (status = 'held' and hold_expires_at > ?) or (status = 'refunded' and seat_released = 0))`,
    )
    .pluck()
    .get(eventId, now) as number;
}

/** Paid bookings at an event by the attendee's gender, as the file has them. */
function paidByGender(sqlite: ReturnType<typeof openDatabase>["$client"], eventId: number) {
  const rows = sqlite
    .prepare(
      `select users.gender as gender, count(*) as n from bookings join users on users.id = bookings.user_id
         where bookings.event_id = ? and bookings.status = 'paid' group by users.gender`,
    )
    .all(eventId) as { gender: "male" | "female"; n: number }[];
  const count = (gender: "male" | "female") => rows.find((r) => r.gender === gender)?.n ?? 0;
  return { male: count("male"), female: count("female"), total: count("male") + count("female") };
}

// Its own server, not the `server` fixture (e2e/fixtures.ts): the process's lifecycle is the subject,
// killed with SIGKILL and started again on the same data folder, three times.
describe("killing the server mid-booking", () => {
  let dataDir: string;
  let server: AppServer | undefined;
  let photo: Uint8Array;
  let eventId: number;
  let lastSeatEventId: number;
  let roomId: number;
  const confirmed: Confirmed[] = [];
  /** The room's confirmations: kept like the others, but not counted towards a round's three. */
  const roomConfirmed: Confirmed[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "sdt-crash-"));
    photo = new Uint8Array(await makeImage("jpeg", 200, 150));
    // The schema comes from the same migration the server runs at start.
    const db = openDatabase(join(dataDir, "app.db"));
    const event = await insertEvent(db, join(dataDir, "uploads"), { name: "Crash Night", totalSeats: TOTAL_SEATS });
    eventId = event.id;
    roomId = (await insertEvent(db, join(dataDir, "uploads"), { name: "Small Room", ...ROOM })).id;
    // One seat, taken by a hold that ran out before the crash: it must be free after every restart.
    const lastSeat = await insertEvent(db, join(dataDir, "uploads"), { name: "Last Seat", totalSeats: 1 });
    lastSeatEventId = lastSeat.id;
    const user = db
      .insert(users)
      .values({
        name: "Gone Away",
        email: "gone@example.com",
        phone: "+61400000001",
        gender: "male",
        imageName: `${"0".repeat(32)}.jpg`,
        thumbName: `${"0".repeat(32)}-thumb.jpg`,
      })
      .returning()
      .get();
    db.insert(bookings)
      .values({
        userId: user.id,
        eventId: lastSeat.id,
        phone: user.phone,
        status: "held",
        holdExpiresAt: Date.now() - 60_000,
        amountCents: 4500,
      })
      .run();
    db.$client.close();
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it(`keeps every confirmed booking through ${ROUNDS} SIGKILLs`, { timeout: 240_000 }, async () => {
    for (let round = 1; round <= ROUNDS; round++) {
      server = await startAppServer(ENV, dataDir);
      const url = server.url;
      const before = confirmed.length;
      // Buyers keep arriving until the kill, so some are caught at every step of the flow.
      const flows: Promise<"confirmed" | "refused" | "interrupted">[] = [];
      // Refusals are expected there: the room runs out, and holds cut off by a kill keep seats a while.
      const roomFlows = (["female", "male"] as const).flatMap((gender) =>
        Array.from({ length: ROOM_BUYERS[gender] }, () => buyer(url, roomId, photo, roomConfirmed, gender)),
      );
      // Until three are confirmed: seconds on a quiet machine, longer on a loaded one.
      const deadline = Date.now() + 30_000;
      while (confirmed.length - before < 3 && flows.length < BUYERS_PER_ROUND && Date.now() < deadline) {
        flows.push(buyer(url, eventId, photo, confirmed));
        await new Promise((r) => setTimeout(r, 40));
      }
      while (confirmed.length - before < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      await server.kill();
      server = undefined;
      const outcomes = await Promise.all(flows);
      await Promise.all(roomFlows);
      expect(
        outcomes.filter((o) => o === "confirmed").length,
        `round ${round}: confirmed before the kill`,
      ).toBeGreaterThan(0);
      expect(outcomes.filter((o) => o === "interrupted").length, `round ${round}: caught mid-booking`).toBeGreaterThan(
        0,
      );
      expect(
        outcomes.filter((o) => o === "refused"),
        `round ${round}: nobody refused while seats were free`,
      ).toEqual([]);

      const db = openDatabase(join(dataDir, "app.db"));
      try {
        expect(integrity(db.$client)).toEqual({ integrity: ["ok"], foreignKeys: [] });
        for (const c of [...confirmed, ...roomConfirmed]) {
          const row = db.select().from(bookings).where(eq(bookings.userId, c.userID)).get();
          expect(row, `confirmed user ${c.userID}`).toMatchObject({
            status: "paid",
            eventId: c.eventID,
            paymentIntentId: c.paymentIntentId,
            uniqueCode: c.uniqueCode,
          });
        }
        const now = Date.now();
        expect(takenSeats(db.$client, eventId, now)).toBeLessThanOrEqual(TOTAL_SEATS);
        // The contested room: never more paid than its seats, nor more of a gender than its half.
        const room = paidByGender(db.$client, roomId);
        expect(room.total, `round ${round}: paid in the room`).toBeLessThanOrEqual(ROOM.totalSeats);
        expect(room.female, `round ${round}: paid women in the room`).toBeLessThanOrEqual(ROOM.seatsFemale);
        expect(room.male, `round ${round}: paid men in the room`).toBeLessThanOrEqual(ROOM.seatsMale);
        expect(takenSeats(db.$client, roomId, now), `round ${round}: seats taken in the room`).toBeLessThanOrEqual(
          ROOM.totalSeats,
        );
        // A payment and its ticket and SMS are written together: no paid booking lacks either.
        const paid = db
          .select()
          .from(bookings)
          .where(and(eq(bookings.eventId, eventId), eq(bookings.status, "paid")))
          .all();
        for (const b of paid) {
          expect(b.uniqueCode, `paid booking ${b.id} has a code`).toMatch(/^[A-Z2-9]{10}$/);
          expect(
            db
              .select()
              .from(outboxMessages)
              .where(eq(outboxMessages.dedupeKey, `confirmation-${b.id}`))
              .all(),
            `paid booking ${b.id} has its confirmation SMS queued`,
          ).toHaveLength(1);
        }
        // Holds left behind by the crash run out by the clock; past the longest hold only payments count.
        const held = db
          .select()
          .from(bookings)
          .where(and(eq(bookings.eventId, eventId), eq(bookings.status, "held")))
          .all();
        const longest = Math.max(now, ...held.map((b) => b.holdExpiresAt));
        for (const b of held) {
          expect(b.holdExpiresAt).toBeGreaterThan(b.createdAt);
          expect(b.holdExpiresAt).toBeLessThanOrEqual(now + 32 * 60_000);
        }
        expect(takenSeats(db.$client, eventId, longest + 1)).toBe(paid.length);
      } finally {
        db.$client.close();
      }
    }

    // Restarted for good: the server reads the same file and still honours every confirmation.
    server = await startAppServer(ENV, dataDir);
    const url = server.url;
    for (const c of [...confirmed, ...roomConfirmed]) {
      const again = await sendConfirmation(url, c, c.cookie);
      expect(again.status).toBe(200);
      expect(again.uniqueCode).toBe(c.uniqueCode);
    }
    // The expired hold from before the crashes does not keep the last seat.
    const phone = newMobile();
    const browser = await verifiedBrowser(url, phone);
    expect((await holdSeat(browser, { phone, eventId: lastSeatEventId, image: photo })).status).toBe(200);
    const other = newMobile();
    const late = await verifiedBrowser(url, other);
    expect((await holdSeat(late, { phone: other, eventId: lastSeatEventId, image: photo })).status).toBe(409);
  });
});
