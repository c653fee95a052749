import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { type Db, openDatabase } from "../../db/client.ts";
import { bookings, waitlistEntries, waitlistOffers } from "../../db/schema.ts";
import { insertEvent, insertHeldBooking, insertPaidBookings } from "../../test/fixtures.ts";
import { seatUse, seatUseNow } from "./seats.ts";

// The hold path of a one-pool event counts its seats per status, from the index alone
// (docs/decisions/007-scale.md). It must count exactly what the one definition, seatCounts, counts.

const dir = mkdtempSync(join(tmpdir(), "sdt-seats-"));
const db: Db = openDatabase(join(dir, "app.db"));
afterAll(() => {
  db.$client.close();
  rmSync(dir, { recursive: true, force: true });
});

const MINUTE = 60_000;

describe("counting one event's seats", () => {
  it("counts paid, live holds and refunds that kept their seat, per status as in one expression", async () => {
    const now = Date.now();
    const event = await insertEvent(db, join(dir, "uploads"), { totalSeats: 50 });
    const other = await insertEvent(db, join(dir, "uploads"), { totalSeats: 50 });
    const paid = insertPaidBookings(db, event.id, 5);
    insertPaidBookings(db, other.id, 3);
    for (let i = 0; i < 4; i++) insertHeldBooking(db, event.id, { now, holdMs: 10 * MINUTE });
    for (let i = 0; i < 3; i++) insertHeldBooking(db, event.id, { now, holdMs: -MINUTE });
    const released = insertHeldBooking(db, event.id, { now });
    db.update(bookings).set({ status: "released" }).where(eq(bookings.id, released.bookingId)).run();
    // Refunded after the start (the seat was used) and before it (the seat went back).
    const [kept, gaveBack] = paid.splice(0, 2);
    db.update(bookings).set({ status: "refunded" }).where(eq(bookings.id, kept!.bookingId)).run();
    db.update(bookings)
      .set({ status: "refunded", seatReleased: true })
      .where(eq(bookings.id, gaveBack!.bookingId))
      .run();

    // 3 paid + 1 refund that kept its seat + 4 live holds.
    const general = seatUse(db, event.id, now);
    expect(general.total).toBe(8);
    expect(seatUse(db, event.id, now, { byGender: false })).toEqual({ total: 8, male: 0, female: 0 });
    // Leaving out one phone's hold takes the general path, and still agrees.
    const holder = db.select().from(bookings).where(eq(bookings.status, "held")).all()[0]!;
    expect(seatUse(db, event.id, now, { byGender: false, exceptHoldOf: holder.phone }).total).toBe(
      seatUse(db, event.id, now, { exceptHoldOf: holder.phone }).total,
    );
    // An hour on, every hold has run out.
    expect(seatUse(db, event.id, now + 60 * MINUTE, { byGender: false }).total).toBe(4);
    expect(seatUse(db, event.id, now + 60 * MINUTE).total).toBe(4);
  });
});

describe("the hold's count, compiled once", () => {
  it("counts what seatUse counts, one pool or balanced, with live offers, as holds run out", async () => {
    const now = Date.now();
    const onePool = await insertEvent(db, join(dir, "uploads"), { totalSeats: 50 });
    const balanced = await insertEvent(db, join(dir, "uploads"), { totalSeats: 20, seatsMale: 10, seatsFemale: 10 });
    for (const event of [onePool, balanced]) {
      const paid = insertPaidBookings(db, event.id, 3);
      db.update(bookings).set({ status: "refunded" }).where(eq(bookings.id, paid[0]!.bookingId)).run();
      for (const gender of ["male", "female", "female"] as const)
        insertHeldBooking(db, event.id, { now, holdMs: 10 * MINUTE, gender });
      insertHeldBooking(db, event.id, { now, holdMs: -MINUTE, gender: "male" });
      // A live offer and one that ran out, each keeping (or no longer keeping) a woman's seat.
      for (const [i, expiresAt] of [now + MINUTE, now - MINUTE].entries()) {
        const phone = `+61400999${event.id}${i}`;
        const entry = db
          .insert(waitlistEntries)
          .values({ eventId: event.id, phone, gender: "female", name: "Line", status: "offered" })
          .returning()
          .get();
        db.insert(waitlistOffers)
          .values({ entryId: entry.id, eventId: event.id, phone, gender: "female", expiresAt })
          .run();
      }
    }
    for (const event of [onePool, balanced])
      for (const at of [now, now + 2 * MINUTE, now + 60 * MINUTE])
        expect(seatUseNow(db, event, at)).toEqual(seatUse(db, event.id, at, { byGender: event.seatsMale !== null }));
    // 2 paid men (one refunded after the start) and a held one; a paid woman, 2 held and the live offer.
    expect(seatUseNow(db, balanced, now)).toEqual({ total: 7, male: 3, female: 4 });
  });
});
