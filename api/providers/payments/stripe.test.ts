import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { bookings, checkoutSessions, outboxMessages, refunds } from "../../../db/schema.ts";
import { suiteFake, suiteTestServer, verifiedPhoneCookie } from "../../../test/api-harness.ts";
import { type FakeSession, startFakeStripe } from "../../../test/fakes/stripe.ts";
import { insertEvent, insertHeldBooking, insertPaidBookings } from "../../../test/fixtures.ts";
import { DomainError } from "../../lib/errors.ts";
import { createStripePayments } from "./stripe.ts";
import { AlreadyRefunded } from "./types.ts";

// The real `stripe` SDK against a fake Stripe on loopback: what the app sends to Stripe, and what
// it does with Stripe's signed webhooks.

const WEBHOOK_SECRET = "whsec_test";
/** Everything the app logged, as one line each. */
const logged: string[] = [];
const fake = suiteFake(startFakeStripe);
const server = suiteTestServer(() => ({
  env: { STRIPE_SECRET_KEY: "sk_test_x", STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_BASE: fake.url },
  deps: (base) => ({
    log: (level, message, fields) => {
      logged.push(`${level} ${message} ${JSON.stringify(fields ?? {})}`);
      base.log(level, message, fields);
    },
  }),
}));

const post = (path: string, body: unknown, cookie?: string) =>
  fetch(server.url + path, {
    method: "POST",
    headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
const booking = (id: number) => server.deps.db.select().from(bookings).where(eq(bookings.id, id)).get()!;

/** Delivers a Stripe event to the webhook, signed the way Stripe signs it. */
function deliver(event: { id: string; type: string; data: { object: FakeSession } }, secret = WEBHOOK_SECRET) {
  const payload = JSON.stringify(event);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return fetch(`${server.url}/api/stripe/webhook`, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": signature },
    body: payload,
  });
}

async function heldWithCheckout(eventOverrides: Parameters<typeof insertEvent>[2] = {}) {
  const { db, env } = server.deps;
  const event = await insertEvent(db, env.UPLOADS_DIR, { priceCents: 5500, name: "Stripe Night", ...eventOverrides });
  const held = insertHeldBooking(db, event.id, { now: server.deps.now(), email: `s${Math.random()}@example.com` });
  const response = await post(
    "/api/create-checkout-session",
    {
      userID: held.userId,
      eventID: event.id,
      amount: 1,
      userEmail: "someone-else@example.com",
      eventName: "Free Night",
    },
    verifiedPhoneCookie(env, held.phone, server.deps.now()),
  );
  expect(response.status).toBe(200);
  const reply = (await response.json()) as { sessionId: string; paymentIntentId: string | null; url: string };
  return { event, held, reply };
}

describe("Stripe Checkout through the SDK", () => {
  it("creates the session with the database's price in AUD, an expiry, the booking's metadata and an idempotency key", async () => {
    const before = fake.requests.length;
    const { event, held, reply } = await heldWithCheckout();
    const created = fake.requests
      .slice(before)
      .filter((r) => r.method === "POST" && r.path === "/v1/checkout/sessions");
    expect(created).toHaveLength(1);
    const { form, headers } = created[0]!;
    expect(headers.authorization).toBe("Bearer sk_test_x");
    expect(headers["idempotency-key"]).toBe(`checkout-${held.bookingId}-${booking(held.bookingId).holdExpiresAt}`);
    expect(form).toMatchObject({
      mode: "payment",
      "allowed_payment_method_types[0]": "card",
      "line_items[0][quantity]": "1",
      "line_items[0][price_data][currency]": "aud",
      "line_items[0][price_data][unit_amount]": "5500",
      "line_items[0][price_data][product_data][name]": "Stripe Night",
      customer_email: held.email,
      // Back to the held booking, saying until when its seat stays held (the stretched hold).
      cancel_url:
        `${server.url}/confirmation?payment=cancelled&userID=${held.userId}&eventID=${event.id}` +
        `&heldUntil=${encodeURIComponent(new Date(booking(held.bookingId).holdExpiresAt).toISOString())}`,
      "metadata[bookingId]": String(held.bookingId),
      "metadata[userId]": String(held.userId),
      "metadata[eventId]": String(event.id),
    });
    expect(form.success_url).toBe(
      `${server.url}/success?session_id={CHECKOUT_SESSION_ID}&userID=${held.userId}&eventID=${event.id}` +
        `&eventName=Stripe%20Night&amount=55&userEmail=${encodeURIComponent(held.email)}&phone=${encodeURIComponent(held.phone)}`,
    );
    // Stripe wants at least 30 minutes; the hold was stretched to match the session.
    const expiresAt = Number(form.expires_at) * 1000;
    expect(expiresAt - server.deps.now()).toBeGreaterThan(30 * 60_000);
    // Stripe takes whole seconds: the session ends in the hold's last second, not after it.
    expect(Number(form.expires_at)).toBe(Math.floor(booking(held.bookingId).holdExpiresAt / 1000));

    expect(reply).toEqual({
      sessionId: expect.stringMatching(/^cs_test_/),
      paymentIntentId: null,
      url: `https://checkout.stripe.test/c/pay/${reply.sessionId}`,
    });

    // Pressing "Proceed to Payment" again reuses the open session.
    const again = await post(
      "/api/create-checkout-session",
      { userID: held.userId, eventID: event.id, amount: 1 },
      verifiedPhoneCookie(server.deps.env, held.phone, server.deps.now()),
    );
    expect(((await again.json()) as { sessionId: string }).sessionId).toBe(reply.sessionId);
    expect(fake.requests.filter((r) => r.path === "/v1/checkout/sessions").length).toBe(
      fake.requests.slice(0, before).filter((r) => r.path === "/v1/checkout/sessions").length + 1,
    );
  });

  it("retrieves the session from Stripe for the success page", async () => {
    const { held, reply } = await heldWithCheckout();
    // Only the browser that verified the booking's phone reads its payment (decision 010).
    const headers = { cookie: verifiedPhoneCookie(server.deps.env, held.phone, server.deps.now()) };
    const path = `/api/checkout-session?session_id=${reply.sessionId}`;
    expect(await (await fetch(server.url + path, { headers })).json()).toEqual({ paymentIntentId: null, paid: false });
    const paid = fake.complete(reply.sessionId);
    expect(await (await fetch(server.url + path, { headers })).json()).toEqual({
      paymentIntentId: paid.payment_intent,
      paid: true,
    });
    expect(fake.requests.at(-1)).toMatchObject({ method: "GET", path: `/v1/checkout/sessions/${reply.sessionId}` });
    // A session this app never made is refused before Stripe is asked.
    const before = fake.requests.length;
    const unknown = await fetch(`${server.url}/api/checkout-session?session_id=cs_test_unknown`, { headers });
    expect([403, 404]).toContain(unknown.status);
    expect(fake.requests.length).toBe(before);
  });

  it("send-confirmation asks Stripe when the webhook has not arrived yet", async () => {
    const { event, held, reply } = await heldWithCheckout();
    const cookie = verifiedPhoneCookie(server.deps.env, held.phone, server.deps.now());
    const early = await post(
      "/api/send-confirmation",
      { userID: held.userId, eventID: event.id, paymentIntentId: "pi_test_guess" },
      cookie,
    );
    expect(early.status).toBe(409);
    const paid = fake.complete(reply.sessionId);
    const response = await post(
      "/api/send-confirmation",
      { userID: held.userId, eventID: event.id, paymentIntentId: paid.payment_intent },
      cookie,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ uniqueCode: booking(held.bookingId).uniqueCode });
    expect(booking(held.bookingId)).toMatchObject({ status: "paid", paymentIntentId: paid.payment_intent });
  });
});

describe("when Stripe fails", () => {
  // Stripe's messages can name the account, its keys or request details: the client hears only
  // that the provider is unavailable, and the operator's log keeps Stripe's words.
  const distinctive = "Invalid API Key provided: sk_live_leaky-detail-4242 for acct_1LeakyAccount";

  async function expectGeneric502(response: Response) {
    expect(response.status).toBe(502);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      success: false,
      error: expect.stringMatching(/payment provider/),
      code: "provider_failed",
    });
    expect(text).not.toContain("leaky");
    expect(text).not.toContain("acct_");
  }

  it("answers a failed checkout with a generic 502, never Stripe's own message", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { priceCents: 5500 });
    const held = insertHeldBooking(db, event.id, { now: server.deps.now(), email: `f${Math.random()}@example.com` });
    fake.failNext("/v1/checkout/sessions", 1, { status: 401, message: distinctive });
    const response = await post(
      "/api/create-checkout-session",
      { userID: held.userId, eventID: event.id, amount: 1 },
      verifiedPhoneCookie(env, held.phone, server.deps.now()),
    );
    await expectGeneric502(response);
    expect(logged.some((line) => line.startsWith("warn ") && line.includes("leaky"))).toBe(true);
  });

  it("answers a failed checkout lookup with a generic 502, never Stripe's own message", async () => {
    const { held, reply } = await heldWithCheckout();
    fake.failNext(`/v1/checkout/sessions/${reply.sessionId}`, 1, { status: 400, message: distinctive });
    const response = await fetch(`${server.url}/api/checkout-session?session_id=${reply.sessionId}`, {
      headers: { cookie: verifiedPhoneCookie(server.deps.env, held.phone, server.deps.now()) },
    });
    await expectGeneric502(response);
  });

  it("keeps Stripe's message as the cause of the provider's generic error, for the log", async () => {
    // A Stripe of its own, so the refund counts of the webhook tests stay exact.
    const own = await startFakeStripe();
    const payments = createStripePayments({ secretKey: "sk_test_x", webhookSecret: WEBHOOK_SECRET, apiBase: own.url });
    own.failNext("/v1/refunds", 1, { status: 400, message: distinctive });
    const failure = await payments.refund("pi_test_any", "refund-cause").then(
      () => undefined,
      (error: unknown) => error,
    );
    await own.close();
    expect(failure).toBeInstanceOf(DomainError);
    expect(failure).toMatchObject({ status: 502, message: "the payment provider is unavailable" });
    expect(String((failure as Error).cause)).toContain(distinctive);
  });
});

describe("a refund Stripe made under a key it has forgotten", () => {
  it("answers AlreadyRefunded for a second refund of the payment, and findRefund names the refund", async () => {
    // A Stripe of its own, so the refund counts of the webhook tests stay exact.
    const own = await startFakeStripe();
    try {
      const payments = createStripePayments({
        secretKey: "sk_test_x",
        webhookSecret: WEBHOOK_SECRET,
        apiBase: own.url,
      });
      const paid = async () => {
        const checkout = await payments.createCheckout({
          amountCents: 5500,
          currency: "aud",
          productName: "Stripe Night",
          customerEmail: "buyer@example.com",
          successUrl: "https://tickets.example/success?session_id={CHECKOUT_SESSION_ID}",
          cancelUrl: "https://tickets.example/",
          expiresAt: Date.now() + 31 * 60_000,
          metadata: { bookingId: "1" },
          idempotencyKey: `checkout-${Math.random()}`,
        });
        return own.complete(checkout.id).payment_intent!;
      };
      const pi = await paid();
      const other = await paid();
      expect(await payments.findRefund(pi)).toBeNull();
      const made = await payments.refund(pi, "refund-1");
      await payments.refund(other, "refund-2");
      // Within 24 hours the key gives back the same refund.
      expect(await payments.refund(pi, "refund-1")).toEqual(made);

      own.forgetIdempotencyKeys();
      const refused = await payments.refund(pi, "refund-1").then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(AlreadyRefunded);
      expect((refused as Error).cause).toMatchObject({ code: "charge_already_refunded", statusCode: 400 });
      expect(await payments.findRefund(pi)).toEqual(made);
      expect(own.requests.at(-1)).toMatchObject({ method: "GET", path: "/v1/refunds" });
      expect(own.refunds.filter((r) => r.payment_intent === pi)).toHaveLength(1);
    } finally {
      await own.close();
    }
  });
});

describe("POST /api/stripe/webhook", () => {
  it("confirms the booking on checkout.session.completed, and a replay changes nothing", async () => {
    const { held, reply } = await heldWithCheckout();
    const completed = fake.event("checkout.session.completed", fake.complete(reply.sessionId));
    const response = await deliver(completed);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ received: true, outcome: "paid" });
    const row = booking(held.bookingId);
    expect(row).toMatchObject({ status: "paid", paymentIntentId: completed.data.object.payment_intent });
    expect(row.uniqueCode).toMatch(/^[A-Z2-9]{10}$/);
    const session = server.deps.db
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.id, reply.sessionId))
      .get();
    expect(session?.status).toBe("paid");

    const replay = await deliver(completed);
    expect(await replay.json()).toMatchObject({ received: true, duplicate: true });
    expect(booking(held.bookingId)).toEqual(row);
    const sms = server.deps.db
      .select()
      .from(outboxMessages)
      .where(eq(outboxMessages.dedupeKey, `confirmation-${held.bookingId}`))
      .all();
    expect(sms).toHaveLength(1);

    // Stripe may deliver "expired" after "completed": it must not release a paid seat.
    const lateExpiry = await deliver(
      fake.event("checkout.session.expired", { ...completed.data.object, status: "expired" }),
    );
    expect(lateExpiry.status).toBe(200);
    expect(booking(held.bookingId).status).toBe("paid");
  });

  it("refuses a delivery with a bad signature (400) and changes nothing", async () => {
    const { held, reply } = await heldWithCheckout();
    const completed = fake.event("checkout.session.completed", fake.complete(reply.sessionId));
    const forged = await deliver(completed, "whsec_wrong");
    expect(forged.status).toBe(400);
    expect(await forged.json()).toEqual({
      success: false,
      error: "invalid webhook signature",
      code: "invalid_request",
    });
    const unsigned = await post("/api/stripe/webhook", completed);
    expect(unsigned.status).toBe(400);
    expect(booking(held.bookingId).status).toBe("held");
  });

  it("releases the hold when the session expires unpaid", async () => {
    const { held, reply } = await heldWithCheckout();
    const response = await deliver(fake.event("checkout.session.expired", fake.expire(reply.sessionId)));
    expect(await response.json()).toMatchObject({ outcome: "released" });
    expect(booking(held.bookingId).status).toBe("released");
    const session = server.deps.db
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.id, reply.sessionId))
      .get();
    expect(session?.status).toBe("expired");
  });

  it("refunds a late payment when its seat has gone to someone else, once", async () => {
    const { event, held, reply } = await heldWithCheckout({ totalSeats: 1 });
    server.advance(32 * 60_000);
    try {
      await deliver(fake.event("checkout.session.expired", fake.expire(reply.sessionId)));
      insertPaidBookings(server.deps.db, event.id, 1);
      // The buyer's payment went through at the last second; Stripe reports it after the expiry.
      const paid = fake.complete(reply.sessionId);
      const completed = fake.event("checkout.session.completed", paid);
      const response = await deliver(completed);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ outcome: "refunded" });

      const refundCalls = fake.requests.filter((r) => r.path === "/v1/refunds");
      expect(refundCalls).toHaveLength(1);
      expect(refundCalls[0]?.form.payment_intent).toBe(paid.payment_intent);
      expect(refundCalls[0]?.headers["idempotency-key"]).toBe(`refund-${held.bookingId}`);
      expect(booking(held.bookingId)).toMatchObject({
        status: "refunded",
        seatReleased: true,
        paymentIntentId: paid.payment_intent,
        uniqueCode: null,
      });
      const recorded = server.deps.db.select().from(refunds).where(eq(refunds.bookingId, held.bookingId)).all();
      expect(recorded).toEqual([
        expect.objectContaining({ reason: "no_seat", refundId: fake.refunds[0]?.id, amountCents: 5500 }),
      ]);

      await deliver(completed);
      await deliver({ ...completed, id: `${completed.id}_retry` });
      expect(fake.requests.filter((r) => r.path === "/v1/refunds")).toHaveLength(1);
      const confirm = await post(
        "/api/send-confirmation",
        { userID: held.userId, eventID: event.id, paymentIntentId: paid.payment_intent },
        verifiedPhoneCookie(server.deps.env, held.phone, server.deps.now()),
      );
      expect(confirm.status).toBe(409);
    } finally {
      server.advance(-32 * 60_000);
    }
  });

  it("answers 502 when the automatic refund fails, and refunds when Stripe retries the delivery", async () => {
    const { event, held, reply } = await heldWithCheckout({ totalSeats: 1 });
    server.advance(32 * 60_000);
    try {
      await deliver(fake.event("checkout.session.expired", fake.expire(reply.sessionId)));
      insertPaidBookings(server.deps.db, event.id, 1);
      const completed = fake.event("checkout.session.completed", fake.complete(reply.sessionId));
      const refundsBefore = fake.refunds.length;
      fake.failNext("/v1/refunds");
      const failed = await deliver(completed);
      expect(failed.status).toBe(502);
      expect(booking(held.bookingId).status).toBe("refunded");
      expect(server.deps.db.select().from(refunds).where(eq(refunds.bookingId, held.bookingId)).all()).toEqual([]);

      const retried = await deliver(completed);
      expect(await retried.json()).toMatchObject({ outcome: "refunded" });
      expect(fake.refunds.length).toBe(refundsBefore + 1);
      expect(server.deps.db.select().from(refunds).where(eq(refunds.bookingId, held.bookingId)).all()).toHaveLength(1);
    } finally {
      server.advance(-32 * 60_000);
    }
  });

  it("lets a late payment take a seat that is still free", async () => {
    const { held, reply } = await heldWithCheckout({ totalSeats: 3 });
    server.advance(32 * 60_000);
    try {
      await deliver(fake.event("checkout.session.expired", fake.expire(reply.sessionId)));
      expect(booking(held.bookingId).status).toBe("released");
      const response = await deliver(fake.event("checkout.session.completed", fake.complete(reply.sessionId)));
      expect(await response.json()).toMatchObject({ outcome: "paid" });
      expect(booking(held.bookingId).status).toBe("paid");
    } finally {
      server.advance(-32 * 60_000);
    }
  });

  it("has no local checkout pages next to Stripe", async () => {
    const { reply } = await heldWithCheckout();
    expect((await fetch(`${server.url}/api/dev/checkout/cs_local_${"a".repeat(24)}`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/dev/checkout/${reply.sessionId}`)).status).not.toBe(200);
  });
});
