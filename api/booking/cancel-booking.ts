import { and, desc, eq, inArray } from "drizzle-orm";
import type { z } from "zod";
import { creditUntilOf, policyOf, refundDue } from "../../common/cancellation.ts";
import { audFromCents } from "../../common/money.ts";
import { bookings, events, type RefundClaim, refunds, users } from "../../db/schema.ts";
import { Conflict, Forbidden } from "../lib/errors.ts";
import { deliverPending, enqueueEmail, enqueueSms } from "../messaging/outbox.ts";
import { cancelledForCreditText, creditIssuedText } from "../messaging/templates/credit.ts";
import { senderOf } from "../messaging/templates/email-frame.ts";
import { cancelledNoRefundText, refundEmail } from "../messaging/templates/refund.ts";
import { recordActivity } from "../organiser/activity.ts";
import { claimOf, claimRefund, finishClaim, type RefundDeps } from "../organiser/refunds.ts";
import { sendWalletUpdatesSoon, walletPassesChanged } from "../wallet/pass-changes.ts";
import { bookingStatusAfter } from "./booking-status.ts";
import { addCredit, cancelCreditKey, cancelCreditOf, creditBalance, creditKeyOf } from "./credit.ts";
import type { cancelBookingReply } from "./me-schemas.ts";
import { offerFreedSeatsNow } from "./waitlist-offers.ts";

/**
 * A guest cancelling their own booking from /me or the ticket (docs/decisions/028-cancellation-money-
 * path.md). What comes back is the event's policy at this moment (common/cancellation.ts). The money
 * goes through the organiser's refund claim (api/organiser/refunds.ts): one claim per payment, so a
 * cancel racing another cancel, or the organiser's Refund, refunds once, and whichever claimed first
 * decides the amount. Nothing to give back (after the cut-off at 0%) still ends the booking and frees
 * the seat.
 *
 * `as: "credit"` (issue 52, docs/decisions/057-credit.md) gives the full price paid as credit on the
 * number instead, while the event's Credit until allows, even past the refund's cut-off: no card
 * refund, the booking cancelled and its seat freed as above. Its entry's key is the booking's, so two
 * cancels at once issue it once. A booking paid partly by credit gives that part back as credit under
 * the policy, and refunds only the card's part.
 */

export type CancelResult = z.output<typeof cancelBookingReply>;
export type CancelAs = "refund" | "credit";

/** The activity log's actor for a guest's own change: never their number or name. */
export const GUEST_ACTOR = "guest";

export const cancelTextKey = (bookingId: number) => `cancel:${bookingId}`;

type Decision = { done: CancelResult; freedEventId?: number } | { claim: RefundClaim; creditCents?: number };

// Why one function: its one transaction decides everything (below); the work after it is short.
export async function cancelBooking(
  deps: RefundDeps,
  phone: string,
  target: { eventId: number; userId: number; as?: CancelAs },
): Promise<CancelResult> {
  const now = deps.now();
  // Why one piece: the booking's reading, the policy, the credit and the claim decide together, in one
  // IMMEDIATE transaction, so two cancels (or a cancel and the organiser's Refund) settle once.
  const decision = deps.db.transaction(
    (tx): Decision => {
      const booking = tx
        .select()
        .from(bookings)
        .where(
          and(
            eq(bookings.eventId, target.eventId),
            eq(bookings.userId, target.userId),
            inArray(bookings.status, ["paid", "refunded", "cancelled"]),
          ),
        )
        .orderBy(desc(bookings.id))
        .get();
      // No booking and another number's booking answer alike, so the call tells nobody whether a
      // given person booked a given night.
      if (!booking || booking.phone !== phone) throw Forbidden("this is not a booking of your number");

      // A cancel already made (or a refund the organiser made) answers the same again.
      const creditBefore = cancelCreditOf(tx, booking.id);
      if (booking.status === "cancelled")
        return { done: { refundCents: 0, creditCents: creditBefore, status: "cancelled" } };
      const paymentIntentId = booking.paymentIntentId;
      if (paymentIntentId) {
        const recorded = tx.select().from(refunds).where(eq(refunds.paymentIntentId, paymentIntentId)).get();
        if (recorded)
          return { done: { refundCents: recorded.amountCents, creditCents: creditBefore, status: "refunded" } };
        // A refund claimed and not finished yet (the organiser's, or a cancel under way): finish that one.
        const claimed = claimOf(tx, paymentIntentId);
        if (claimed) return { claim: claimed, creditCents: creditBefore };
      }
      if (booking.status !== "paid") throw Conflict(`the booking is ${booking.status}, not paid`, "not_paid");

      const event = tx.select().from(events).where(eq(events.id, booking.eventId)).get();
      if (!event) throw Forbidden("this is not a booking of your number");
      // A cancelled event refunds everyone in full already (cancel-event).
      if (event.status === "cancelled") throw Conflict("the event was cancelled", "event_cancelled");
      // The card paid amountCents less what credit paid (decision 057): the policy applies to each part,
      // the card's back to the card, the credit's back as credit.
      const cardCents = booking.amountCents - booking.creditCents;
      const due = event.status === "upcoming" ? refundDue(policyOf(event), cardCents, event.startsAt, now) : null;
      if (due === null)
        throw Conflict("the event has started, so the booking can no longer be cancelled", "too_late_to_cancel");
      const asCredit = target.as === "credit";
      if (asCredit && now > creditUntilOf(event))
        throw Conflict(
          "Credit for this night was offered until its Credit until time, which has passed; you can still cancel for a refund under the policy.",
          "credit_closed",
        );
      const creditCents = asCredit
        ? booking.amountCents
        : (refundDue(policyOf(event), booking.creditCents, event.startsAt, now) ?? 0);
      const refundCents = asCredit ? 0 : due;
      const guestKey = creditKeyOf(deps.env, booking.phone);
      if (creditCents > 0) {
        addCredit(
          tx,
          {
            guestKey,
            amountCents: creditCents,
            kind: "cancel",
            reason: `Cancelled ${event.name}`,
            uniqueKey: cancelCreditKey(booking.id),
            bookingId: booking.id,
            eventId: event.id,
          },
          now,
        );
      }

      recordActivity(
        tx,
        {
          actor: GUEST_ACTOR,
          actorKind: "guest",
          action: "booking cancelled",
          eventId: event.id,
          userId: booking.userId,
          detail:
            [
              ...(refundCents > 0 ? [`${audFromCents(refundCents)} refunded`] : []),
              ...(creditCents > 0 ? [`${audFromCents(creditCents)} as credit`] : []),
            ].join(", ") || "no refund due",
        },
        now,
      );
      if (refundCents > 0 && paymentIntentId) {
        // The same key as the organiser's Refund of this booking: the provider sees one refund.
        const claim = claimRefund(
          tx,
          {
            bookingId: booking.id,
            paymentIntentId,
            idempotencyKey: `refund-${booking.id}`,
            amountCents: refundCents,
            reason: "guest_cancel",
          },
          now,
        );
        if (creditCents > 0) {
          enqueueSms(tx, {
            dedupeKey: `${cancelTextKey(booking.id)}:credit`,
            to: booking.phone,
            body: creditIssuedText({ amountCents: creditCents, balanceCents: creditBalance(tx, guestKey) }),
          });
        }
        return { claim, creditCents };
      }
      tx.update(bookings)
        .set({ status: bookingStatusAfter(booking.status, "cancelled"), seatReleased: true })
        .where(eq(bookings.id, booking.id))
        .run();
      walletPassesChanged(tx, deps, [booking.id], now);
      const balanceCents = creditBalance(tx, guestKey);
      enqueueSms(tx, {
        dedupeKey: cancelTextKey(booking.id),
        to: booking.phone,
        body:
          creditCents > 0
            ? cancelledForCreditText({ eventName: event.name, amountCents: creditCents, balanceCents })
            : cancelledNoRefundText({ eventName: event.name }),
      });
      const user = tx.select().from(users).where(eq(users.id, booking.userId)).get();
      if (user?.email && creditCents === 0) {
        const content = refundEmail({
          sender: senderOf(deps.env),
          event,
          name: user.name,
          amountCents: 0,
          reason: "guest_cancel",
        });
        enqueueEmail(
          tx,
          { dedupeKey: `${cancelTextKey(booking.id)}:email`, to: user.email, bookingId: booking.id, ...content },
          deps.env,
        );
      }
      return { done: { refundCents: 0, creditCents, status: "cancelled" }, freedEventId: event.id };
    },
    { behavior: "immediate" },
  );

  if ("claim" in decision) {
    // finishClaim ends the booking, frees the seat for the waitlist and texts the guest.
    await finishClaim(deps, decision.claim);
    if (decision.creditCents) deliverSoon(deps);
    return { refundCents: decision.claim.amountCents, creditCents: decision.creditCents ?? 0, status: "refunded" };
  }
  if (decision.freedEventId !== undefined) {
    offerFreedSeatsNow(deps, decision.freedEventId);
    sendWalletUpdatesSoon(deps);
    deliverSoon(deps);
  }
  return decision.done;
}

const deliverSoon = (deps: RefundDeps) =>
  deliverPending(deps, { dedupePrefix: "cancel:" }).catch((error: unknown) =>
    deps.log("warn", "cancel text not sent yet; the outbox retries", { error: String(error).slice(0, 200) }),
  );
