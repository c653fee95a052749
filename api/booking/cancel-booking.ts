import { and, desc, eq, inArray } from "drizzle-orm";
import { policyOf, refundDue } from "../../common/cancellation.ts";
import { audFromCents } from "../../common/money.ts";
import { bookings, events, type RefundClaim, refunds, users } from "../../db/schema.ts";
import { Conflict, Forbidden } from "../lib/errors.ts";
import { deliverPending, enqueueEmail, enqueueSms } from "../messaging/outbox.ts";
import { senderOf } from "../messaging/templates/email-frame.ts";
import { cancelledNoRefundText, refundEmail } from "../messaging/templates/refund.ts";
import { recordActivity } from "../organiser/activity.ts";
import { claimOf, claimRefund, finishClaim, type RefundDeps } from "../organiser/refunds.ts";
import { sendWalletUpdatesSoon, walletPassesChanged } from "../wallet/pass-changes.ts";
import { bookingStatusAfter } from "./booking-status.ts";
import { offerFreedSeatsNow } from "./waitlist-offers.ts";

/**
 * A guest cancelling their own booking from /me or the ticket (docs/decisions/028-cancellation-money-
 * path.md). What comes back is the event's policy at this moment (common/cancellation.ts). The money
 * goes through the organiser's refund claim (api/organiser/refunds.ts): one claim per payment, so a
 * cancel racing another cancel, or the organiser's Refund, refunds once, and whichever claimed first
 * decides the amount. Nothing to give back (after the cut-off at 0%) still ends the booking and frees
 * the seat.
 */

export type CancelStatus = "refunded" | "cancelled";
export type CancelResult = { refundCents: number; status: CancelStatus };

/** The activity log's actor for a guest's own change: never their number or name. */
export const GUEST_ACTOR = "guest";

export const cancelTextKey = (bookingId: number) => `cancel:${bookingId}`;

type Decision = { done: CancelResult; freedEventId?: number } | { claim: RefundClaim };

export async function cancelBooking(
  deps: RefundDeps,
  phone: string,
  target: { eventId: number; userId: number },
): Promise<CancelResult> {
  const now = deps.now();
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
      if (booking.status === "cancelled") return { done: { refundCents: 0, status: "cancelled" } };
      const paymentIntentId = booking.paymentIntentId;
      if (paymentIntentId) {
        const recorded = tx.select().from(refunds).where(eq(refunds.paymentIntentId, paymentIntentId)).get();
        if (recorded) return { done: { refundCents: recorded.amountCents, status: "refunded" } };
        // A refund claimed and not finished yet (the organiser's, or a cancel under way): finish that one.
        const claimed = claimOf(tx, paymentIntentId);
        if (claimed) return { claim: claimed };
      }
      if (booking.status !== "paid") throw Conflict(`the booking is ${booking.status}, not paid`, "not_paid");

      const event = tx.select().from(events).where(eq(events.id, booking.eventId)).get();
      if (!event) throw Forbidden("this is not a booking of your number");
      // A cancelled event refunds everyone in full already (cancel-event).
      if (event.status === "cancelled") throw Conflict("the event was cancelled", "event_cancelled");
      const due =
        event.status === "upcoming" ? refundDue(policyOf(event), booking.amountCents, event.startsAt, now) : null;
      if (due === null)
        throw Conflict("the event has started, so the booking can no longer be cancelled", "too_late_to_cancel");

      recordActivity(
        tx,
        {
          actor: GUEST_ACTOR,
          actorKind: "guest",
          action: "booking cancelled",
          eventId: event.id,
          userId: booking.userId,
          detail: due > 0 ? `${audFromCents(due)} refunded` : "no refund due",
        },
        now,
      );
      if (due > 0 && paymentIntentId) {
        // The same key as the organiser's Refund of this booking: the provider sees one refund.
        const claim = claimRefund(
          tx,
          {
            bookingId: booking.id,
            paymentIntentId,
            idempotencyKey: `refund-${booking.id}`,
            amountCents: due,
            reason: "guest_cancel",
          },
          now,
        );
        return { claim };
      }
      tx.update(bookings)
        .set({ status: bookingStatusAfter(booking.status, "cancelled"), seatReleased: true })
        .where(eq(bookings.id, booking.id))
        .run();
      walletPassesChanged(tx, deps, [booking.id], now);
      enqueueSms(tx, {
        dedupeKey: cancelTextKey(booking.id),
        to: booking.phone,
        body: cancelledNoRefundText({ eventName: event.name }),
      });
      const user = tx.select().from(users).where(eq(users.id, booking.userId)).get();
      if (user?.email) {
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
      return { done: { refundCents: 0, status: "cancelled" }, freedEventId: event.id };
    },
    { behavior: "immediate" },
  );

  if ("claim" in decision) {
    // finishClaim ends the booking, frees the seat for the waitlist and texts the guest.
    await finishClaim(deps, decision.claim);
    return { refundCents: decision.claim.amountCents, status: "refunded" };
  }
  if (decision.freedEventId !== undefined) {
    offerFreedSeatsNow(deps, decision.freedEventId);
    sendWalletUpdatesSoon(deps);
    deliverPending(deps, { dedupePrefix: "cancel:" }).catch((error: unknown) =>
      deps.log("warn", "cancel text not sent yet; the outbox retries", { error: String(error).slice(0, 200) }),
    );
  }
  return decision.done;
}
