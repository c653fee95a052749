import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { activityLog } from "../../db/access-schema.ts";
import { creditEntries } from "../../db/credit-schema.ts";
import { bookings, outboxMessages, refundClaims } from "../../db/schema.ts";
import { browserClient, type TestServer, withTestServer } from "../../test/api-harness.ts";
import { insertEvent } from "../../test/fixtures.ts";
import { insertPaidSeat, newMobile, signedInOnMe } from "../../test/suites/booking-flow.ts";

// Credit (issue 52, docs/decisions/057-credit.md): a cancel taken as credit, the balance on /me, the
// organiser's Give credit and the desk's credit outstanding, all over real HTTP.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const LIMITS = { OTP_MAX_PER_ADDRESS: "1000", OTP_MAX_PER_PHONE: "1000" };

/** A paid booking of `phone`, and the guest's cancel-booking target. */
function paidBooking(server: TestServer, eventId: number, phone: string, amountCents = 4500) {
  const seat = insertPaidSeat(server, eventId, phone, amountCents, "credit");
  return { target: { eventID: eventId, userID: seat.userID }, userID: seat.userID, bookingId: seat.bookingId };
}

const eventIn = (server: TestServer, startsIn: number, extra: { creditUntil?: number } = {}) =>
  insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR, {
    name: "Friday Mixer",
    startsAt: server.deps.now() + startsIn,
    cancelFullRefundHours: 48,
    cancelLaterPercent: 0,
    ...extra,
  });

async function adminBrowser(server: TestServer) {
  const admin = browserClient(server.url);
  const login = await admin.postJson("/api/admin-login", { password: "correct horse battery staple" });
  expect(login.status).toBe(200);
  return admin;
}

type MeCredit = { credit: { balanceCents: number; history: { at: string; amountCents: number; reason: string }[] } };
const meOf = async (browser: ReturnType<typeof browserClient>) =>
  (await (await browser.get("/api/me")).json()) as MeCredit;

describe("credit instead of a refund", () => {
  it("gives the full price as credit past the refund's cut-off, frees the seat, refunds nothing, and shows it on /me only to its number", async () => {
    await withTestServer({ env: LIMITS }, async (server) => {
      // 10 hours before the start: past the 48-hour cut-off at 0%, so a refund would give nothing.
      const event = await eventIn(server, 10 * HOUR);
      const phone = newMobile();
      const booking = paidBooking(server, event.id, phone);
      const guest = await signedInOnMe(server.url, phone);

      const refundQuote = await (await guest.get(`/api/get-event/${event.id}`)).json();
      expect(refundQuote.creditUntil).toBe(new Date(event.startsAt).toISOString());

      const reply = await guest.postJson("/api/cancel-booking", { ...booking.target, as: "credit" });
      expect(reply.status).toBe(200);
      expect(await reply.json()).toEqual({ refundCents: 0, creditCents: 4500, status: "cancelled" });
      const row = server.deps.db.select().from(bookings).where(eq(bookings.id, booking.bookingId)).get();
      expect(row).toMatchObject({ status: "cancelled", seatReleased: true });
      expect(server.deps.db.select().from(refundClaims).all()).toEqual([]);

      const me = await meOf(guest);
      expect(me.credit.balanceCents).toBe(4500);
      expect(me.credit.history).toEqual([
        { at: expect.any(String), amountCents: 4500, reason: "Cancelled Friday Mixer" },
      ]);
      // The ledger keeps a keyed hash, never the number.
      expect(JSON.stringify(server.deps.db.select().from(creditEntries).all())).not.toContain(phone.slice(3));

      const texts = server.deps.db.select().from(outboxMessages).where(eq(outboxMessages.to, phone)).all();
      expect(texts.map((t) => t.body)).toEqual([expect.stringContaining("$45.00 is now credit on this number")]);
      expect(texts[0]?.body).not.toMatch(/https?:|offer|discount|book now/i);

      // Another number sees none of it, and cannot cancel this booking.
      const other = await signedInOnMe(server.url, newMobile());
      expect((await meOf(other)).credit).toEqual({ balanceCents: 0, history: [] });
      const theirs = await other.postJson("/api/cancel-booking", { ...booking.target, as: "credit" });
      expect(theirs.status).toBe(403);

      // A repeat answers the same and issues nothing more.
      const again = await guest.postJson("/api/cancel-booking", { ...booking.target, as: "credit" });
      expect(await again.json()).toEqual({ refundCents: 0, creditCents: 4500, status: "cancelled" });
      expect((await meOf(guest)).credit.balanceCents).toBe(4500);
    });
  });

  it("refuses credit after the event's Credit until with a sentence, and a refund still works", async () => {
    await withTestServer({ env: LIMITS }, async (server) => {
      const event = await eventIn(server, 5 * DAY, { creditUntil: server.deps.now() - HOUR });
      const phone = newMobile();
      const booking = paidBooking(server, event.id, phone);
      const guest = await signedInOnMe(server.url, phone);
      // My nights says until when credit was offered, so the phone offers only the refund now.
      const nights = ((await (await guest.get("/api/me")).json()) as { nights: { creditUntil?: string }[] }).nights;
      expect(nights.map((n) => n.creditUntil)).toEqual([new Date(event.creditUntil as number).toISOString()]);
      const refused = await guest.postJson("/api/cancel-booking", { ...booking.target, as: "credit" });
      expect(refused.status).toBe(409);
      const body = await refused.json();
      expect(body.code).toBe("credit_closed");
      expect(body.error).toMatch(/Credit until .* passed/);
      expect((await meOf(guest)).credit.balanceCents).toBe(0);

      const refunded = await guest.postJson("/api/cancel-booking", { ...booking.target, as: "refund" });
      expect(await refunded.json()).toEqual({ refundCents: 4500, creditCents: 0, status: "refunded" });
    });
  });

  it("two cancels at once issue the credit once", async () => {
    await withTestServer({ env: LIMITS }, async (server) => {
      const event = await eventIn(server, 5 * DAY);
      const phone = newMobile();
      const booking = paidBooking(server, event.id, phone);
      const guest = await signedInOnMe(server.url, phone);
      const replies = await Promise.all(
        Array.from({ length: 4 }, () => guest.postJson("/api/cancel-booking", { ...booking.target, as: "credit" })),
      );
      for (const r of replies)
        expect(await r.json()).toEqual({ refundCents: 0, creditCents: 4500, status: "cancelled" });
      expect(server.deps.db.select().from(creditEntries).all()).toHaveLength(1);
      expect((await meOf(guest)).credit.balanceCents).toBe(4500);
    });
  });
});

describe("POST /api/give-credit", () => {
  it("gives credit to the participant's number, texts them once, logs it, and the desk shows credit outstanding", async () => {
    await withTestServer({ env: LIMITS }, async (server) => {
      const event = await eventIn(server, 5 * DAY);
      const phone = newMobile();
      const booking = paidBooking(server, event.id, phone);
      const admin = await adminBrowser(server);

      const given = await admin.postJson("/api/give-credit", {
        userID: booking.userID,
        amountCents: 2000,
        reason: "Sorry about the late start",
      });
      expect(given.status).toBe(200);
      expect(await given.json()).toEqual({ success: true, creditCents: 2000 });

      const guest = await signedInOnMe(server.url, phone);
      expect((await meOf(guest)).credit).toEqual({
        balanceCents: 2000,
        history: [{ at: expect.any(String), amountCents: 2000, reason: "Sorry about the late start" }],
      });
      const texts = server.deps.db.select().from(outboxMessages).where(eq(outboxMessages.to, phone)).all();
      expect(texts.filter((t) => t.body.includes("$20.00 credit"))).toHaveLength(1);
      const logged = server.deps.db.select().from(activityLog).where(eq(activityLog.action, "credit given")).all();
      expect(logged).toMatchObject([{ userId: booking.userID, detail: "$20.00: Sorry about the late start" }]);
      expect(logged[0]?.detail).not.toContain(phone);

      const summary = await (await admin.get(`/api/admin-event-summary/${event.id}`)).json();
      expect(summary.creditOutstandingCents).toBe(2000);
    });
  });

  it("refuses without the organiser's session, a guest's session, bad amounts and an unknown participant", async () => {
    await withTestServer({ env: LIMITS }, async (server) => {
      const event = await eventIn(server, 5 * DAY);
      const phone = newMobile();
      const booking = paidBooking(server, event.id, phone);
      const guest = await signedInOnMe(server.url, phone);
      const asGuest = await guest.postJson("/api/give-credit", {
        userID: booking.userID,
        amountCents: 100,
        reason: "x",
      });
      expect(asGuest.status).toBe(401);
      const admin = await adminBrowser(server);
      for (const body of [
        { userID: booking.userID, amountCents: 0, reason: "x" },
        { userID: booking.userID, amountCents: 10.5, reason: "x" },
        { userID: booking.userID, amountCents: 100_001, reason: "x" },
        { userID: booking.userID, amountCents: 100, reason: "" },
        { userID: booking.userID, amountCents: 100, reason: "two\nlines" },
      ]) {
        expect((await admin.postJson("/api/give-credit", body)).status).toBe(400);
      }
      expect(
        (await admin.postJson("/api/give-credit", { userID: 999_999, amountCents: 100, reason: "x" })).status,
      ).toBe(404);
      expect(server.deps.db.select().from(creditEntries).all()).toEqual([]);
    });
  });
});

describe("the event's creditUntil, and credit after Delete my details", () => {
  it("update-event sets creditUntil no later than the start, null gives the start back, later is 400", async () => {
    await withTestServer({ env: LIMITS }, async (server) => {
      const event = await eventIn(server, 9 * DAY);
      const admin = await adminBrowser(server);
      const required = {
        eventid: event.id,
        eventName: event.name,
        eventDate: new Date(event.startsAt).toISOString().slice(0, 10),
        totalSeats: 10,
      };
      const detail = async () =>
        (await (await admin.get(`/api/get-event/${event.id}`)).json()) as Record<string, string>;
      const start = (await detail()).EventDateTime ?? "";
      const dayBefore = new Date(Date.parse(start) - DAY).toISOString();
      expect((await admin.postJson("/api/update-event", { ...required, creditUntil: dayBefore })).status).toBe(200);
      expect((await detail()).creditUntil).toBe(dayBefore);
      const listed = (await (await admin.get("/api/get-events")).json()) as { id: number; creditUntil: string }[];
      expect(listed.find((e) => e.id === event.id)?.creditUntil).toBe(dayBefore);
      const late = new Date(Date.parse(start) + HOUR).toISOString();
      const refused = await admin.postJson("/api/update-event", { ...required, creditUntil: late });
      expect(refused.status).toBe(400);
      expect((await refused.json()).error).toMatch(/Credit until/);
      expect((await detail()).creditUntil).toBe(dayBefore);
      expect((await admin.postJson("/api/update-event", { ...required, creditUntil: null })).status).toBe(200);
      const after = await detail();
      expect(after.creditUntil).toBe(after.EventDateTime);
    });
  });

  it("Download my data includes the credit, and Delete my details keeps it for the same number", async () => {
    await withTestServer({ env: LIMITS }, async (server) => {
      const event = await eventIn(server, 5 * DAY);
      const phone = newMobile();
      const booking = paidBooking(server, event.id, phone);
      const guest = await signedInOnMe(server.url, phone);
      await guest.postJson("/api/cancel-booking", { ...booking.target, as: "credit" });
      const data = await (await guest.get("/api/me-data")).json();
      expect(data.credit).toMatchObject({ balanceCents: 4500, history: [{ amountCents: 4500 }] });

      expect((await guest.postJson("/api/me-delete-details", {})).status).toBe(200);
      const again = await signedInOnMe(server.url, phone);
      expect((await meOf(again)).credit.balanceCents).toBe(4500);
    });
  });
});
