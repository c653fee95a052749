import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { activityLog } from "../../db/access-schema.ts";
import {
  bookings,
  events,
  outboxMessages,
  refundClaims,
  refunds,
  waitlistEntries,
  waitlistOffers,
} from "../../db/schema.ts";
import { type BrowserClient, browserClient, type TestServer, withTestServer } from "../../test/api-harness.ts";
import { insertEvent } from "../../test/fixtures.ts";
import { insertPaidSeat, newMobile, signedInOnMe } from "../../test/suites/booking-flow.ts";
import { linkToken } from "../lib/capability.ts";
import type { PaymentsProvider } from "../providers/payments/types.ts";

// Cancel my booking (docs/decisions/028-cancellation-money-path.md): POST /api/cancel-booking behind
// the /me session, the amount by the event's policy, the money through the organiser's refund claim.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const ADMIN_PASSWORD = "correct horse battery staple";
const LIMITS = { OTP_MAX_PER_ADDRESS: "1000", OTP_MAX_PER_PHONE: "1000" };

/** Counts refund calls at the provider, slowed so overlapping calls interleave. */
function countingPayments(inner: PaymentsProvider) {
  const calls: { paymentIntentId: string; key: string; amountCents?: number }[] = [];
  const provider: PaymentsProvider = {
    name: inner.name,
    createCheckout: (input) => inner.createCheckout(input),
    retrieveCheckout: (id) => inner.retrieveCheckout(id),
    refund: async (paymentIntentId, key, amountCents) => {
      calls.push({ paymentIntentId, key, ...(amountCents === undefined ? {} : { amountCents }) });
      await new Promise((r) => setTimeout(r, 50));
      return inner.refund(paymentIntentId, key, amountCents);
    },
    findRefund: (paymentIntentId) => inner.findRefund(paymentIntentId),
  };
  return { provider, calls };
}

function withCountingServer<T>(
  fn: (server: TestServer, calls: ReturnType<typeof countingPayments>["calls"]) => Promise<T>,
) {
  let calls: ReturnType<typeof countingPayments>["calls"] = [];
  return withTestServer(
    {
      env: LIMITS,
      deps: (base) => {
        const counting = countingPayments(base.payments);
        calls = counting.calls;
        return { payments: counting.provider };
      },
    },
    (server) => fn(server, calls),
  );
}

const signIn = (server: TestServer, phone: string) => signedInOnMe(server.url, phone);

/** A paid booking of `phone`, as the booking flow leaves it. */
const paidBooking = (server: TestServer, eventId: number, phone: string, amountCents = 4500) =>
  insertPaidSeat(server, eventId, phone, amountCents, "cancel");

async function eventIn(server: TestServer, startsIn: number, policy: { hours?: number; percent?: number } = {}) {
  return insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR, {
    name: "Friday Mixer",
    startsAt: server.deps.now() + startsIn,
    totalSeats: 1,
    cancelFullRefundHours: policy.hours ?? 48,
    cancelLaterPercent: policy.percent ?? 0,
  });
}

const cancel = async (browser: BrowserClient, target: { eventID: number; userID: number }) => {
  const response = await browser.postJson("/api/cancel-booking", { eventID: target.eventID, userID: target.userID });
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, response };
};

async function adminCookie(server: TestServer) {
  const login = await fetch(`${server.url}/api/admin-login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ password: ADMIN_PASSWORD }),
  });
  expect(login.status).toBe(200);
  return login.headers
    .getSetCookie()
    .map((l) => l.split(";")[0])
    .join("; ");
}

const bookingRow = (server: TestServer, id: number) =>
  server.deps.db.select().from(bookings).where(eq(bookings.id, id)).get();
const textsTo = (server: TestServer, phone: string) =>
  server.deps.db.select().from(outboxMessages).where(eq(outboxMessages.to, phone)).all();

describe("POST /api/cancel-booking", () => {
  it("refunds in full before the cut-off, frees the seat for the waitlist, texts the guest, logs it as the guest's, and answers the same again", async () => {
    await withCountingServer(async (server, calls) => {
      const event = await eventIn(server, 5 * DAY);
      const phone = newMobile();
      const booking = paidBooking(server, event.id, phone);
      const waiting = newMobile();
      server.deps.db
        .insert(waitlistEntries)
        .values({ eventId: event.id, phone: waiting, gender: "female", name: "Wren" })
        .run();
      const browser = await signIn(server, phone);

      const first = await cancel(browser, booking);
      expect(first.status).toBe(200);
      expect(first.body).toEqual({ refundCents: 4500, creditCents: 0, status: "refunded" });
      expect(first.response.headers.get("cache-control")).toBe("no-store");
      expect(bookingRow(server, booking.bookingId)).toMatchObject({ status: "refunded", seatReleased: true });
      expect(calls).toEqual([
        { paymentIntentId: booking.paymentIntentId, key: `refund-${booking.bookingId}`, amountCents: 4500 },
      ]);
      await expect
        .poll(() => textsTo(server, phone).map((m) => m.body))
        .toEqual([
          expect.stringMatching(
            /^Your booking for Friday Mixer is cancelled\. \$45\.00 is being refunded to your card/,
          ),
        ]);
      // A transactional text: no offer, no link, no promotion.
      expect(textsTo(server, phone)[0]?.body).not.toMatch(/https?:|STOP|\bbook (again|now)|next event/i);
      // The freed seat went to the first person waiting, and their offer was texted.
      expect(
        server.deps.db.select().from(waitlistOffers).where(eq(waitlistOffers.eventId, event.id)).all(),
      ).toHaveLength(1);
      await expect.poll(() => textsTo(server, waiting).length).toBe(1);
      const logged = server.deps.db.select().from(activityLog).where(eq(activityLog.eventId, event.id)).all();
      expect(logged).toEqual([
        expect.objectContaining({
          actor: "guest",
          actorKind: "guest",
          action: "booking cancelled",
          userId: booking.userID,
          detail: "$45.00 refunded",
        }),
      ]);

      const again = await cancel(browser, booking);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect(calls).toHaveLength(1);
      expect(server.deps.db.select().from(refunds).where(eq(refunds.bookingId, booking.bookingId)).all()).toHaveLength(
        1,
      );
      expect(server.deps.db.select().from(activityLog).where(eq(activityLog.eventId, event.id)).all()).toHaveLength(1);
    });
  });

  it("gives back the percentage after the cut-off, rounded down", async () => {
    await withCountingServer(async (server, calls) => {
      const event = await eventIn(server, 10 * HOUR, { hours: 24, percent: 33 });
      const phone = newMobile();
      const booking = paidBooking(server, event.id, phone, 4999);
      const result = await cancel(await signIn(server, phone), booking);
      expect(result.body).toEqual({ refundCents: 1649, creditCents: 0, status: "refunded" });
      expect(calls).toEqual([expect.objectContaining({ amountCents: 1649 })]);
      expect(server.deps.db.select().from(refunds).where(eq(refunds.bookingId, booking.bookingId)).get()).toMatchObject(
        {
          amountCents: 1649,
          reason: "guest_cancel",
        },
      );
    });
  });

  it("cancels with nothing back after the cut-off at 0%: no refund, the seat freed, the guest told", async () => {
    await withCountingServer(async (server, calls) => {
      const event = await eventIn(server, 10 * HOUR);
      const phone = newMobile();
      const booking = paidBooking(server, event.id, phone);
      const browser = await signIn(server, phone);
      const result = await cancel(browser, booking);
      expect(result.body).toEqual({ refundCents: 0, creditCents: 0, status: "cancelled" });
      expect(calls).toEqual([]);
      expect(server.deps.db.select().from(refundClaims).all()).toEqual([]);
      expect(bookingRow(server, booking.bookingId)).toMatchObject({ status: "cancelled", seatReleased: true });
      await expect
        .poll(() => textsTo(server, phone).map((m) => m.body))
        .toEqual([
          "Your booking for Friday Mixer is cancelled. Under the event's cancellation policy no refund is due now.",
        ]);
      expect((await cancel(browser, booking)).body).toEqual({ refundCents: 0, creditCents: 0, status: "cancelled" });
      // The seat is free again: the event has 1 seat, and it is not taken.
      const listed = (await (await fetch(`${server.url}/api/get-event/${event.id}`)).json()) as {
        seatsLeftTotal: number;
      };
      expect(listed.seatsLeftTotal).toBe(1);
    });
  });

  it("answers 409 too_late_to_cancel from the start on, and changes nothing", async () => {
    await withCountingServer(async (server, calls) => {
      const event = await eventIn(server, 2 * HOUR);
      const phone = newMobile();
      const booking = paidBooking(server, event.id, phone);
      const browser = await signIn(server, phone);
      server.advance(2 * HOUR);
      const result = await cancel(browser, booking);
      expect(result.status).toBe(409);
      expect(result.body).toMatchObject({ success: false, code: "too_late_to_cancel" });
      expect(bookingRow(server, booking.bookingId)?.status).toBe("paid");
      expect(calls).toEqual([]);
      expect(textsTo(server, phone)).toEqual([]);
    });
  });

  it("answers 403 forbidden for another number's booking or none, 401 without a session, and changes nothing", async () => {
    await withCountingServer(async (server, calls) => {
      const event = await eventIn(server, 5 * DAY);
      const theirs = paidBooking(server, event.id, newMobile());
      const mine = paidBooking(server, event.id, newMobile());
      const browser = await signIn(
        server,
        server.deps.db.select().from(bookings).where(eq(bookings.id, mine.bookingId)).get()?.phone ?? "",
      );
      const other = await cancel(browser, theirs);
      expect(other.status).toBe(403);
      expect(other.body).toMatchObject({ success: false, code: "forbidden" });
      expect(JSON.stringify(other.body)).not.toMatch(/\+61|Casey|4500/);
      const none = await cancel(browser, { eventID: event.id, userID: 999_999 });
      expect(none.status).toBe(403);
      expect(none.body).toEqual(other.body);
      const anonymous = await cancel(browserClient(server.url), theirs);
      expect(anonymous.status).toBe(401);
      expect(anonymous.body).toMatchObject({ code: "guest_session_required" });
      expect(bookingRow(server, theirs.bookingId)?.status).toBe("paid");
      expect(calls).toEqual([]);
      expect(server.deps.db.select().from(activityLog).all()).toEqual([]);
    });
  });

  it("two cancels racing refund once", async () => {
    await withCountingServer(async (server, calls) => {
      const event = await eventIn(server, 5 * DAY);
      const phone = newMobile();
      const booking = paidBooking(server, event.id, phone);
      const browser = await signIn(server, phone);
      const replies = await Promise.all(Array.from({ length: 6 }, () => cancel(browser, booking)));
      expect(replies.map((r) => r.status)).toEqual(Array(6).fill(200));
      for (const r of replies) expect(r.body).toEqual({ refundCents: 4500, creditCents: 0, status: "refunded" });
      expect(new Set(calls.map((c) => c.key))).toEqual(new Set([`refund-${booking.bookingId}`]));
      expect(server.deps.db.select().from(refunds).where(eq(refunds.bookingId, booking.bookingId)).all()).toHaveLength(
        1,
      );
      expect(
        server.deps.db.select().from(refundClaims).where(eq(refundClaims.bookingId, booking.bookingId)).all(),
      ).toHaveLength(1);
      await expect.poll(() => textsTo(server, phone).length).toBe(1);
    });
  });

  it("a cancel racing the organiser's refund refunds once", async () => {
    await withCountingServer(async (server, calls) => {
      const event = await eventIn(server, 10 * HOUR, { hours: 24, percent: 50 });
      const phone = newMobile();
      const booking = paidBooking(server, event.id, phone);
      const browser = await signIn(server, phone);
      const cookie = await adminCookie(server);
      const [guest, organiser] = await Promise.all([
        cancel(browser, booking),
        fetch(`${server.url}/api/refund`, {
          method: "POST",
          headers: { "content-type": "application/json", cookie },
          body: JSON.stringify({ paymentIntentId: booking.paymentIntentId }),
        }),
      ]);
      expect(guest.status).toBe(200);
      expect(organiser.status).toBe(200);
      const recorded = server.deps.db.select().from(refunds).where(eq(refunds.bookingId, booking.bookingId)).all();
      expect(recorded).toHaveLength(1);
      // Whoever claimed first decided the amount; the guest is told what came back.
      expect(guest.body).toEqual({ refundCents: recorded[0]?.amountCents, creditCents: 0, status: "refunded" });
      expect([2250, 4500]).toContain(recorded[0]?.amountCents);
      expect(new Set(calls.map((c) => c.key))).toEqual(new Set([`refund-${booking.bookingId}`]));
      expect(
        server.deps.db
          .select()
          .from(bookings)
          .where(and(eq(bookings.id, booking.bookingId), eq(bookings.status, "refunded")))
          .all(),
      ).toHaveLength(1);
    });
  });

  it("after the organiser's refund, answers with that refund and refunds nothing more", async () => {
    await withCountingServer(async (server, calls) => {
      const event = await eventIn(server, 5 * DAY);
      const phone = newMobile();
      const booking = paidBooking(server, event.id, phone);
      const cookie = await adminCookie(server);
      const refunded = await fetch(`${server.url}/api/refund`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify({ paymentIntentId: booking.paymentIntentId }),
      });
      expect(refunded.status).toBe(200);
      const result = await cancel(await signIn(server, phone), booking);
      expect(result.body).toEqual({ refundCents: 4500, creditCents: 0, status: "refunded" });
      expect(calls).toHaveLength(1);
    });
  });

  it("refuses a cancel at a cancelled event with 409 event_cancelled (its refunds are the organiser's)", async () => {
    await withCountingServer(async (server) => {
      const event = await eventIn(server, 5 * DAY);
      const phone = newMobile();
      const booking = paidBooking(server, event.id, phone);
      server.deps.db.update(events).set({ status: "cancelled" }).where(eq(events.id, event.id)).run();
      const result = await cancel(await signIn(server, phone), booking);
      expect(result.status).toBe(409);
      expect(result.body).toMatchObject({ code: "event_cancelled" });
    });
  });
});

describe("the ticket and the policy (docs/api.md, TicketReply and ticket-status)", () => {
  const ticketLink = (server: TestServer, bookingId: number) => ({
    bookingId,
    t: linkToken(server.deps.env, "ticket", bookingId),
  });
  const post = async (server: TestServer, path: string, body: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it("carries what the seat cost and the event's policy, so the ticket can say what Cancel gives back", async () => {
    await withCountingServer(async (server) => {
      const event = await eventIn(server, 5 * DAY, { hours: 72, percent: 25 });
      const booking = paidBooking(server, event.id, newMobile(), 3800);
      const ticket = await post(server, "/api/ticket", ticketLink(server, booking.bookingId));
      expect(ticket.status).toBe(200);
      expect(ticket.body).toMatchObject({
        amountCents: 3800,
        cancellationPolicy: { fullRefundHours: 72, laterPercent: 25 },
      });
      const status = await post(server, "/api/ticket-status", ticketLink(server, booking.bookingId));
      expect(status.body).toMatchObject({
        status: "paid",
        amountCents: 3800,
        cancellationPolicy: { fullRefundHours: 72, laterPercent: 25 },
      });
    });
  });

  it("a booking its guest cancelled with nothing due: ticket-status says booking_cancelled, the texted link 409", async () => {
    await withCountingServer(async (server) => {
      const event = await eventIn(server, 10 * HOUR);
      const phone = newMobile();
      const booking = paidBooking(server, event.id, phone);
      expect((await cancel(await signIn(server, phone), booking)).body).toEqual({
        refundCents: 0,
        creditCents: 0,
        status: "cancelled",
      });
      // Before, ticket-status answered 409 not_paid, so a ticket saved on another phone kept its QR.
      const status = await post(server, "/api/ticket-status", ticketLink(server, booking.bookingId));
      expect(status).toMatchObject({ status: 200, body: { status: "booking_cancelled" } });
      const link = await post(server, "/api/ticket", ticketLink(server, booking.bookingId));
      expect(link).toMatchObject({ status: 409, body: { success: false, code: "booking_cancelled" } });
      expect(JSON.stringify(link.body)).not.toMatch(/qrCodeImage|uniqueCode/);
    });
  });

  it("a booking its guest cancelled with a refund reads as refunded", async () => {
    await withCountingServer(async (server) => {
      const event = await eventIn(server, 5 * DAY);
      const phone = newMobile();
      const booking = paidBooking(server, event.id, phone);
      expect((await cancel(await signIn(server, phone), booking)).body).toEqual({
        refundCents: 4500,
        creditCents: 0,
        status: "refunded",
      });
      const status = await post(server, "/api/ticket-status", ticketLink(server, booking.bookingId));
      expect(status).toMatchObject({ status: 200, body: { status: "refunded" } });
    });
  });
});
