import type { Db } from "../../../db/client.ts";
import type { Env } from "../../env.ts";
import type { PaymentsProvider } from "./types.ts";

/** Stripe Checkout when STRIPE_SECRET_KEY is set, otherwise the local checkout. */
export function createPaymentsProvider(_env: Env, _db: Db, _now: () => number): PaymentsProvider {
  const unavailable = async () => {
    throw new Error("payments provider not implemented yet");
  };
  return { name: "local", createCheckout: unavailable, retrieveCheckout: unavailable, refund: unavailable };
}
