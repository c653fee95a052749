import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { wallClockToUtc } from "../../../common/venue-time-input.ts";
import { announcements } from "../../../db/marketing-schema.ts";
import { bookings, outboxMessages, promoCodes } from "../../../db/schema.ts";
import { suiteTestServer } from "../../../test/api-harness.ts";
import { insertEvent, insertHeldBooking, insertPaidBookings } from "../../../test/fixtures.ts";
import { sessionBrowser } from "../../../test/suites/team.ts";

// The seats, prices and invitations reports (issue 51) over nights seeded in a past year, with
// answers counted by hand below; the seats of each night equal what its Overview says.

const server = suiteTestServer({ env: { EVENT_TIME_ZONE: "Australia/Sydney" } });
const sydney = (date: string, hour = 12) => wallClockToUtc({ date, hour, minute: 0 }, "Australia/Sydney");

type Seeded = Awaited<ReturnType<typeof seedNights>>;
let seeded: Seeded | undefined;

async function seedNights() {
  const { db, env } = server.deps;
  // Women meet men, 3 and 3: the women's seats go on 2–4 August, the men's on 5, 6 and 11 August,
  // so it sold out 10 days after it went on sale (1 August) and the men's side filled last.
  const balanced = await insertEvent(db, env.UPLOADS_DIR, {
    name: "Balanced Night",
    startsAt: sydney("2025-09-10", 19),
    createdAt: sydney("2025-08-01"),
    totalSeats: 6,
    seatsFemale: 3,
    seatsMale: 3,
    priceFemaleCents: 3000,
    priceMaleCents: 4000,
  });
  const women = ["2025-08-02", "2025-08-03", "2025-08-04"].map(
    (d) => insertPaidBookings(db, balanced.id, 1, { gender: "female", paidAt: sydney(d) })[0]!,
  );
  const men = ["2025-08-05", "2025-08-06", "2025-08-11"].map(
    (d) => insertPaidBookings(db, balanced.id, 1, { gender: "male", paidAt: sydney(d) })[0]!,
  );
  // One group of 10: four paid, one refunded, one held; it never sold out.
  const pool = await insertEvent(db, env.UPLOADS_DIR, {
    name: "One Group Night",
    format: "one_group",
    startsAt: sydney("2025-09-20", 19),
    createdAt: sydney("2025-08-01"),
    totalSeats: 10,
  });
  const poolPaid = insertPaidBookings(db, pool.id, 5, { paidAt: sydney("2025-08-20") });
  db.update(bookings).set({ status: "refunded" }).where(eq(bookings.id, poolPaid[4]!.bookingId)).run();
  insertHeldBooking(db, pool.id, { now: sydney("2025-08-21") });
  // A night outside the period.
  await insertEvent(db, env.UPLOADS_DIR, { name: "Later Night", startsAt: sydney("2025-11-05", 19) });

  // Prices: the balanced night's six at their side's price; two women and one man with the early bird;
  // SPRING used by the four of the pool still paid, SOLO by one man.
  const spring = db.insert(promoCodes).values({ eventId: pool.id, code: "SPRING", percentOff: 10 }).returning().get();
  const solo = db
    .insert(promoCodes)
    .values({ eventId: balanced.id, code: "SOLO", amountOffCents: 500 })
    .returning()
    .get();
  const set = (bookingId: number, values: Partial<typeof bookings.$inferInsert>) =>
    db.update(bookings).set(values).where(eq(bookings.id, bookingId)).run();
  for (const w of women) set(w.bookingId, { amountCents: 3000, listPriceCents: 3000 });
  for (const m of men) set(m.bookingId, { amountCents: 4000, listPriceCents: 4000 });
  set(women[0]!.bookingId, { amountCents: 2500, earlyBirdCents: 500, discountCents: 500 });
  set(women[1]!.bookingId, { amountCents: 2500, earlyBirdCents: 500, discountCents: 500 });
  set(men[0]!.bookingId, { amountCents: 3500, earlyBirdCents: 500, discountCents: 500 });
  set(men[1]!.bookingId, { amountCents: 3500, discountCents: 500, promoCodeId: solo.id });
  for (const p of poolPaid.slice(0, 4))
    set(p.bookingId, { amountCents: 4050, listPriceCents: 4500, discountCents: 450, promoCodeId: spring.id });

  // Invitations: one for the pool night in August, texted to 4 (3 sent, 1 suppressed) and emailed to
  // 2; three paid bookings came through its link (two women, one man).
  const invite = db
    .insert(announcements)
    .values({
      eventId: pool.id,
      audience: {},
      channels: ["sms", "email"],
      text: "Join us",
      recipientsSms: 4,
      recipientsEmail: 2,
      createdAt: sydney("2025-08-15"),
    })
    .returning()
    .get();
  const sent = (channel: "sms" | "email", status: "sent" | "suppressed", i: number) =>
    db
      .insert(outboxMessages)
      .values({
        dedupeKey: `invite-${invite.id}-${channel}-${i}`,
        channel,
        to: `x${i}`,
        body: "Join us",
        status,
        purpose: "marketing",
        announcementId: invite.id,
      })
      .run();
  sent("sms", "sent", 1);
  sent("sms", "sent", 2);
  sent("sms", "sent", 3);
  sent("sms", "suppressed", 4);
  sent("email", "sent", 5);
  sent("email", "sent", 6);
  const through = insertPaidBookings(db, pool.id, 3, { paidAt: sydney("2025-08-16") });
  for (const b of through) set(b.bookingId, { announcementId: invite.id, amountCents: 4500 });
  return { balanced, pool, invite };
}

async function report(name: string, query: string) {
  seeded ??= await seedNights();
  const response = await sessionBrowser(server, null).get(`/api/reports/${name}?${query}`);
  expect(response.status).toBe(200);
  return response;
}
const rowsOf = async (name: string, query: string) =>
  ((await (await report(name, query)).json()) as { rows: Record<string, unknown>[] }).rows;

describe("the seats report", () => {
  it("gives each night its seats sold of offered, by side, the share, the days to sell out and the side that filled last", async () => {
    const rows = await rowsOf("seats", "from=2025-09&to=2025-10");
    expect(rows.map((r) => r.eventName)).toEqual(["Balanced Night", "One Group Night"]);
    expect(rows[0]).toMatchObject({
      format: "women_men",
      seatsOffered: 6,
      seatsSold: 6,
      womenOffered: 3,
      womenSold: 3,
      menOffered: 3,
      menSold: 3,
      sellThroughPercent: 100,
      daysToSellOut: 10,
      filledLast: "men",
    });
    // Seven paid (four plus three through the invitation), one refunded, one held.
    expect(rows[1]).toMatchObject({
      format: "one_group",
      seatsOffered: 10,
      seatsSold: 7,
      womenOffered: null,
      menSold: null,
      sellThroughPercent: 70,
      daysToSellOut: null,
      filledLast: null,
    });
  });

  it("counts each night's seats as its Overview does", async () => {
    const rows = await rowsOf("seats", "from=2025-09&to=2025-09");
    const admin = sessionBrowser(server, null);
    for (const row of rows) {
      const summary = (await (await admin.get(`/api/admin-event-summary/${row.eventId}`)).json()) as {
        paid: { total: number; male: number | null; female: number | null };
      };
      expect([row.seatsSold, row.menSold, row.womenSold]).toEqual([
        summary.paid.total,
        summary.paid.male,
        summary.paid.female,
      ]);
    }
  });
});

describe("the prices report", () => {
  it("gives bookings, revenue and discount at the early bird, each side's price and each code, a code used once as fewer than 3", async () => {
    expect(await rowsOf("prices", "from=2025-08&to=2025-08")).toEqual([
      { price: "Early-bird", code: null, bookings: 3, revenueCents: 2500 + 2500 + 3500, discountCents: 1500 },
      {
        price: "Without early-bird",
        code: null,
        bookings: 10,
        revenueCents: 3000 + 4000 + 3500 + 4 * 4050 + 3 * 4500,
        discountCents: 500 + 4 * 450,
      },
      { price: "Women's price", code: null, bookings: 3, revenueCents: 2500 + 2500 + 3000, discountCents: 1000 },
      { price: "Men's price", code: null, bookings: 3, revenueCents: 3500 + 3500 + 4000, discountCents: 1000 },
      { price: "Promo code", code: "SOLO", bookings: "fewer than 3", revenueCents: 3500, discountCents: 500 },
      { price: "Promo code", code: "SPRING", bookings: 4, revenueCents: 4 * 4050, discountCents: 4 * 450 },
    ]);
    const csv = await (await report("prices", "from=2025-08&to=2025-08&format=csv")).text();
    expect(csv.split("\r\n")[0]).toBe("price,code,bookings,revenue,discount");
    expect(csv).toContain("Promo code,SOLO,fewer than 3,35.00,5.00\r\n");
  });
});

describe("the invitations report", () => {
  it("gives each announcement the texts and emails sent and the bookings through its link, by side", async () => {
    const rows = await rowsOf("invitations", "from=2025-07&to=2025-09");
    expect(rows).toHaveLength(1);
    const genders = server.deps.db.select().from(bookings).where(eq(bookings.announcementId, seeded!.invite.id)).all();
    expect(genders).toHaveLength(3);
    expect(rows[0]).toMatchObject({ eventName: "One Group Night", reachedSms: 3, booked: 3 });
    // Two emails, and a side of 1 or 2 bookings, show as fewer than 3.
    expect(rows[0]?.reachedEmail).toBe("fewer than 3");
    expect([rows[0]?.bookedWomen, rows[0]?.bookedMen]).toEqual(["fewer than 3", "fewer than 3"]);
    expect(await rowsOf("invitations", "from=2025-09&to=2025-09")).toEqual([]);
  });
});
