import type { Db } from "../../../db/client.ts";
import type { Env } from "../../env.ts";
import { createLocalPayments } from "./local.ts";
import { createStripePayments } from "./stripe.ts";
import type { PaymentsProvider } from "./types.ts";

/** Stripe Checkout when STRIPE_SECRET_KEY is set, otherwise the local checkout. */
export function createPaymentsProvider(env: Env, db: Db, now: () => number): PaymentsProvider {
  if (env.STRIPE_SECRET_KEY) {
    // env.ts refuses to start with a secret key but without the webhook secret.
    return createStripePayments({
      secretKey: env.STRIPE_SECRET_KEY,
      webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? "",
      apiBase: env.STRIPE_API_BASE,
    });
  }
  return createLocalPayments(env, db, now);
}
