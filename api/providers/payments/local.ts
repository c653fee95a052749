import { createHash, randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { type CheckoutSession, checkoutSessions } from "../../../db/schema.ts";
import type { Env } from "../../env.ts";
import { NotFound } from "../../lib/errors.ts";
import type { CheckoutInfo, PaymentsProvider } from "./types.ts";

const digest = (value: string) => createHash("sha256").update(value).digest("hex").slice(0, 24);

/**
 * The built-in checkout used when Stripe is not configured: sessions live in `checkout_sessions`
 * and are paid on the "Test checkout" page (routes/payments-dev.ts). A session id is the page's
 * address and, with the buyer's details in its success URL, worth keeping secret, so ids are 96
 * random bits: nothing about the booking predicts them (decision 013). A repeated create (same
 * booking, same hold window, which is what the idempotency key names) still answers with the same
 * session, as Stripe does.
 */
export function createLocalPayments(env: Pick<Env, "PUBLIC_BASE_URL">, db: Db, now: () => number): PaymentsProvider {
  return {
    name: "local",
    async createCheckout(input) {
      const bookingId = Number(input.metadata.bookingId);
      if (!Number.isInteger(bookingId) || bookingId <= 0) throw new Error("local checkout needs metadata.bookingId");
      const row = db.transaction(
        (tx) => {
          const sameRequest = and(
            eq(checkoutSessions.provider, "local"),
            eq(checkoutSessions.bookingId, bookingId),
            eq(checkoutSessions.expiresAt, input.expiresAt),
            eq(checkoutSessions.amountCents, input.amountCents),
          );
          const existing = tx.select().from(checkoutSessions).where(sameRequest).get();
          if (existing) return existing;
          const id = `cs_local_${randomBytes(12).toString("hex")}`;
          return tx
            .insert(checkoutSessions)
            .values({
              id,
              bookingId,
              provider: "local",
              amountCents: input.amountCents,
              currency: input.currency,
              // PUBLIC_BASE_URL is read per call: the test harness only learns its port after start-up.
              url: `${env.PUBLIC_BASE_URL}/api/dev/checkout/${id}`,
              expiresAt: input.expiresAt,
            })
            .returning()
            .get();
        },
        { behavior: "immediate" },
      );
      return toInfo(row, now(), input.metadata);
    },
    async retrieveCheckout(sessionId) {
      const row = db.select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId)).get();
      if (row?.provider !== "local") throw NotFound("no such checkout session");
      return toInfo(row, now());
    },
    // No money moves here and no refund is stored: a local payment's one refund is named after the
    // payment, so every key gives that refund (it never answers AlreadyRefunded) and `findRefund`
    // names it.
    async refund(paymentIntentId) {
      return { refundId: localRefundId(paymentIntentId) };
    },
    async findRefund(paymentIntentId) {
      return { refundId: localRefundId(paymentIntentId) };
    },
  };
}

function localRefundId(paymentIntentId: string) {
  if (!paymentIntentId.startsWith("pi_local_")) throw new Error(`No such payment_intent: '${paymentIntentId}'`);
  return `re_local_${digest(paymentIntentId)}`;
}

function toInfo(row: CheckoutSession, now: number, metadata: Record<string, string> = {}): CheckoutInfo {
  const status = row.status === "paid" ? "complete" : row.status === "open" && row.expiresAt > now ? "open" : "expired";
  return {
    id: row.id,
    url: row.url,
    status,
    paid: row.status === "paid",
    paymentIntentId: row.paymentIntentId,
    amountCents: row.amountCents,
    metadata: { bookingId: String(row.bookingId), ...metadata },
  };
}
