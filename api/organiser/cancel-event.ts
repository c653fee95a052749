import { and, asc, eq, isNotNull } from "drizzle-orm";
import { guestChoices } from "../../db/guest-choice-schema.ts";
import { bookings, events } from "../../db/schema.ts";
import { releaseHolds } from "../booking/holds.ts";
import { endWaitlist } from "../booking/waitlist.ts";
import { Conflict, NotFound } from "../lib/errors.ts";
import { textPaidAttendees } from "../messaging/attendee-texts.ts";
import { deliverBatch } from "../messaging/outbox.ts";
import { senderOf } from "../messaging/templates/email-frame.ts";
import { eventCancelledEmail, eventCancelledText } from "../messaging/templates/event-cancelled.ts";
import { sendWalletUpdatesSoon, walletPassesOfEventChanged } from "../wallet/pass-changes.ts";
import { type RefundDeps, refundPayment } from "./refunds.ts";

/** What one run did: payments refunded now, payments still unrefunded, texts sent and not sent yet. */
export type CancelResult = { refunded: number; failed: number; sent: number; smsFailed: number };

/**
 * Cancels an event that has not started: status `cancelled`, holds released, waitlist ended, every
 * paid booking refunded and every attendee texted once.
 *
 * Crash-safe by order, not by one big transaction (a refund is a provider call): the status change
 * and every text commit together first, so a cancelled event is never left on sale and nobody misses
 * the news; then each paid booking goes through the one refund path (a claim written before the
 * provider is called, its idempotency key, the unique refund record). Running it again on a
 * `cancelled` event ("Finish refunds") therefore finishes only what is still paid, records a refund
 * the provider made before a crash instead of making another, and queues nothing twice (the texts'
 * dedupe keys).
 */
export async function cancelEvent(deps: RefundDeps, eventId: number): Promise<CancelResult> {
  const { db } = deps;
  const prefix = `cancel:${eventId}:`;
  const guestsChoose = db.transaction(
    (tx) => {
      const event = tx.select().from(events).where(eq(events.id, eventId)).get();
      if (!event) throw NotFound("no such event");
      if (event.status === "started" || event.status === "ended") {
        throw Conflict(`the event has ${event.status}; only an upcoming event can be cancelled`, "wrong_state");
      }
      // A night whose guests were asked to choose (docs/decisions/059-short-of-numbers.md): their
      // choices settle it, and the guest-choices job at the deadline; nothing more to do or say here.
      if (event.status === "cancelled" && tx.select().from(guestChoices).where(eq(guestChoices.eventId, eventId)).get())
        return true;
      if (event.status === "upcoming") {
        tx.update(events)
          .set({ status: "cancelled" })
          .where(and(eq(events.id, eventId), eq(events.status, "upcoming")))
          .run();
        // An open payment page must not buy a seat at a cancelled event.
        releaseHolds(tx, eq(bookings.eventId, eventId));
        endWaitlist(tx, { ...event, status: "cancelled" });
        // Every ticket's passes say NOT VALID (Event cancelled) from this commit on.
        walletPassesOfEventChanged(tx, deps, eventId, deps.now());
      }
      textPaidAttendees(tx, eventId, {
        dedupeKey: (attendee) => `${prefix}${attendee.id}`,
        body: (attendee) => eventCancelledText({ event, amountCents: attendee.amountCents }),
        email: {
          env: deps.env,
          content: (attendee) =>
            eventCancelledEmail({
              sender: senderOf(deps.env),
              event,
              name: attendee.name,
              amountCents: attendee.amountCents,
            }),
        },
      });
      return false;
    },
    { behavior: "immediate" },
  );
  if (guestsChoose) return { refunded: 0, failed: 0, sent: 0, smsFailed: 0 };

  sendWalletUpdatesSoon(deps);
  const toRefund = db
    .select({ id: bookings.id, paymentIntentId: bookings.paymentIntentId })
    .from(bookings)
    .where(and(eq(bookings.eventId, eventId), eq(bookings.status, "paid"), isNotNull(bookings.paymentIntentId)))
    .orderBy(asc(bookings.id))
    .all();
  let refunded = 0;
  let failed = 0;
  // One at a time, like the panel's refund batch: a steady trickle, and one failure stops nobody else.
  for (const booking of toRefund) {
    try {
      await refundPayment(deps, booking.paymentIntentId!);
      refunded++;
    } catch (error) {
      failed++;
      deps.log("warn", "cancel-event refund not made", { bookingId: booking.id, error: String(error).slice(0, 200) });
    }
  }

  const texts = await deliverBatch(deps, prefix);
  return { refunded, failed, sent: texts.sent, smsFailed: texts.failed };
}
