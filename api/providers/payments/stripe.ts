import type Stripe from "stripe";
import { BadRequest, NotFound, ProviderFailed } from "../../lib/errors.ts";
import { onFirstUse } from "../../lib/on-first-use.ts";
import { AlreadyRefunded, type CheckoutInfo, type PaymentEvent, type PaymentsProvider } from "./types.ts";

/** The only words a client hears when Stripe fails. */
export const PAYMENT_PROVIDER_UNAVAILABLE = "the payment provider is unavailable";

export type StripeOptions = {
  secretKey: string;
  webhookSecret: string;
  /** Tests point the real SDK at a fake Stripe on loopback (STRIPE_API_BASE); unset in production. */
  apiBase?: string;
};

/** Stripe Checkout (card, AUD) through the official SDK. */
export function createStripePayments(options: StripeOptions): PaymentsProvider {
  const base = options.apiBase ? new URL(options.apiBase) : undefined;
  const sdk = onFirstUse(async () => {
    const { default: StripeSdk } = await import("stripe");
    const client = new StripeSdk(options.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      telemetry: false,
      ...(base && {
        host: base.hostname,
        port: base.port || (base.protocol === "https:" ? 443 : 80),
        protocol: base.protocol === "https:" ? "https" : "http",
      }),
    });
    return { client, errors: StripeSdk.errors };
  });

  return {
    name: "stripe",
    async createCheckout(input) {
      const { client: stripe } = await sdk();
      const session = await call(() =>
        stripe.checkout.sessions.create(
          {
            mode: "payment",
            // The SDK's API version (2026-10-28) removed `payment_method_types` from Checkout; this
            // is its replacement and limits the session to cards.
            allowed_payment_method_types: ["card"],
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: input.currency,
                  unit_amount: input.amountCents,
                  product_data: { name: input.productName },
                },
              },
            ],
            customer_email: input.customerEmail,
            success_url: input.successUrl,
            cancel_url: input.cancelUrl,
            expires_at: Math.floor(input.expiresAt / 1000),
            metadata: input.metadata,
            // The payment intent carries the booking too, so a refund in the dashboard is traceable.
            payment_intent_data: { metadata: input.metadata },
          },
          { idempotencyKey: input.idempotencyKey },
        ),
      );
      return toInfo(session);
    },
    async retrieveCheckout(sessionId) {
      const { client: stripe } = await sdk();
      return toInfo(await call(() => stripe.checkout.sessions.retrieve(sessionId)));
    },
    async refund(paymentIntentId, idempotencyKey, amountCents) {
      const { client: stripe, errors } = await sdk();
      const refund = await call(async () => {
        try {
          return await stripe.refunds.create(
            {
              payment_intent: paymentIntentId,
              reason: "requested_by_customer",
              ...(amountCents === undefined ? {} : { amount: amountCents }),
            },
            { idempotencyKey },
          );
        } catch (error) {
          // A key Stripe has forgotten (after 24 hours) makes a repeated refund a new request, which
          // Stripe refuses for a payment it refunded already; the caller looks that refund up.
          if (error instanceof errors.StripeInvalidRequestError && error.code === "charge_already_refunded") {
            throw new AlreadyRefunded(paymentIntentId, { cause: error });
          }
          throw error;
        }
      });
      return { refundId: refund.id };
    },
    async findRefund(paymentIntentId) {
      // Newest first; one page is plenty, as the app only ever makes one full refund of a payment.
      const { client: stripe } = await sdk();
      const list = await call(() => stripe.refunds.list({ payment_intent: paymentIntentId, limit: 10 }));
      // A failed or cancelled refund gave nothing back.
      const refund = list.data.find((r) => r.status !== "failed" && r.status !== "canceled");
      return refund ? { refundId: refund.id } : null;
    },
    async verifyWebhook(payload, signature) {
      const { client: stripe } = await sdk();
      let event: Stripe.Event;
      try {
        event = await stripe.webhooks.constructEventAsync(payload, signature ?? "", options.webhookSecret);
      } catch {
        throw BadRequest("invalid webhook signature");
      }
      // A correctly signed body is still only JSON: check the shape before trusting it.
      const raw = event as unknown as { id?: unknown; type?: unknown; data?: { object?: unknown } } | null;
      if (typeof raw?.id !== "string" || typeof raw.type !== "string") throw BadRequest("malformed webhook event");
      const result: PaymentEvent = { id: raw.id, type: raw.type };
      if (raw.type.startsWith("checkout.session.")) {
        const session = raw.data?.object as { id?: unknown; metadata?: unknown } | null | undefined;
        if (!session || typeof session !== "object" || typeof session.id !== "string") {
          throw BadRequest("malformed checkout session in webhook event");
        }
        if (session.metadata != null && typeof session.metadata !== "object") {
          throw BadRequest("malformed checkout session in webhook event");
        }
        result.checkout = toInfo(session as Stripe.Checkout.Session);
      }
      return result;
    },
  };
}

function toInfo(session: Stripe.Checkout.Session): CheckoutInfo {
  const intent = session.payment_intent;
  return {
    id: session.id,
    url: session.url ?? "",
    status: session.status === "complete" ? "complete" : session.status === "expired" ? "expired" : "open",
    paid: session.payment_status === "paid",
    paymentIntentId: typeof intent === "string" ? intent : (intent?.id ?? null),
    amountCents: session.amount_total ?? 0,
    metadata: { ...(session.metadata ?? {}) },
  };
}

/**
 * Stripe's "no such object" is the caller's 404; anything else is the provider failing (502). Stripe's
 * own message never reaches the client (it can name the account, ids or request details): it rides
 * along as the error's cause, and app.ts's onError logs it.
 */
async function call<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (error instanceof AlreadyRefunded) throw error;
    const status = (error as { statusCode?: number }).statusCode;
    if (status === 404) throw NotFound("no such checkout session");
    const failure = ProviderFailed(PAYMENT_PROVIDER_UNAVAILABLE);
    failure.cause = error;
    throw failure;
  }
}
