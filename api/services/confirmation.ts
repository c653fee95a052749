import QRCode from "qrcode";
import { safeEqual } from "../lib/crypto.ts";
import { Conflict } from "../lib/errors.ts";
import { loadBookingContext } from "./checkout.ts";
import {
  type CompletionDeps,
  completeCheckout,
  issueTicket,
  latestCheckoutFor,
  sendQueuedConfirmation,
  ticketLink,
} from "./payment-completion.ts";

export type ConfirmationDeps = CompletionDeps;

/**
 * SPEC.md's send-confirmation: only for a booking whose payment the provider reports paid. Calling it
 * again returns the same code and QR and sends nothing more. The payment intent id acts as proof of
 * purchase: without it anyone who guessed a user id could read that attendee's door code.
 */
export async function sendConfirmation(
  deps: ConfirmationDeps,
  input: { userId: number; eventId: number; paymentIntentId: string },
) {
  const { db, env } = deps;
  let ctx = loadBookingContext(db, input.userId, input.eventId);
  if (ctx.booking.status !== "paid") {
    if (ctx.booking.status === "refunded") throw Conflict("this booking's payment was refunded");
    const session = latestCheckoutFor(db, ctx.booking.id, deps.payments.name);
    if (!session) throw Conflict("payment not completed");
    const info = await deps.payments.retrieveCheckout(session.id);
    if (!info.paid || !info.paymentIntentId) throw Conflict("payment not completed");
    const { outcome } = await completeCheckout(deps, {
      sessionId: info.id,
      paymentIntentId: info.paymentIntentId,
      bookingId: ctx.booking.id,
    });
    if (outcome === "refunded") throw Conflict("no seat was left, so the payment was refunded");
    ctx = loadBookingContext(db, input.userId, input.eventId);
  }
  if (ctx.booking.status !== "paid" || !ctx.booking.paymentIntentId) throw Conflict("payment not completed");
  if (!safeEqual(input.paymentIntentId, ctx.booking.paymentIntentId)) {
    throw Conflict("that payment does not belong to this booking");
  }
  const now = deps.now();
  const uniqueCode = db.transaction(
    (tx) => issueTicket(tx, env, loadBookingContext(tx, input.userId, input.eventId), now),
    { behavior: "immediate" },
  );
  await sendQueuedConfirmation(deps, ctx.booking.id);
  const qrCodeImage = await QRCode.toDataURL(ticketLink(env, ctx.event.id, ctx.user.id), {
    errorCorrectionLevel: "M",
    margin: 2,
    width: 320,
  });
  return {
    success: true,
    qrCodeImage,
    uniqueCode,
    eventName: ctx.event.name,
    eventDate: new Date(ctx.event.startsAt).toISOString(),
    eventLocation: ctx.event.address,
    time_zone: ctx.event.timeZone,
    event_duration: ctx.event.durationHours,
    name: ctx.user.name,
    phone: ctx.user.phone,
  };
}
