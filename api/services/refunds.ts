import { eq } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client.ts";
import { bookings, events, refunds } from "../../db/schema.ts";
import type { Env } from "../env.ts";
import { Conflict, NotFound, ProviderFailed } from "../lib/errors.ts";
import type { Logger } from "../lib/log.ts";
import type { PaymentsProvider } from "../providers/payments/types.ts";
import type { SmsProvider } from "../providers/sms/types.ts";
import { offerFreedSeatsNow } from "./waitlist-offers.ts";

/** What a refund needs: the provider, and the waitlist's offer for a seat it gives back (texted at once). */
export type RefundDeps = {
  db: Db;
  env: Pick<Env, "PUBLIC_BASE_URL" | "SESSION_SECRET" | "WAITLIST_OFFER_MINUTES">;
  payments: PaymentsProvider;
  sms: SmsProvider;
  log: Logger;
  now: () => number;
};

export type RefundResult = { refundId: string; seatReleased: boolean };

// Refunds under way in this process, per database, so a double click or two admin tabs share one
// provider call instead of racing. Across processes the provider's idempotency key
// (`refund-{bookingId}`) still makes both calls the same refund, and the unique payment intent on
// `refunds` keeps one record.
const inFlight = new WeakMap<Db, Map<string, Promise<RefundResult>>>();

/**
 * Refunds a paid booking in full, once. A repeated call answers with the refund already recorded.
 * Before the event starts the seat goes back on sale; after the start the attendee used it, so it
 * keeps counting. cancel-event refunds through here too, so a booking is never refunded twice.
 */
export function refundPayment(deps: RefundDeps, paymentIntentId: string): Promise<RefundResult> {
  let running = inFlight.get(deps.db);
  if (!running) {
    running = new Map();
    inFlight.set(deps.db, running);
  }
  const existing = running.get(paymentIntentId);
  if (existing) return existing;
  const map = running;
  const promise = refundOnce(deps, paymentIntentId).finally(() => map.delete(paymentIntentId));
  map.set(paymentIntentId, promise);
  return promise;
}

async function refundOnce(deps: RefundDeps, paymentIntentId: string): Promise<RefundResult> {
  const { db } = deps;
  const booking = db.select().from(bookings).where(eq(bookings.paymentIntentId, paymentIntentId)).get();
  if (!booking) throw NotFound("no booking with that payment");
  const recorded = recordedRefund(db, booking.id, paymentIntentId);
  if (recorded) return recorded;
  if (booking.status !== "paid") throw Conflict(`the booking is ${booking.status}, not paid`, "not_paid");

  let refundId: string;
  try {
    ({ refundId } = await deps.payments.refund(paymentIntentId, `refund-${booking.id}`));
  } catch (error) {
    deps.log("warn", "refund failed at the provider", { bookingId: booking.id, error: String(error).slice(0, 200) });
    throw ProviderFailed("the payment provider did not make the refund");
  }

  const result = db.transaction(
    (tx) => {
      // Another process may have recorded the same (idempotent) refund while the provider answered.
      const again = recordedRefund(tx, booking.id, paymentIntentId);
      if (again) return again;
      const event = tx.select().from(events).where(eq(events.id, booking.eventId)).get();
      // A cancelled event has no seats to keep: its refunds never count as a seat used.
      const seatReleased =
        event?.status === "cancelled" || (event?.status === "upcoming" && deps.now() < event.startsAt);
      tx.insert(refunds)
        .values({ bookingId: booking.id, paymentIntentId, refundId, amountCents: booking.amountCents, reason: "admin" })
        .run();
      tx.update(bookings).set({ status: "refunded", seatReleased }).where(eq(bookings.id, booking.id)).run();
      return { refundId, seatReleased };
    },
    { behavior: "immediate" },
  );
  // A seat back on sale goes at once to the first person waiting for it (decision 015).
  if (result.seatReleased) offerFreedSeatsNow(deps, booking.eventId);
  return result;
}

function recordedRefund(db: DbOrTx, bookingId: number, paymentIntentId: string): RefundResult | null {
  const row = db
    .select({ refundId: refunds.refundId, seatReleased: bookings.seatReleased })
    .from(refunds)
    .innerJoin(bookings, eq(bookings.id, bookingId))
    .where(eq(refunds.paymentIntentId, paymentIntentId))
    .get();
  return row ?? null;
}
