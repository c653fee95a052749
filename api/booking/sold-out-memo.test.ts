import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { bookings, events } from "../../db/schema.ts";
import { suiteTestServer, type TestServer, verifiedPhoneBrowser } from "../../test/api-harness.ts";
import { insertEvent, insertHeldBooking, insertPaidBookings, makeImage } from "../../test/fixtures.ts";
import { holdSeat, newMobile } from "../../test/suites/booking-flow.ts";

// A full event refuses first saves from what it already knows (sold-out-memo.ts, issue 38): those
// refusals count nothing, and whatever frees a seat, or makes the answer another one, is seen at once.

let jpeg: Uint8Array;
beforeAll(async () => {
  jpeg = new Uint8Array(await makeImage("jpeg", 400, 300));
});

const DAY = 86_400_000;

describe("a full event's refusals from memory", () => {
  const server = suiteTestServer({ env: { OTP_MAX_PER_ADDRESS: "1000" } });
  const save = (phone: string, eventId: number, gender: "male" | "female" = "female") =>
    holdSeat(verifiedPhoneBrowser(server, phone), { phone, eventId, image: jpeg, gender });
  const status = async (phone: string, eventId: number, gender?: "male" | "female") =>
    (await save(phone, eventId, gender)).status;
  const lastSeatHeld = async (s: TestServer, totalSeats = 1) => {
    const { db, env } = s.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { totalSeats });
    const hold = insertHeldBooking(db, event.id, { now: s.deps.now(), holdMs: 10 * 60_000 });
    return { event, hold };
  };

  it("counts none of them against the phone's saves, and a seat freed by the clock goes at once", async () => {
    const { event } = await lastSeatHeld(server);
    const phone = newMobile();
    // Past the ten saves an hour a phone may make: every one is the spec's sold out, none a 429.
    for (let i = 0; i < 14; i++) {
      const refused = await save(phone, event.id);
      expect(refused).toMatchObject({ status: 409, error: "no seats left" });
    }
    server.advance(10 * 60_000 + 1);
    expect(await status(phone, event.id)).toBe(200);
  });

  it("sees a seat freed by any write: the organiser adding one", async () => {
    const { db } = server.deps;
    const { event } = await lastSeatHeld(server);
    expect(await status(newMobile(), event.id)).toBe(409);
    expect(await status(newMobile(), event.id)).toBe(409);
    db.update(events).set({ totalSeats: 2 }).where(eq(events.id, event.id)).run();
    expect(await status(newMobile(), event.id)).toBe(200);
  });

  it("leaves the phones with a booking there to the usual answers: the holder's retry, the paid seat", async () => {
    const { db } = server.deps;
    const { event, hold } = await lastSeatHeld(server, 2);
    const [paid] = insertPaidBookings(db, event.id, 1);
    expect(await status(newMobile(), event.id)).toBe(409);
    expect(await status(newMobile(), event.id)).toBe(409);
    // The holder of a seat saving again keeps it; the phone that paid hears it already has one.
    expect(await status(hold.phone, event.id)).toBe(200);
    const again = await save(paid!.phone, event.id);
    expect(again.status).toBe(409);
    expect(again.error).not.toBe("no seats left");
    expect(db.select().from(bookings).where(eq(bookings.phone, paid!.phone)).all()).toHaveLength(1);
  });

  it("refuses only the gender that is full at a balanced event", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { totalSeats: 4, seatsMale: 2, seatsFemale: 2 });
    insertPaidBookings(db, event.id, 2, { gender: "male" });
    for (let i = 0; i < 3; i++) {
      const man = await save(newMobile(), event.id, "male");
      expect(man).toMatchObject({ status: 409, error: "no seats left for men" });
    }
    expect(await status(newMobile(), event.id, "female")).toBe(200);
  });

  it("says booking has closed, not sold out, once the event starts", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { totalSeats: 1, startsAt: server.deps.now() + DAY });
    insertPaidBookings(db, event.id, 1);
    expect(await save(newMobile(), event.id)).toMatchObject({ status: 409, error: "no seats left" });
    expect(await save(newMobile(), event.id)).toMatchObject({ status: 409, error: "no seats left" });
    server.advance(DAY + 1);
    expect(await save(newMobile(), event.id)).toMatchObject({ status: 409, error: "booking has closed" });
  });
});
