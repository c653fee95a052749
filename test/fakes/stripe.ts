import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A fake Stripe API on 127.0.0.1 for contract tests: the real `stripe` SDK talks to it over HTTP
 * (STRIPE_API_BASE), so the requests the app makes are checked exactly as Stripe would receive them.
 * It answers checkout.sessions create/retrieve and refunds create and list, honours Idempotency-Key
 * like Stripe (same key, same answer, until the key is forgotten), and records every request. As
 * Stripe does, it refunds a payment once: asked again under a key it does not remember, it answers
 * 400 `charge_already_refunded`. A refund's `amount` is honoured (a partial refund), and one larger
 * than the payment is refused with 400 `amount_too_large`; without it the whole payment comes back.
 */

export type RecordedRequest = {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  /** The form-encoded body as Stripe's bracket keys: `line_items[0][price_data][unit_amount]`. */
  form: Record<string, string>;
};

export type FakeSession = {
  id: string;
  object: "checkout.session";
  mode: string;
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid";
  payment_intent: string | null;
  amount_total: number;
  currency: string;
  customer_email: string | null;
  success_url: string;
  cancel_url: string;
  expires_at: number;
  metadata: Record<string, string>;
  url: string | null;
};

export type FakeRefund = {
  id: string;
  object: "refund";
  amount: number;
  currency: string;
  payment_intent: string;
  reason: string | null;
  status: "succeeded";
  created: number;
  /** The Idempotency-Key it was made under (not part of Stripe's object). */
  idempotencyKey?: string;
};

export type FakeStripe = {
  url: string;
  requests: RecordedRequest[];
  sessions: Map<string, FakeSession>;
  /** Every refund made, oldest first. */
  refunds: FakeRefund[];
  /** The buyer pays: the session completes with a new payment intent. */
  complete(sessionId: string): FakeSession;
  /** The session runs out of time unpaid. */
  expire(sessionId: string): FakeSession;
  /**
   * The next `times` requests to `path` get a Stripe error (400 by default, so the SDK does not retry),
   * with `error`'s message and status when given.
   */
  failNext(path: string, times?: number, error?: { status?: number; message?: string }): void;
  /**
   * Forgets every idempotency key, as Stripe does 24 hours after a key's first request: a repeated
   * request is then a new one.
   */
  forgetIdempotencyKeys(): void;
  /** A signed-off Stripe event around a session, ready for the webhook. */
  event(
    type: string,
    session: FakeSession,
  ): { id: string; object: "event"; type: string; data: { object: FakeSession } };
  close(): Promise<void>;
};

const noSuch = (what: string, id: string) => ({
  error: { type: "invalid_request_error", code: "resource_missing", message: `No such ${what}: '${id}'` },
});

/** A refund as Stripe's API shows it. */
const stripeRefund = ({ idempotencyKey: _, ...refund }: FakeRefund) => refund;

let counter = 0;
const nextId = (prefix: string) =>
  `${prefix}_test_${Date.now().toString(36)}${(++counter).toString(36).padStart(4, "0")}`;

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: RecordedRequest[] = [];
  const sessions = new Map<string, FakeSession>();
  const refunds: FakeStripe["refunds"] = [];
  const idempotent = new Map<string, { status: number; body: unknown }>();
  const failures = new Map<string, number>();
  const failureShapes = new Map<string, { status: number; message: string }>();

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json", "request-id": nextId("req") });
    res.end(JSON.stringify(body));
  };
  const missing = (res: ServerResponse, what: string, id: string) => send(res, 404, noSuch(what, id));
  const paidWith = (pi: string) => [...sessions.values()].find((s) => s.payment_intent === pi);

  const handle = (req: IncomingMessage, body: string): { status: number; body: unknown } => {
    const url = new URL(req.url ?? "/", "http://fake");
    const form = Object.fromEntries(new URLSearchParams(body));
    if (req.method === "POST" && url.pathname === "/v1/checkout/sessions") {
      const metadata: Record<string, string> = {};
      for (const [key, value] of Object.entries(form)) {
        const m = /^metadata\[(.+)\]$/.exec(key);
        if (m?.[1]) metadata[m[1]] = value;
      }
      const id = nextId("cs");
      const session: FakeSession = {
        id,
        object: "checkout.session",
        mode: form.mode ?? "payment",
        status: "open",
        payment_status: "unpaid",
        payment_intent: null,
        amount_total:
          Number(form["line_items[0][price_data][unit_amount]"] ?? 0) * Number(form["line_items[0][quantity]"] ?? 1),
        currency: form["line_items[0][price_data][currency]"] ?? "usd",
        customer_email: form.customer_email ?? null,
        success_url: form.success_url ?? "",
        cancel_url: form.cancel_url ?? "",
        expires_at: Number(form.expires_at ?? 0),
        metadata,
        url: `https://checkout.stripe.test/c/pay/${id}`,
      };
      sessions.set(id, session);
      return { status: 200, body: session };
    }
    const retrieve = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
    if (req.method === "GET" && retrieve?.[1]) {
      const session = sessions.get(decodeURIComponent(retrieve[1]));
      if (!session) return { status: 404, body: null };
      return { status: 200, body: session };
    }
    if (req.method === "POST" && url.pathname === "/v1/refunds") {
      const pi = form.payment_intent ?? "";
      const session = paidWith(pi);
      if (!session) return { status: 404, body: noSuch("payment_intent", pi) };
      // Without a remembered Idempotency-Key a second full refund is refused, as Stripe refuses it.
      if (refunds.some((r) => r.payment_intent === pi)) {
        return {
          status: 400,
          body: {
            error: {
              type: "invalid_request_error",
              code: "charge_already_refunded",
              message: `Charge ch_for_${pi} has already been refunded.`,
            },
          },
        };
      }
      const amount = form.amount === undefined ? session.amount_total : Number(form.amount);
      if (!Number.isInteger(amount) || amount < 1 || amount > session.amount_total) {
        return {
          status: 400,
          body: {
            error: {
              type: "invalid_request_error",
              code: "amount_too_large",
              param: "amount",
              message: `Refund amount (${form.amount}) is greater than charge amount (${session.amount_total})`,
            },
          },
        };
      }
      const refund: FakeRefund = {
        id: nextId("re"),
        object: "refund",
        amount,
        currency: session.currency,
        payment_intent: pi,
        reason: form.reason ?? null,
        status: "succeeded",
        created: Math.floor(Date.now() / 1000),
        idempotencyKey: req.headers["idempotency-key"] as string | undefined,
      };
      refunds.push(refund);
      return { status: 200, body: stripeRefund(refund) };
    }
    if (req.method === "GET" && url.pathname === "/v1/refunds") {
      const pi = url.searchParams.get("payment_intent");
      if (pi !== null && !paidWith(pi)) return { status: 404, body: noSuch("payment_intent", pi) };
      // Stripe lists newest first.
      const data = refunds
        .filter((r) => pi === null || r.payment_intent === pi)
        .reverse()
        .map(stripeRefund);
      return { status: 200, body: { object: "list", data, has_more: false, url: "/v1/refunds" } };
    }
    return { status: 404, body: null };
  };

  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://fake");
      requests.push({
        method: req.method ?? "",
        path: url.pathname,
        headers: Object.fromEntries(
          Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(",") : v]),
        ),
        form: Object.fromEntries(new URLSearchParams(body)),
      });
      const failing = failures.get(url.pathname) ?? 0;
      if (failing > 0) {
        failures.set(url.pathname, failing - 1);
        const shape = failureShapes.get(url.pathname) ?? { status: 400, message: "fake stripe: told to fail" };
        return send(res, shape.status, { error: { type: "invalid_request_error", message: shape.message } });
      }
      const key = req.headers["idempotency-key"];
      const cacheKey = typeof key === "string" && req.method === "POST" ? `${url.pathname} ${key}` : undefined;
      const cached = cacheKey ? idempotent.get(cacheKey) : undefined;
      const answer = cached ?? handle(req, body);
      if (cacheKey && !cached) idempotent.set(cacheKey, answer);
      if (answer.status === 404 && answer.body === null)
        return missing(
          res,
          url.pathname.includes("refunds") ? "payment_intent" : "checkout.session",
          url.pathname.split("/").pop() ?? "",
        );
      send(res, answer.status, answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  const get = (id: string) => {
    const session = sessions.get(id);
    if (!session) throw new Error(`fake stripe: no session ${id}`);
    return session;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    sessions,
    refunds,
    complete(id) {
      const session = get(id);
      Object.assign(session, { status: "complete", payment_status: "paid", payment_intent: nextId("pi"), url: null });
      return structuredClone(session);
    },
    expire(id) {
      const session = get(id);
      Object.assign(session, { status: "expired", url: null });
      return structuredClone(session);
    },
    forgetIdempotencyKeys() {
      idempotent.clear();
    },
    failNext(path, times = 1, error = {}) {
      failures.set(path, times);
      failureShapes.set(path, { status: error.status ?? 400, message: error.message ?? "fake stripe: told to fail" });
    },
    event(type, session) {
      return { id: nextId("evt"), object: "event", type, data: { object: session } };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
