import { safeEqual } from "../lib/crypto.ts";
import { Conflict } from "../lib/errors.ts";
import { loadBookingContext } from "./checkout.ts";
import { type CompletionDeps, completeCheckout, latestCheckoutFor } from "./payment-completion.ts";
import { ticketFor } from "./ticket.ts";

export type ConfirmationDeps = CompletionDeps;

/**
 * `send-confirmation` (docs/api.md): only for a booking whose payment the provider reports paid. Calling it
 * again returns the same code and QR and sends nothing more. The route lets only the browser that
 * verified the booking's phone this far (docs/decisions/010); the payment intent id must match too.
 */
export async function sendConfirmation(
  deps: ConfirmationDeps,
  input: { userId: number; eventId: number; paymentIntentId: string },
) {
  const { db } = deps;
  let ctx = loadBookingContext(db, input.userId, input.eventId);
  if (ctx.booking.status !== "paid") {
    if (ctx.booking.status === "refunded") throw Conflict("this booking's payment was refunded", "refunded");
    const session = latestCheckoutFor(db, ctx.booking.id, deps.payments.name);
    if (!session) throw Conflict("payment not completed", "payment_not_completed");
    const info = await deps.payments.retrieveCheckout(session.id);
    if (!info.paid || !info.paymentIntentId) throw Conflict("payment not completed", "payment_not_completed");
    const { outcome } = await completeCheckout(deps, {
      sessionId: info.id,
      paymentIntentId: info.paymentIntentId,
      bookingId: ctx.booking.id,
    });
    if (outcome === "refunded") throw Conflict("no seat was left, so the payment was refunded", "refunded");
    ctx = loadBookingContext(db, input.userId, input.eventId);
  }
  if (ctx.booking.status !== "paid" || !ctx.booking.paymentIntentId)
    throw Conflict("payment not completed", "payment_not_completed");
  if (!safeEqual(input.paymentIntentId, ctx.booking.paymentIntentId)) {
    throw Conflict("that payment does not belong to this booking", "payment_mismatch");
  }
  return ticketFor(deps, ctx);
}
