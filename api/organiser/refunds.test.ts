import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bookings, events, outboxMessages, type RefundClaim, refundClaims, refunds } from "../../db/schema.ts";
import {
  type BrowserClient,
  browserClient,
  suiteFake,
  suiteTestServer,
  verifiedPhoneCookie,
} from "../../test/api-harness.ts";
import { type FakeSession, startFakeStripe } from "../../test/fakes/stripe.ts";
import { insertEvent, insertHeldBooking, insertPaidBookings } from "../../test/fixtures.ts";
import { createCheckout, signedInOnMe } from "../../test/suites/booking-flow.ts";
import { backgroundJobs } from "../ops/jobs.ts";

// A refund is a provider call between two writes: the decision to refund and the record of the
// refund. These tests kill the server in between, with the real `stripe` SDK against the fake
// Stripe, and check that what follows (Finish refunds, the admin's refund, Stripe's retry of a
// webhook) finishes the refund Stripe already made, even after Stripe forgot its idempotency key,
// and never refunds twice (docs/decisions/002-seats-holds-and-payment.md).

const WEBHOOK_SECRET = "whsec_test";
const PASSWORD = "correct horse battery staple";
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * The server's process "dies" right after its next refund is made at Stripe: that refund's answer is
 * never recorded, and every later refund fails before reaching Stripe, until `restart()`.
 */
let dying: "no" | "after-next-refund" | "dead" = "no";
const killAfterNextRefund = () => {
  dying = "after-next-refund";
};
const restart = () => {
  dying = "no";
};

/** The claim the database held for a payment at the moment Stripe was asked to refund it. */
const claimAtCall = new Map<string, RefundClaim | undefined>();

const fake = suiteFake(startFakeStripe);
const server = suiteTestServer(() => ({
  env: { STRIPE_SECRET_KEY: "sk_test_x", STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: fake.url },
  deps: (base) => ({
    payments: {
      ...base.payments,
      refund: async (paymentIntentId, key, amountCents) => {
        claimAtCall.set(
          paymentIntentId,
          base.db.select().from(refundClaims).where(eq(refundClaims.paymentIntentId, paymentIntentId)).get(),
        );
        if (dying === "dead") throw new Error("the process is gone");
        const made = await base.payments.refund(paymentIntentId, key, amountCents);
        if (dying === "after-next-refund") {
          dying = "dead";
          throw new Error("killed before the answer was recorded");
        }
        return made;
      },
    },
  }),
}));
let admin: BrowserClient;

beforeAll(async () => {
  admin = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
});
beforeEach(restart);

const json = async <T = Record<string, unknown>>(response: Response) => (await response.json()) as T;
const bookingRow = (id: number) => server.deps.db.select().from(bookings).where(eq(bookings.id, id)).get()!;
const recorded = (paymentIntentId: string) =>
  server.deps.db.select().from(refunds).where(eq(refunds.paymentIntentId, paymentIntentId)).all();
const refundsAtStripe = (paymentIntentId: string) => fake.refunds.filter((r) => r.payment_intent === paymentIntentId);
const newEvent = (overrides: Parameters<typeof insertEvent>[2] = {}) =>
  insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR, { priceCents: 5500, ...overrides });

/** Delivers a Stripe event to the webhook, signed the way Stripe signs it. */
function deliver(event: { id: string; type: string; data: { object: FakeSession } }) {
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
  return fetch(`${server.url}/api/stripe/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": signature },
    body: payload,
  });
}

/** A held seat with an open Stripe Checkout session. */
async function heldWithCheckout(eventId: number) {
  const held = insertHeldBooking(server.deps.db, eventId, { now: server.deps.now(), amountCents: 5500 });
  const cookie = verifiedPhoneCookie(server.deps.env, held.phone, server.deps.now());
  const checkout = await createCheckout(server.url, { userID: held.userId, eventID: eventId }, cookie);
  expect(checkout.status).toBe(200);
  return { ...held, sessionId: checkout.sessionId! };
}

/** A seat paid through Stripe Checkout and confirmed by Stripe's webhook. */
async function paidThroughStripe(eventId: number) {
  const held = await heldWithCheckout(eventId);
  const completed = fake.event("checkout.session.completed", fake.complete(held.sessionId));
  expect(await json(await deliver(completed))).toMatchObject({ outcome: "paid" });
  return { ...held, paymentIntentId: completed.data.object.payment_intent! };
}

describe("a refund made at Stripe by a server killed before it recorded it", () => {
  it("is recorded by Finish refunds after Stripe forgot the key, and nobody is refunded twice", async () => {
    const event = await newEvent();
    const first = await paidThroughStripe(event.id);
    const second = await paidThroughStripe(event.id);
    killAfterNextRefund();
    const cancelled = await admin.postJson("/api/cancel-event", { eventId: event.id });
    expect(await json(cancelled)).toMatchObject({ refunded: 0, failed: 2 });
    const madeBeforeTheCrash = refundsAtStripe(first.paymentIntentId);
    expect(madeBeforeTheCrash).toHaveLength(1);
    expect(bookingRow(first.bookingId).status).toBe("paid");

    restart();
    // A day later: Stripe no longer knows `refund-{bookingId}`, so asking again is a new request.
    fake.forgetIdempotencyKeys();
    const finish = await admin.postJson("/api/cancel-event", { eventId: event.id });
    expect(await json(finish)).toEqual({ success: true, refunded: 2, failed: 0, sent: 0, smsFailed: 0 });

    expect(bookingRow(first.bookingId)).toMatchObject({ status: "refunded", seatReleased: true });
    expect(bookingRow(second.bookingId).status).toBe("refunded");
    expect(recorded(first.paymentIntentId)).toEqual([
      expect.objectContaining({ refundId: madeBeforeTheCrash[0]!.id, amountCents: 5500, reason: "admin" }),
    ]);
    expect(refundsAtStripe(first.paymentIntentId)).toHaveLength(1);
    expect(refundsAtStripe(second.paymentIntentId)).toHaveLength(1);

    const again = await admin.postJson("/api/cancel-event", { eventId: event.id });
    expect(await json(again)).toEqual({ success: true, refunded: 0, failed: 0, sent: 0, smsFailed: 0 });
  });

  it("is recorded by the admin's refund after Stripe forgot the key, answering Stripe's refund id", async () => {
    const event = await newEvent();
    const paid = await paidThroughStripe(event.id);
    killAfterNextRefund();
    expect((await admin.postJson("/api/refund", { paymentIntentId: paid.paymentIntentId })).status).toBe(502);
    const [made] = refundsAtStripe(paid.paymentIntentId);

    restart();
    fake.forgetIdempotencyKeys();
    const retried = await admin.postJson("/api/refund", { paymentIntentId: paid.paymentIntentId });
    expect(retried.status).toBe(200);
    expect(await json(retried)).toEqual({ success: true, refundId: made!.id });
    expect(bookingRow(paid.bookingId)).toMatchObject({ status: "refunded", seatReleased: true });
    expect(recorded(paid.paymentIntentId)).toHaveLength(1);
    expect(refundsAtStripe(paid.paymentIntentId)).toHaveLength(1);
  });

  it("is recorded when Stripe retries the webhook of a payment that found no seat", async () => {
    const event = await newEvent({ totalSeats: 1 });
    const held = await heldWithCheckout(event.id);
    server.advance(32 * MINUTE);
    try {
      await deliver(fake.event("checkout.session.expired", fake.expire(held.sessionId)));
      insertPaidBookings(server.deps.db, event.id, 1);
      // The buyer paid at the last second; the seat has gone to someone else since.
      const completed = fake.event("checkout.session.completed", fake.complete(held.sessionId));
      const pi = completed.data.object.payment_intent!;
      killAfterNextRefund();
      expect((await deliver(completed)).status).toBe(502);
      const [made] = refundsAtStripe(pi);
      expect(made).toBeDefined();

      restart();
      // Stripe retries a failed delivery for days, long after it forgot the refund's key.
      fake.forgetIdempotencyKeys();
      const retried = await deliver(completed);
      expect(retried.status).toBe(200);
      expect(await json(retried)).toMatchObject({ outcome: "refunded" });
      expect(recorded(pi)).toEqual([expect.objectContaining({ refundId: made!.id, reason: "no_seat" })]);
      expect(refundsAtStripe(pi)).toHaveLength(1);
      expect(bookingRow(held.bookingId)).toMatchObject({ status: "refunded", uniqueCode: null });
    } finally {
      server.advance(-32 * MINUTE);
    }
  });
});

describe("the claim", () => {
  it("is in the database before Stripe is asked for the admin's refund", async () => {
    const event = await newEvent();
    const paid = await paidThroughStripe(event.id);
    expect((await admin.postJson("/api/refund", { paymentIntentId: paid.paymentIntentId })).status).toBe(200);
    expect(claimAtCall.get(paid.paymentIntentId)).toMatchObject({
      bookingId: paid.bookingId,
      idempotencyKey: `refund-${paid.bookingId}`,
      amountCents: 5500,
      reason: "admin",
    });
  });

  it("is in the database before Stripe is asked to refund a payment that found no seat", async () => {
    const event = await newEvent({ totalSeats: 1 });
    const held = await heldWithCheckout(event.id);
    server.advance(32 * MINUTE);
    try {
      await deliver(fake.event("checkout.session.expired", fake.expire(held.sessionId)));
      insertPaidBookings(server.deps.db, event.id, 1);
      const completed = fake.event("checkout.session.completed", fake.complete(held.sessionId));
      expect(await json(await deliver(completed))).toMatchObject({ outcome: "refunded" });
      expect(claimAtCall.get(completed.data.object.payment_intent!)).toMatchObject({
        bookingId: held.bookingId,
        idempotencyKey: `refund-${held.bookingId}`,
        amountCents: 5500,
        reason: "no_seat",
      });
    } finally {
      server.advance(-32 * MINUTE);
    }
  });
});

describe("the refunds job", () => {
  /** The job as server.ts builds it: a new list per call is a freshly started server. */
  const refundsJob = () => {
    const job = backgroundJobs(server.deps).find((j) => j.name === "refunds");
    if (!job) throw new Error("no refunds job in api/ops/jobs.ts");
    return job;
  };

  it("finishes a refund a crash left claimed, once it is no longer in flight", async () => {
    const event = await newEvent();
    const paid = await paidThroughStripe(event.id);
    killAfterNextRefund();
    expect((await admin.postJson("/api/refund", { paymentIntentId: paid.paymentIntentId })).status).toBe(502);
    const [made] = refundsAtStripe(paid.paymentIntentId);
    restart();

    // Moments later the call could still be under way in another process: the job leaves it.
    await refundsJob().run(server.deps.now());
    expect(bookingRow(paid.bookingId).status).toBe("paid");

    server.advance(5 * MINUTE);
    try {
      fake.forgetIdempotencyKeys();
      expect(await refundsJob().run(server.deps.now())).toEqual({ finished: 1, failed: 0 });
      expect(bookingRow(paid.bookingId)).toMatchObject({ status: "refunded", seatReleased: true });
      expect(recorded(paid.paymentIntentId)).toEqual([expect.objectContaining({ refundId: made!.id })]);
      expect(refundsAtStripe(paid.paymentIntentId)).toHaveLength(1);
      // Nothing left to do on the next run, and the admin's refund answers the recorded one.
      expect(await refundsJob().run(server.deps.now())).toEqual({ finished: 0, failed: 0 });
      const again = await admin.postJson("/api/refund", { paymentIntentId: paid.paymentIntentId });
      expect(await json(again)).toEqual({ success: true, refundId: made!.id });
    } finally {
      server.advance(-5 * MINUTE);
    }
  });

  it("finishes the paid bookings of an event whose cancel crashed before their refunds were claimed", async () => {
    const event = await newEvent();
    const first = await paidThroughStripe(event.id);
    const second = await paidThroughStripe(event.id);
    // The cancel's first step committed (cancelled, everyone texted "is being refunded") and the
    // process died before any refund was claimed: no claim, no refund, both still paid.
    server.deps.db.update(events).set({ status: "cancelled" }).where(eq(events.id, event.id)).run();
    server.advance(5 * MINUTE);
    try {
      expect(await refundsJob().run(server.deps.now())).toEqual({ finished: 2, failed: 0 });
      for (const paid of [first, second]) {
        expect(bookingRow(paid.bookingId)).toMatchObject({ status: "refunded", seatReleased: true });
        expect(refundsAtStripe(paid.paymentIntentId)).toHaveLength(1);
        // The cancel's own text said so already: the refund adds no second one.
        const texts = server.deps.db.select().from(outboxMessages).where(eq(outboxMessages.to, paid.phone)).all();
        expect(texts.filter((t) => t.body.includes("being refunded"))).toHaveLength(0);
      }
      expect(await refundsJob().run(server.deps.now())).toEqual({ finished: 0, failed: 0 });
      // The organiser's "Finish refunds" then finds nothing left to do.
      const finish = await admin.postJson("/api/cancel-event", { eventId: event.id });
      expect(await json(finish)).toMatchObject({ refunded: 0, failed: 0 });
    } finally {
      server.advance(-5 * MINUTE);
    }
  });

  it("keeps a claim the provider keeps failing, and tries it again on a later run", async () => {
    const event = await newEvent();
    const paid = await paidThroughStripe(event.id);
    fake.failNext("/v1/refunds", 2, { status: 400, message: "fake stripe: card network down" });
    expect((await admin.postJson("/api/refund", { paymentIntentId: paid.paymentIntentId })).status).toBe(502);
    server.advance(5 * MINUTE);
    try {
      expect(await refundsJob().run(server.deps.now())).toEqual({ finished: 0, failed: 1 });
      expect(bookingRow(paid.bookingId).status).toBe("paid");
      expect(await refundsJob().run(server.deps.now())).toEqual({ finished: 1, failed: 0 });
      expect(bookingRow(paid.bookingId).status).toBe("refunded");
      expect(refundsAtStripe(paid.paymentIntentId)).toHaveLength(1);
    } finally {
      server.advance(-5 * MINUTE);
    }
  });
});

describe("a guest's own cancel through Stripe (docs/decisions/028-cancellation-money-path.md)", () => {
  it("refunds the policy's part of the payment at Stripe, once, and records what Stripe gave back", async () => {
    // 10 hours before the start, inside the 24-hour cut-off: 33% of $55.00 comes back, rounded down.
    const event = await newEvent({
      startsAt: server.deps.now() + 10 * HOUR,
      cancelFullRefundHours: 24,
      cancelLaterPercent: 33,
    });
    const paid = await paidThroughStripe(event.id);
    const guest = await signedInOnMe(server.url, paid.phone);
    const target = { eventID: event.id, userID: paid.userId };
    const first = await guest.postJson("/api/cancel-booking", target);
    expect(await json(first)).toEqual({ refundCents: 1815, creditCents: 0, status: "refunded" });
    // What Stripe was asked: this payment, 1815 cents, under the claim's idempotency key.
    const asked = fake.requests.filter(
      (r) => r.method === "POST" && r.path === "/v1/refunds" && r.form.payment_intent === paid.paymentIntentId,
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]?.form.amount).toBe("1815");
    expect(asked[0]?.headers["idempotency-key"]).toBeTruthy();
    expect(refundsAtStripe(paid.paymentIntentId)).toEqual([expect.objectContaining({ amount: 1815 })]);
    expect(recorded(paid.paymentIntentId)).toEqual([
      expect.objectContaining({ amountCents: 1815, reason: "guest_cancel" }),
    ]);
    expect(bookingRow(paid.bookingId).status).toBe("refunded");
    // Asked again, and then the organiser's Refund: the same answer, and Stripe is not asked again.
    expect(await json(await guest.postJson("/api/cancel-booking", target))).toEqual({
      refundCents: 1815,
      creditCents: 0,
      status: "refunded",
    });
    await admin.postJson("/api/refund", { paymentIntentId: paid.paymentIntentId });
    expect(refundsAtStripe(paid.paymentIntentId)).toHaveLength(1);
  });
});
