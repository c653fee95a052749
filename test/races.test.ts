import { and, eq, sql } from "drizzle-orm";
import Stripe from "stripe";
import { beforeAll, describe, expect, it } from "vitest";
import type { AppDeps } from "../api/deps.ts";
import type { PaymentsProvider } from "../api/providers/payments/types.ts";
import type { SmsProvider } from "../api/providers/sms/types.ts";
import { processedWebhookEvents } from "../db/payments-schema.ts";
import { bookings, checkoutSessions, events, outboxMessages, refunds } from "../db/schema.ts";
import { suiteFake, suiteTestServer, type TestServer, verifiedPhoneCookie } from "./api-harness.ts";
import { startFakeStripe } from "./fakes/stripe.ts";
import { insertEvent, insertHeldBooking, insertPaidBookings, makeImage } from "./fixtures.ts";
import {
  createCheckout,
  holdSeat,
  newMobile,
  pay,
  paymentIntentOf,
  sendConfirmation,
  verifiedBrowser,
} from "./suites/booking-flow.ts";

// docs/decisions/002: seats are never oversold, whatever the concurrency; confirmations are idempotent
// and send the SMS once, a repeated refund never refunds twice, webhook replays are harmless. Each
// test fires its requests in one Promise.all burst so they really overlap on the server.

const ADMIN_PASSWORD = "correct horse battery staple";

/**
 * Counts provider calls; a short delay widens the window in which a second caller could slip in.
 * The delays only let overlapping requests interleave; nothing here waits for the clock to move.
 */
function countingPayments(inner: PaymentsProvider) {
  const calls = { createCheckout: 0, refund: [] as { paymentIntentId: string; key: string }[] };
  const provider: PaymentsProvider = {
    name: inner.name,
    createCheckout: async (input) => {
      calls.createCheckout++;
      await new Promise((r) => setTimeout(r, 20));
      return inner.createCheckout(input);
    },
    retrieveCheckout: (id) => inner.retrieveCheckout(id),
    refund: async (paymentIntentId, key) => {
      calls.refund.push({ paymentIntentId, key });
      await new Promise((r) => setTimeout(r, 50));
      return inner.refund(paymentIntentId, key);
    },
    findRefund: (paymentIntentId) => inner.findRefund(paymentIntentId),
    ...(inner.verifyWebhook ? { verifyWebhook: inner.verifyWebhook.bind(inner) } : {}),
  };
  return { provider, calls };
}

function countingSms(inner: SmsProvider) {
  const sent: { to: string; body: string }[] = [];
  const provider: SmsProvider = {
    name: inner.name,
    startVerification: (phone) => inner.startVerification(phone),
    checkVerification: (phone, code) => inner.checkVerification(phone, code),
    send: async (to, body) => {
      sent.push({ to, body });
      await new Promise((r) => setTimeout(r, 10));
      return inner.send(to, body);
    },
  };
  return { provider, sent };
}

/** Seats taken as docs/decisions/002 counts them: paid, live holds, and refunds that kept their seat. */
function takenSeats(server: TestServer, eventId: number): number {
  const now = server.deps.now();
  return (
    server.deps.db
      .select({ n: sql<number>`count(*)` })
      .from(bookings)
      .where(
        and(
          eq(bookings.eventId, eventId),
          sql`(${bookings.status} = 'paid' or (${bookings.status} = 'held' and ${bookings.holdExpiresAt} > ${now}) or (${bookings.status} = 'refunded' and ${bookings.seatReleased} = 0))`,
        ),
      )
      .get()?.n ?? 0
  );
}

const postJson = (server: TestServer, path: string, body: unknown, cookie?: string) =>
  fetch(server.url + path, {
    method: "POST",
    headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });

/** The verified-phone cookie of the browser that held a seat inserted straight into the database. */
const cookieFor = (server: TestServer, phone: string) => verifiedPhoneCookie(server.deps.env, phone, server.deps.now());

async function adminCookie(server: TestServer): Promise<string> {
  const login = await postJson(server, "/api/admin-login", { password: ADMIN_PASSWORD });
  expect(login.status).toBe(200);
  return login.headers
    .getSetCookie()
    .map((l) => l.split(";")[0])
    .join("; ");
}

describe("with the local providers", () => {
  let payCalls: ReturnType<typeof countingPayments>["calls"];
  let smsSent: ReturnType<typeof countingSms>["sent"];
  let photo: Uint8Array;
  const server = suiteTestServer({
    env: { OTP_MAX_PER_ADDRESS: "100000", OTP_MAX_PER_PHONE: "1000" },
    deps: (base: AppDeps) => {
      const payments = countingPayments(base.payments);
      const sms = countingSms(base.sms);
      payCalls = payments.calls;
      smsSent = sms.sent;
      return { payments: payments.provider, sms: sms.provider };
    },
  });

  beforeAll(async () => {
    photo = new Uint8Array(await makeImage("jpeg", 160, 120));
  });

  /** A booking taken to "paid" through the real calls: hold, checkout, Pay. */
  async function paidBooking(eventId: number) {
    const phone = newMobile();
    const browser = await verifiedBrowser(server.url, phone);
    const held = await holdSeat(browser, { phone, eventId, image: photo });
    expect(held.status).toBe(200);
    const userID = held.userID ?? 0;
    const session = await createCheckout(server.url, { userID, eventID: eventId }, browser);
    expect(await pay(server.url, session.sessionId ?? "")).toBe(303);
    const paymentIntentId = (await paymentIntentOf(server.url, session.sessionId ?? "", browser)) ?? "";
    expect(paymentIntentId).toMatch(/^pi_local_/);
    const booking = server.deps.db.select().from(bookings).where(eq(bookings.userId, userID)).get();
    return {
      phone,
      browser,
      userID,
      eventID: eventId,
      paymentIntentId,
      bookingId: booking?.id ?? 0,
      sessionId: session.sessionId ?? "",
    };
  }

  it("30 verified buyers for the last 3 seats: exactly 3 holds, 27 refusals, never an oversold seat", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { totalSeats: 10 });
    insertPaidBookings(db, event.id, 7);
    const buyers = await Promise.all(
      Array.from({ length: 30 }, async () => {
        const phone = newMobile();
        return { phone, browser: await verifiedBrowser(server.url, phone) };
      }),
    );
    const replies = await Promise.all(
      buyers.map(({ phone, browser }) => holdSeat(browser, { phone, eventId: event.id, image: photo })),
    );
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 409)).toHaveLength(27);
    expect(takenSeats(server, event.id)).toBe(10);
    const held = db
      .select()
      .from(bookings)
      .where(and(eq(bookings.eventId, event.id), eq(bookings.status, "held")))
      .all();
    expect(held.map((b) => b.userId).sort()).toEqual(replies.flatMap((r) => (r.userID ? [r.userID] : [])).sort());

    // The three winners all pay at once, and still nothing is oversold.
    const paid = await Promise.all(
      held.map(async (b) => {
        const session = await createCheckout(
          server.url,
          { userID: b.userId, eventID: event.id },
          cookieFor(server, b.phone),
        );
        return pay(server.url, session.sessionId ?? "");
      }),
    );
    expect(paid).toEqual([303, 303, 303]);
    expect(takenSeats(server, event.id)).toBe(10);
    const detail = (await (await fetch(`${server.url}/api/get-event/${event.id}`)).json()) as {
      SeatAvailabilityPer: number;
    };
    expect(detail.SeatAvailabilityPer).toBe(0);
  });

  it("the same phone in 10 tabs at once holds one seat, not ten", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { totalSeats: 20 });
    const phone = newMobile();
    const browser = await verifiedBrowser(server.url, phone);
    const replies = await Promise.all(
      Array.from({ length: 10 }, () => holdSeat(browser, { phone, eventId: event.id, image: photo })),
    );
    expect(replies.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    expect(takenSeats(server, event.id)).toBe(1);
  });

  it("10 simultaneous create-checkout-session calls for one booking make one checkout session", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR);
    const held = insertHeldBooking(db, event.id, { now: server.deps.now() });
    const replies = await Promise.all(
      Array.from({ length: 10 }, () =>
        createCheckout(server.url, { userID: held.userId, eventID: event.id }, cookieFor(server, held.phone)),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(replies.map((r) => r.sessionId)).size).toBe(1);
    expect(db.select().from(checkoutSessions).where(eq(checkoutSessions.bookingId, held.bookingId)).all()).toHaveLength(
      1,
    );
  });

  it("10 simultaneous Pay posts of one checkout pay once", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR);
    const held = insertHeldBooking(db, event.id, { now: server.deps.now() });
    const session = await createCheckout(
      server.url,
      { userID: held.userId, eventID: event.id },
      cookieFor(server, held.phone),
    );
    const refundsBefore = payCalls.refund.length;
    const statuses = await Promise.all(Array.from({ length: 10 }, () => pay(server.url, session.sessionId ?? "")));
    expect(statuses).toEqual(Array(10).fill(303));
    const booking = db.select().from(bookings).where(eq(bookings.id, held.bookingId)).get();
    const row = db
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.id, session.sessionId ?? ""))
      .get();
    expect(booking?.status).toBe("paid");
    expect(row?.paymentIntentId).toBe(booking?.paymentIntentId);
    // A second payment would have been refunded automatically: none was taken, so none was given back.
    expect(payCalls.refund.length).toBe(refundsBefore);
    expect(db.select().from(refunds).where(eq(refunds.bookingId, held.bookingId)).all()).toEqual([]);
    expect(
      db
        .select()
        .from(outboxMessages)
        .where(eq(outboxMessages.dedupeKey, `confirmation-${held.bookingId}`))
        .all(),
    ).toHaveLength(1);
  });

  it("10 simultaneous send-confirmation calls give one code and send one SMS", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR);
    const paid = await paidBooking(event.id);
    const replies = await Promise.all(
      Array.from({ length: 10 }, () =>
        sendConfirmation(
          server.url,
          { userID: paid.userID, eventID: event.id, paymentIntentId: paid.paymentIntentId },
          paid.browser,
        ),
      ),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    const codes = new Set(replies.map((r) => r.uniqueCode));
    expect(codes.size).toBe(1);
    const [code] = [...codes];
    expect(code).toMatch(/^[A-Z2-9]{10}$/);
    expect(new Set(replies.map((r) => r.qrCodeImage)).size).toBe(1);
    expect(db.select().from(bookings).where(eq(bookings.id, paid.bookingId)).get()?.uniqueCode).toBe(code);
    expect(smsSent.filter((m) => m.to === paid.phone && m.body.includes(code ?? "?"))).toHaveLength(1);
    expect(
      db
        .select()
        .from(outboxMessages)
        .where(eq(outboxMessages.dedupeKey, `confirmation-${paid.bookingId}`))
        .all(),
    ).toHaveLength(1);
  });

  it("10 simultaneous refunds of one payment make one refund with one provider call", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { totalSeats: 5 });
    const paid = await paidBooking(event.id);
    const cookie = await adminCookie(server);
    const before = payCalls.refund.length;
    const replies = await Promise.all(
      Array.from({ length: 10 }, () =>
        postJson(server, "/api/refund", { paymentIntentId: paid.paymentIntentId }, cookie),
      ),
    );
    const bodies = (await Promise.all(replies.map((r) => r.json()))) as { success: boolean; refundId: string }[];
    expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(new Set(bodies.map((b) => b.refundId)).size).toBe(1);
    expect(bodies[0]?.refundId).toMatch(/^re_local_/);
    expect(payCalls.refund.slice(before)).toHaveLength(1);
    expect(db.select().from(refunds).where(eq(refunds.paymentIntentId, paid.paymentIntentId)).all()).toHaveLength(1);
    expect(db.select().from(bookings).where(eq(bookings.id, paid.bookingId)).get()?.status).toBe("refunded");
    // Refunded before the start: the seat is free again, once.
    expect(takenSeats(server, event.id)).toBe(0);
  });

  it("Pay and Cancel pressed at once: either paid and kept, or cancelled and never charged", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR);
    const held = insertHeldBooking(db, event.id, { now: server.deps.now() });
    const session = await createCheckout(
      server.url,
      { userID: held.userId, eventID: event.id },
      cookieFor(server, held.phone),
    );
    const id = session.sessionId ?? "";
    const refundsBefore = payCalls.refund.length;
    const cancel = () =>
      fetch(`${server.url}/api/dev/checkout/${id}/cancel`, { method: "POST", redirect: "manual" }).then(async (r) => {
        await r.body?.cancel();
        return r.status;
      });
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? cancel() : pay(server.url, id))));
    const booking = db.select().from(bookings).where(eq(bookings.id, held.bookingId)).get();
    const row = db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id)).get();
    if (booking?.status === "paid") {
      expect(row).toMatchObject({ status: "paid", paymentIntentId: booking.paymentIntentId });
    } else {
      // Cancel ends the checkout but keeps the seat held for its buyer, unpaid.
      expect(booking).toMatchObject({ status: "held", paymentIntentId: null });
      expect(row?.status).toBe("cancelled");
      expect(replies.filter((_, i) => i % 2 === 0)).toEqual(Array(5).fill(409));
    }
    expect(payCalls.refund.length).toBe(refundsBefore);
    expect(db.select().from(refunds).where(eq(refunds.bookingId, held.bookingId)).all()).toEqual([]);
  });

  it("a refund frees one seat of a full event and 10 racing buyers get exactly that one", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { totalSeats: 2 });
    const [first] = [await paidBooking(event.id), await paidBooking(event.id)];
    const cookie = await adminCookie(server);
    const buyers = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const phone = newMobile();
        return { phone, browser: await verifiedBrowser(server.url, phone) };
      }),
    );
    const [refund, ...racing] = await Promise.all([
      postJson(server, "/api/refund", { paymentIntentId: first?.paymentIntentId }, cookie),
      ...buyers.slice(0, 5).map(({ phone, browser }) => holdSeat(browser, { phone, eventId: event.id, image: photo })),
    ]);
    expect((refund as Response).status).toBe(200);
    const late = await Promise.all(
      buyers.slice(5).map(({ phone, browser }) => holdSeat(browser, { phone, eventId: event.id, image: photo })),
    );
    const holds = [...(racing as { status: number }[]), ...late];
    expect(holds.filter((h) => h.status === 200)).toHaveLength(1);
    expect(holds.filter((h) => h.status === 409)).toHaveLength(9);
    expect(takenSeats(server, event.id)).toBe(2);
  });

  it("5 simultaneous start-event calls start it once and text each participant once", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR);
    const attendees = insertPaidBookings(db, event.id, 4);
    const cookie = await adminCookie(server);
    const replies = await Promise.all(
      Array.from({ length: 5 }, () => postJson(server, "/api/start-event", { eventId: event.id }, cookie)),
    );
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409, 409, 409, 409]);
    expect(db.select().from(events).where(eq(events.id, event.id)).get()?.status).toBe("started");
    for (const a of attendees) {
      expect(smsSent.filter((m) => m.to === a.phone && m.body.includes("/ParticipantFeedback?"))).toHaveLength(1);
    }
  });
});

describe("with Stripe (the real SDK against a fake Stripe)", () => {
  const WEBHOOK_SECRET = "whsec_test";
  const fake = suiteFake(startFakeStripe);
  const server = suiteTestServer(() => ({
    env: { STRIPE_SECRET_KEY: "sk_test_x", STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: fake.url },
  }));

  const deliver = (event: { id: string }) => {
    const payload = JSON.stringify(event);
    return fetch(`${server.url}/api/stripe/webhook`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "stripe-signature": Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
      },
      body: payload,
    });
  };

  it("10 simultaneous replays of checkout.session.completed, racing send-confirmation, confirm once", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR);
    const held = insertHeldBooking(db, event.id, { now: server.deps.now() });
    const session = await createCheckout(
      server.url,
      { userID: held.userId, eventID: event.id },
      cookieFor(server, held.phone),
    );
    const completed = fake.event("checkout.session.completed", fake.complete(session.sessionId ?? ""));
    const pi = completed.data.object.payment_intent ?? "";
    const [deliveries, confirmations] = await Promise.all([
      Promise.all(Array.from({ length: 10 }, () => deliver(completed))),
      Promise.all(
        Array.from({ length: 5 }, () =>
          sendConfirmation(
            server.url,
            { userID: held.userId, eventID: event.id, paymentIntentId: pi },
            cookieFor(server, held.phone),
          ),
        ),
      ),
    ]);
    expect(deliveries.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(confirmations.map((r) => r.status)).toEqual(Array(5).fill(200));
    const booking = db.select().from(bookings).where(eq(bookings.id, held.bookingId)).get();
    expect(booking).toMatchObject({ status: "paid", paymentIntentId: pi });
    expect(new Set(confirmations.map((c) => c.uniqueCode))).toEqual(new Set([booking?.uniqueCode]));
    expect(
      db.select().from(processedWebhookEvents).where(eq(processedWebhookEvents.id, completed.id)).all(),
    ).toHaveLength(1);
    expect(
      db
        .select()
        .from(outboxMessages)
        .where(eq(outboxMessages.dedupeKey, `confirmation-${held.bookingId}`))
        .all(),
    ).toHaveLength(1);
    expect(fake.refunds.filter((r) => r.payment_intent === pi)).toEqual([]);
  });

  it("10 simultaneous replays of a payment that lost its seat refund it exactly once", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { totalSeats: 1 });
    const held = insertHeldBooking(db, event.id, { now: server.deps.now() });
    const session = await createCheckout(
      server.url,
      { userID: held.userId, eventID: event.id },
      cookieFor(server, held.phone),
    );
    server.advance(32 * 60_000);
    try {
      await deliver(fake.event("checkout.session.expired", fake.expire(session.sessionId ?? "")));
      insertPaidBookings(db, event.id, 1);
      const completed = fake.event("checkout.session.completed", fake.complete(session.sessionId ?? ""));
      const pi = completed.data.object.payment_intent ?? "";
      const replies = await Promise.all([
        ...Array.from({ length: 5 }, () => deliver(completed)),
        ...Array.from({ length: 5 }, (_, i) => deliver({ ...completed, id: `${completed.id}_retry${i}` })),
      ]);
      expect(replies.map((r) => r.status)).toEqual(Array(10).fill(200));
      // Stripe keeps one refund per idempotency key; the app must never ask under two keys.
      expect(fake.refunds.filter((r) => r.payment_intent === pi)).toHaveLength(1);
      const keys = new Set(
        fake.requests
          .filter((r) => r.path === "/v1/refunds" && r.form.payment_intent === pi)
          .map((r) => r.headers["idempotency-key"]),
      );
      expect(keys.size).toBe(1);
      expect(db.select().from(refunds).where(eq(refunds.paymentIntentId, pi)).all()).toHaveLength(1);
      expect(db.select().from(bookings).where(eq(bookings.id, held.bookingId)).get()).toMatchObject({
        status: "refunded",
        uniqueCode: null,
      });
      expect(takenSeats(server, event.id)).toBe(1);
    } finally {
      server.advance(-32 * 60_000);
    }
  });
});
