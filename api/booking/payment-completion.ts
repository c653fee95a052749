import { randomBytes } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client.ts";
import { processedWebhookEvents } from "../../db/payments-schema.ts";
import { bookings, checkoutSessions, type RefundClaim } from "../../db/schema.ts";
import type { Env } from "../env.ts";
import { guestKeyOf } from "../lib/guest-key.ts";
import type { Logger } from "../lib/log.ts";
import { claimRefund, finishClaim, isRefundRecorded } from "../organiser/refunds.ts";
import type { PaymentEvent, PaymentsProvider } from "../providers/payments/types.ts";
import type { SmsProvider } from "../providers/sms/types.ts";
import { queueBookingEmail } from "./booking-email.ts";
import { bookingStatusAfter } from "./booking-status.ts";
import { loadBookingContextById, releaseCheckout } from "./checkout.ts";
import { returnCheckoutCredit } from "./credit.ts";
import { issueSaleDocument } from "./documents.ts";
import { isPromoOverrun } from "./promo-codes.ts";
import { isBalanced, paidBookingOf, seatsLeft, seatsLeftFor, seatUse } from "./seats.ts";
import { issueTicket, sendQueuedConfirmation } from "./ticket.ts";
import { liveOfferFor, offerBooked } from "./waitlist-offers.ts";

export type CompletionDeps = {
  db: Db;
  env: Env;
  payments: PaymentsProvider;
  sms: SmsProvider;
  log: Logger;
  now: () => number;
};

/**
 * - `paid`: the booking now holds its seat (or already did with this payment).
 * - `refunded`: the money arrived when no seat was left (or the seat was already paid by another
 *   payment), so it was given back.
 * - `not_payable`: only with `requireOpen`: the checkout was no longer open, nothing was charged.
 * - `ignored`: the payment does not belong to a booking of this app.
 */
export type CompletionOutcome = "paid" | "refunded" | "not_payable" | "ignored";

type Decision =
  | { outcome: "paid" | "not_payable" | "ignored"; bookingId?: number }
  | { outcome: "refunded"; bookingId: number; claim?: RefundClaim };

export function latestCheckoutFor(db: DbOrTx, bookingId: number, provider: PaymentsProvider["name"]) {
  return db
    .select()
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.bookingId, bookingId), eq(checkoutSessions.provider, provider)))
    .orderBy(desc(checkoutSessions.createdAt), desc(checkoutSessions.id))
    .get();
}

/**
 * The one place a payment becomes a seat, used by the Stripe webhook, the local checkout's Pay and
 * send-confirmation alike. Everything is decided in one immediate transaction that re-reads the
 * booking; a payment that arrives after its hold was released takes a free seat if there is one and
 * is otherwise refunded, so nobody pays for a seat they do not get. The refund is claimed in that
 * transaction and asked of the provider after it (services/refunds.ts), so a crash in between leaves
 * a claim that the provider's retry of the webhook, or the background job, finishes.
 */
// Why one function: every outcome of a payment is decided in its one transaction, so none is missed.
export async function completeCheckout(
  deps: CompletionDeps,
  input: { sessionId: string; paymentIntentId: string; bookingId?: number; requireOpen?: boolean },
): Promise<{ outcome: CompletionOutcome; bookingId?: number }> {
  const { db, env } = deps;
  const now = deps.now();
  const pi = input.paymentIntentId;
  const decision: Decision = db.transaction(
    (tx) => {
      // Nothing to refund to a card when credit paid it all: the credit goes back instead (below).
      const noSeatClaim = (bookingId: number, paymentIntentId: string, idempotencyKey: string, amountCents: number) =>
        amountCents > 0
          ? claimRefund(tx, { bookingId, paymentIntentId, idempotencyKey, amountCents, reason: "no_seat" }, now)
          : undefined;
      const session = tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, input.sessionId)).get();
      if (input.requireOpen && (session?.status !== "open" || session.expiresAt <= now)) {
        return { outcome: "not_payable" };
      }
      const bookingId = session?.bookingId ?? input.bookingId;
      const ctx = bookingId ? loadBookingContextById(tx, bookingId) : undefined;
      if (!ctx) return { outcome: "ignored" };
      if (session && session.status !== "paid") {
        tx.update(checkoutSessions)
          .set({ status: "paid", paymentIntentId: pi })
          .where(eq(checkoutSessions.id, session.id))
          .run();
      }
      const { booking, event } = ctx;
      // What the card paid; credit spent on this checkout paid the rest (docs/decisions/057-credit.md).
      const amountCents = session?.amountCents ?? booking.amountCents - booking.creditCents;
      const creditCents = session?.creditCents ?? booking.creditCents;
      // The payment buys nothing (no seat for it): the booking records it as refunded and its refund is claimed.
      const returnPayment = (): Decision => {
        if (session) returnCheckoutCredit(tx, session, now);
        tx.update(bookings)
          .set({
            status: bookingStatusAfter(booking.status, "payment_returned"),
            seatReleased: true,
            paymentIntentId: pi,
            amountCents,
          })
          .where(eq(bookings.id, booking.id))
          .run();
        return {
          outcome: "refunded",
          bookingId: booking.id,
          claim: noSeatClaim(booking.id, pi, `refund-${booking.id}`, amountCents),
        };
      };

      // Given to a friend: the payment moved with the seat to the friend's booking (api/booking/transfer.ts).
      if (booking.status === "transferred") return { outcome: "paid", bookingId: booking.id };
      if (booking.paymentIntentId === pi) {
        if (booking.status === "paid") return { outcome: "paid", bookingId: booking.id };
        // Refunded earlier for want of a seat; if the refund was not recorded then, finish it.
        return {
          outcome: "refunded",
          bookingId: booking.id,
          claim: isRefundRecorded(tx, pi)
            ? undefined
            : noSeatClaim(booking.id, pi, `refund-${booking.id}`, amountCents),
        };
      }
      if (booking.status === "paid" || booking.status === "refunded") {
        // A second payment for a booking that already has one: it buys nothing, so it goes back.
        if (session) returnCheckoutCredit(tx, session, now);
        return {
          outcome: "refunded",
          bookingId: booking.id,
          claim: isRefundRecorded(tx, pi) ? undefined : noSeatClaim(booking.id, pi, `refund-${pi}`, amountCents),
        };
      }

      // One paid seat per phone per event: an older checkout paid after the same phone booked again
      // (and paid) buys nothing, so it goes back.
      if (paidBookingOf(tx, event.id, booking.phone, { exceptBookingId: booking.id })) {
        return returnPayment();
      }

      // Sales close at the start: a checkout left open past it is paid back, seat or no seat.
      const salesOpen = event.startsAt > now;
      const liveHold = salesOpen && booking.status === "held" && booking.holdExpiresAt > now;
      // A late payment takes a seat of its attendee's gender only (decision 015), and never one a
      // waitlist offer keeps for someone else; an offer kept for this very phone is its own seat.
      const found = liveHold ? undefined : liveOfferFor(tx, event.id, booking.phone, now);
      const offer = found && (!isBalanced(event) || found.gender === ctx.user.gender) ? found : undefined;
      const use = seatUse(tx, event.id, now, { exceptPhone: offer ? booking.phone : undefined });
      const seatFree =
        salesOpen && event.status === "upcoming" && seatsLeftFor(seatsLeft(event, use), ctx.user.gender) > 0;
      if (liveHold || seatFree) {
        // A code's maxUses is checked again here: a hold that lapsed gave its use back, and another
        // buyer may have taken it. The buyer is charged what the payment page showed (they did nothing
        // wrong) and the booking is marked so the organiser sees the overrun (decision 023).
        const promoOverrun = isPromoOverrun(tx, booking, now);
        if (promoOverrun) deps.log("info", "promo code used past its limit", { bookingId: booking.id });
        tx.update(bookings)
          .set({
            status: bookingStatusAfter(booking.status, "paid"),
            paymentIntentId: pi,
            paidAt: now,
            amountCents: amountCents + creditCents,
            creditCents,
            promoOverrun,
            guestKey: guestKeyOf(env, booking.phone),
          })
          .where(eq(bookings.id, booking.id))
          .run();
        if (offer) offerBooked(tx, offer, booking.id);
        const paid = {
          ...ctx,
          booking: {
            ...booking,
            status: "paid" as const,
            paymentIntentId: pi,
            amountCents: amountCents + creditCents,
            creditCents,
          },
        };
        const uniqueCode = issueTicket(tx, env, paid, now);
        // Its receipt or tax invoice, numbered in this transaction (docs/decisions/032-invoices.md),
        // and the booking email that carries both (docs/decisions/033-emails.md).
        const document = issueSaleDocument(tx, env, paid, { paymentIntentId: pi, amountCents }, now);
        queueBookingEmail(tx, env, paid, { uniqueCode, document }, now);
        return { outcome: "paid", bookingId: booking.id };
      }
      return returnPayment();
    },
    { behavior: "immediate" },
  );

  if (decision.outcome === "paid" && decision.bookingId) await sendQueuedConfirmation(deps, decision.bookingId);
  if (decision.outcome === "refunded" && decision.claim) {
    await finishClaim(deps, decision.claim);
    deps.log("info", "payment refunded: no seat left", { bookingId: decision.bookingId });
  }
  return { outcome: decision.outcome, bookingId: decision.bookingId };
}

/**
 * A verified webhook delivery. Its id is recorded only after it was handled, so a delivery that
 * failed half-way (the refund call, say) is handled again when the provider retries it; a replay of
 * one that succeeded changes nothing.
 */
/** What a webhook delivery did (docs/api.md, `POST /api/stripe/webhook`). */
export type WebhookOutcome = "paid" | "refunded" | "released" | "ignored";
export type WebhookResult = { received: true; duplicate: true } | { received: true; outcome: WebhookOutcome };

export async function handlePaymentEvent(deps: CompletionDeps, event: PaymentEvent): Promise<WebhookResult> {
  const { db } = deps;
  const seen = db
    .select({ id: processedWebhookEvents.id })
    .from(processedWebhookEvents)
    .where(eq(processedWebhookEvents.id, event.id))
    .get();
  if (seen) return { received: true, duplicate: true };
  const checkout = event.checkout;
  let outcome: WebhookOutcome = "ignored";
  if (
    checkout &&
    (event.type === "checkout.session.completed" || event.type === "checkout.session.async_payment_succeeded")
  ) {
    if (checkout.paid && checkout.paymentIntentId) {
      const bookingId = Number(checkout.metadata.bookingId);
      const done = await completeCheckout(deps, {
        sessionId: checkout.id,
        paymentIntentId: checkout.paymentIntentId,
        bookingId: Number.isInteger(bookingId) && bookingId > 0 ? bookingId : undefined,
      });
      // `not_payable` comes only with `requireOpen` (the local Pay), never from a webhook.
      outcome = done.outcome === "not_payable" ? "ignored" : done.outcome;
    }
  } else if (checkout && event.type === "checkout.session.expired") {
    outcome = releaseCheckout(deps, checkout.id, "expired", deps.now()) ? "released" : "ignored";
  }
  db.insert(processedWebhookEvents)
    .values({ id: event.id, type: event.type, processedAt: deps.now() })
    .onConflictDoNothing()
    .run();
  return { received: true, outcome };
}

/** The local checkout's "Pay": a fresh `pi_local_…` payment, through the same completion as Stripe's. */
export function payLocalCheckout(deps: CompletionDeps, sessionId: string) {
  return completeCheckout(deps, {
    sessionId,
    paymentIntentId: `pi_local_${randomBytes(12).toString("hex")}`,
    requireOpen: true,
  });
}
