import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { wallClockToUtc } from "../../../common/venue-time-input.ts";
import { keptDetails } from "../../../db/access-schema.ts";
import { bookings } from "../../../db/schema.ts";
import { suiteTestServer } from "../../../test/api-harness.ts";
import { insertEvent, insertPaidBookings } from "../../../test/fixtures.ts";
import { guestBrowser, sessionBrowser } from "../../../test/suites/team.ts";
import { guestKeyOf } from "../../lib/guest-key.ts";
import { prepareReports } from "./backfill.ts";

// Guests who come back (issue 51): a number's nights are counted by its guest key, which outlives the
// number's erasure; Delete my details takes it away. A past year's bookings, counted by hand.

const server = suiteTestServer({ env: { EVENT_TIME_ZONE: "Australia/Sydney" } });
const sydney = (date: string) => wallClockToUtc({ date, hour: 12, minute: 0 }, "Australia/Sydney");

/** A paid booking of `phone` paid on `date`, keyed as payment completion keys it. */
async function night(phone: string, date: string, options: { erased?: boolean; keyed?: boolean } = {}) {
  const { db, env } = server.deps;
  const event = await insertEvent(db, env.UPLOADS_DIR, { startsAt: sydney(date) + 7 * 86_400_000 });
  const [paid] = insertPaidBookings(db, event.id, 1, { paidAt: sydney(date) });
  db.update(bookings)
    .set({
      phone: options.erased ? "erased" : phone,
      guestKey: options.keyed === false ? null : guestKeyOf(env, phone),
    })
    .where(eq(bookings.id, paid!.bookingId))
    .run();
  return paid!.bookingId;
}

let seeded: Promise<void> | undefined;
const seed = () =>
  (seeded ??= (async () => {
    const [a, b, c, d1, d2, d3] = [
      "+61400000101",
      "+61400000102",
      "+61400000103",
      "+61400000104",
      "+61400000105",
      "+61400000106",
    ];
    // A: July, August, September, October (its first two nights' number already erased).
    await night(a!, "2025-07-03", { erased: true });
    await night(a!, "2025-08-03", { erased: true });
    await night(a!, "2025-09-03");
    await night(a!, "2025-10-03");
    // B: August, September. C: September.
    await night(b!, "2025-08-10");
    await night(b!, "2025-09-10");
    await night(c!, "2025-09-12");
    // D1–D3: July, then their second night in October.
    for (const d of [d1!, d2!, d3!]) {
      await night(d, "2025-07-20");
      await night(d, "2025-10-20");
    }
    // Three guests kept their details in October.
    for (const phone of ["+61400000201", "+61400000202", "+61400000203"])
      server.deps.db
        .insert(keptDetails)
        .values({
          phone,
          name: "Kept",
          email: "kept@example.com",
          dateOfBirth: "1990-01-01",
          gender: "female",
          imageName: "x.jpg",
          thumbName: "x-thumb.jpg",
          keptAt: sydney("2025-10-05"),
          lastBookedAt: sydney("2025-10-05"),
        })
        .run();
  })());

const rowsOf = async (query: string) => {
  await seed();
  const response = await sessionBrowser(server, null).get(`/api/reports/returning?${query}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { rows: Record<string, unknown>[] }).rows;
};

describe("the returning guests report", () => {
  it("counts each month's bookings by numbers that booked before, and which night it was for them", async () => {
    expect(await rowsOf("from=2025-08&to=2025-10")).toEqual([
      {
        month: "2025-08",
        bookings: 2,
        byReturningGuests: "fewer than 3",
        returningPercent: 50,
        secondNight: "fewer than 3",
        thirdNight: 0,
        fourthNight: 0,
        fifthNightOrLater: 0,
        keptDetails: 0,
      },
      {
        month: "2025-09",
        bookings: 3,
        byReturningGuests: "fewer than 3",
        returningPercent: 67,
        secondNight: "fewer than 3",
        thirdNight: "fewer than 3",
        fourthNight: 0,
        fifthNightOrLater: 0,
        keptDetails: 0,
      },
      {
        month: "2025-10",
        bookings: 4,
        byReturningGuests: 4,
        returningPercent: 100,
        secondNight: 3,
        thirdNight: 0,
        fourthNight: "fewer than 3",
        fifthNightOrLater: 0,
        keptDetails: 3,
      },
    ]);
  });

  it("keys older paid bookings once, while their number is still there", async () => {
    await seed();
    const { db, env } = server.deps;
    const unkeyed = await night("+61400000301", "2025-11-03", { keyed: false });
    const erased = await night("+61400000302", "2025-11-04", { keyed: false, erased: true });
    prepareReports({ db, env }, server.deps.now());
    const key = (id: number) => db.select({ k: bookings.guestKey }).from(bookings).where(eq(bookings.id, id)).get()?.k;
    expect(key(unkeyed)).toBe(guestKeyOf(env, "+61400000301"));
    expect(key(erased)).toBeNull();
  });

  it("forgets a number's nights when its guest deletes their details, those already erased too", async () => {
    await seed();
    const response = await guestBrowser(server, "+61400000101").postJson("/api/me-delete-details", {});
    expect(response.status).toBe(200);
    const rows = await rowsOf("from=2025-09&to=2025-10");
    // A's September and October nights now count as first nights, by nobody who came back.
    expect(rows.map((r) => [r.month, r.byReturningGuests])).toEqual([
      ["2025-09", "fewer than 3"],
      ["2025-10", 3],
    ]);
    expect(
      server.deps.db
        .select()
        .from(bookings)
        .where(eq(bookings.guestKey, guestKeyOf(server.deps.env, "+61400000101")))
        .all(),
    ).toEqual([]);
  });
});
