import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { wallClockToUtc } from "../../../common/venue-time-input.ts";
import { bookings, refunds } from "../../../db/schema.ts";
import { suiteTestServer } from "../../../test/api-harness.ts";
import { insertEvent, insertHeldBooking, insertPaidBookings } from "../../../test/fixtures.ts";
import { insertMember, sessionBrowser } from "../../../test/suites/team.ts";
import { loadBookingContextById } from "../../booking/checkout.ts";
import { issueAdjustmentNote, issueSaleDocument } from "../../booking/documents.ts";

// The money and GST reports (issue 51) over a seeded financial year with answers counted by hand
// below. Sydney's clock decides the month: a sale at 00:30 on 1 October in Sydney is October's
// (and the October–December quarter's), though UTC still says 30 September. The year is in the past
// and stays there: nothing here meets the clock.

const server = suiteTestServer({ env: { GST_REGISTERED: "1", EVENT_TIME_ZONE: "Australia/Sydney" } });
const sydney = (date: string, hour = 12, minute = 0) => wallClockToUtc({ date, hour, minute }, "Australia/Sydney");

/** A paid booking of `cents` paid at `paidAt`, with its tax invoice, as payment completion writes them. */
function sale(eventId: number, cents: number, paidAt: number) {
  const { db, env } = server.deps;
  const [paid] = insertPaidBookings(db, eventId, 1, { paidAt });
  db.update(bookings).set({ amountCents: cents }).where(eq(bookings.id, paid!.bookingId)).run();
  const ctx = loadBookingContextById(db, paid!.bookingId)!;
  issueSaleDocument(db, env, ctx, { paymentIntentId: ctx.booking.paymentIntentId!, amountCents: cents }, paidAt);
  return ctx.booking;
}

/** A refund of `cents` of `booking`'s payment made at `at`, with its adjustment note. */
function refund(booking: { id: number; paymentIntentId: string | null }, cents: number, at: number, whole = false) {
  const { db, env } = server.deps;
  const paymentIntentId = booking.paymentIntentId!;
  const refundId = `re_report_${booking.id}`;
  db.insert(refunds)
    .values({
      bookingId: booking.id,
      paymentIntentId,
      refundId,
      amountCents: cents,
      reason: "admin",
      createdAt: at,
    })
    .run();
  if (whole) db.update(bookings).set({ status: "refunded" }).where(eq(bookings.id, booking.id)).run();
  issueAdjustmentNote(db, env, { paymentIntentId, refundId, amountCents: cents }, at);
}

let seeded = false;
async function seed() {
  if (seeded) return;
  seeded = true;
  const { db, env } = server.deps;
  const august = await insertEvent(db, env.UPLOADS_DIR, { startsAt: sydney("2025-08-20", 19), priceCents: 4400 });
  const october = await insertEvent(db, env.UPLOADS_DIR, { startsAt: sydney("2025-10-20", 19), priceCents: 3500 });
  // July (in the quarter, before the period): $11.00, GST $1.00.
  sale(august.id, 1100, sydney("2025-07-15"));
  // August: three at $44.00, GST $4.00 each. One is refunded $22.00 in October (GST $2.00).
  const [first] = [
    sale(august.id, 4400, sydney("2025-08-10")),
    sale(august.id, 4400, sydney("2025-08-11")),
    sale(august.id, 4400, sydney("2025-08-31", 23, 59)),
  ];
  refund(first!, 2200, sydney("2025-10-05"));
  // October by Sydney's clock (still 30 September in UTC): $35.00, GST $3.18 (318.18 cents, rounded).
  const late = sale(october.id, 3500, sydney("2025-10-01", 0, 30));
  // November: refunded whole in December (GST $3.18 back).
  refund(sale(october.id, 3500, sydney("2025-11-02")), 3500, sydney("2025-12-01", 9), true);
  // Not money: a held seat, and a booking a full promo code paid (no payment).
  insertHeldBooking(db, october.id, { now: sydney("2025-10-02") });
  const [free] = insertPaidBookings(db, october.id, 1, { paidAt: sydney("2025-10-03") });
  db.update(bookings).set({ amountCents: 0, paymentIntentId: null }).where(eq(bookings.id, free!.bookingId)).run();
  return late;
}

async function report(name: string, query: string, memberId: number | null = null) {
  await seed();
  return sessionBrowser(server, memberId).get(`/api/reports/${name}?${query}`);
}

describe("the money report", () => {
  it("gives each month its sales, its refunds, the net and the GST of its documents, on Sydney's clock", async () => {
    const response = await report("money", "from=2025-08&to=2025-12");
    expect(response.status).toBe(200);
    expect(((await response.json()) as { rows: unknown[] }).rows).toEqual([
      { month: "2025-08", bookings: 3, grossCents: 13200, refundsCents: 0, netCents: 13200, gstCents: 1200 },
      { month: "2025-09", bookings: 0, grossCents: 0, refundsCents: 0, netCents: 0, gstCents: 0 },
      { month: "2025-10", bookings: 1, grossCents: 3500, refundsCents: 2200, netCents: 1300, gstCents: 318 - 200 },
      { month: "2025-11", bookings: 1, grossCents: 3500, refundsCents: 0, netCents: 3500, gstCents: 318 },
      { month: "2025-12", bookings: 0, grossCents: 0, refundsCents: 3500, netCents: -3500, gstCents: -318 },
    ]);
  });

  it("downloads the same numbers as a CSV in dollars", async () => {
    const response = await report("money", "from=2025-08&to=2025-10&format=csv");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="money-2025-08-to-2025-10.csv"');
    expect(await response.text()).toBe(
      "month,bookings,gross,refunds,net,gst\r\n2025-08,3,132.00,0.00,132.00,12.00\r\n2025-09,0,0.00,0.00,0.00,0.00\r\n2025-10,1,35.00,22.00,13.00,1.18\r\n",
    );
  });
});

describe("the GST summary for the BAS", () => {
  it("gives whole quarters, with each refund taken off in the quarter it was made", async () => {
    const response = await report("gst", "from=2025-08&to=2025-10");
    expect(response.status).toBe(200);
    expect(((await response.json()) as { rows: unknown[] }).rows).toEqual([
      {
        quarter: "2025-07",
        label: "July–September 2025",
        salesCents: 1100 + 13200,
        refundsCents: 0,
        g1Cents: 14300,
        gstOnSalesCents: 1300,
        gstOnRefundsCents: 0,
        a1Cents: 1300,
      },
      {
        quarter: "2025-10",
        label: "October–December 2025",
        salesCents: 3500 + 3500,
        refundsCents: 2200 + 3500,
        g1Cents: 1300,
        gstOnSalesCents: 636,
        gstOnRefundsCents: 200 + 318,
        a1Cents: 118,
      },
    ]);
    const csv = await (await report("gst", "from=2025-10&to=2025-10&format=csv")).text();
    expect(csv).toBe(
      "quarter,sales,refunds,G1,gst_on_sales,gst_on_refunds,1A\r\nOctober–December 2025,70.00,57.00,13.00,6.36,5.18,1.18\r\n",
    );
  });

  it("opens to the owner, a manager and finance, not the door", async () => {
    for (const role of ["manager", "finance"] as const)
      expect((await report("gst", "from=2025-07&to=2025-09", insertMember(server.deps.db, role).id)).status).toBe(200);
    expect((await report("gst", "from=2025-07&to=2025-09", insertMember(server.deps.db, "door").id)).status).toBe(403);
    expect((await fetch(`${server.url}/api/reports/gst?from=2025-07&to=2025-09`)).status).toBe(401);
  });
});

describe("a report's period", () => {
  it.each([
    ["from=2025-13&to=2025-12", "The from is not valid"],
    ["from=2025-08", "to"],
    ["from=2025-10&to=2025-08", "to must not be before from"],
    ["from=2015-01&to=2025-12", "at most 120 months"],
    ["from=2025-08&to=2025-09&format=pdf", "format"],
  ])("refuses %s with a 400 that says why", async (query, words) => {
    for (const name of ["money", "gst"]) {
      const response = await report(name, query);
      expect(response.status).toBe(400);
      expect(JSON.stringify(await response.json())).toContain(words);
    }
  });

  it("shows money and counts only: no name, phone or email in any reply", async () => {
    const { db } = server.deps;
    const people = db.select({ phone: bookings.phone }).from(bookings).all();
    for (const name of ["money", "gst"])
      for (const format of ["json", "csv"]) {
        const text = await (await report(name, `from=2025-07&to=2025-12&format=${format}`)).text();
        expect(text).not.toMatch(/@|Attendee|\+614/);
        for (const { phone } of people) expect(text).not.toContain(phone.slice(3));
      }
  });
});
