import { and, asc, eq, isNotNull, isNull, lte, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client.ts";
import { guestChoices } from "../../db/guest-choice-schema.ts";
import { bookings, events, type RefundClaim, refundClaims, refunds, users } from "../../db/schema.ts";
import { emailDocument } from "../booking/booking-email.ts";
import { bookingStatusAfter } from "../booking/booking-status.ts";
import { addCredit, cancelCreditKey, creditKeyOf } from "../booking/credit.ts";
import { adjustmentOfPayment, issueAdjustmentNote, type SellerEnv } from "../booking/documents.ts";
import { offerFreedSeatsNow } from "../booking/waitlist-offers.ts";
import type { Env } from "../env.ts";
import { Conflict, NotFound, ProviderFailed } from "../lib/errors.ts";
import type { Logger } from "../lib/log.ts";
import { deliverPending, enqueueEmail, enqueueSms } from "../messaging/outbox.ts";
import { senderOf } from "../messaging/templates/email-frame.ts";
import { refundEmail, refundText } from "../messaging/templates/refund.ts";
import { endStreamsFor } from "../night/room-events.ts";
import { AlreadyRefunded, type PaymentsProvider } from "../providers/payments/types.ts";
import type { SmsProvider } from "../providers/sms/types.ts";
import type { WalletPushProvider } from "../providers/wallet/types.ts";
import type { WalletKeys } from "../wallet/keys.ts";
import { sendWalletUpdatesSoon, walletPassesChanged } from "../wallet/pass-changes.ts";

/** What a refund needs: the provider, and the waitlist's offer for a seat it gives back (texted at once). */
export type RefundDeps = {
  db: Db;
  env: Pick<Env, "PUBLIC_BASE_URL" | "SESSION_SECRET" | "WAITLIST_OFFER_MINUTES" | "SUPPORT_EMAIL" | "EMAIL"> &
    SellerEnv;
  payments: PaymentsProvider;
  sms: SmsProvider;
  /** The wallet keys and sender: a refunded ticket's passes say NOT VALID (api/wallet/pass-changes.ts). */
  wallet?: WalletKeys;
  walletPush?: WalletPushProvider;
  log: Logger;
  now: () => number;
};

/** `refundedNow`: this call recorded the refund (a repeat, or a call that joined one under way, did not). */
export type RefundResult = { refundId: string; seatReleased: boolean; refundedNow?: boolean };

/**
 * A claim this old without a recorded refund is no longer in flight: the server that made it crashed
 * or the provider failed, and the background job finishes it. Well past the SDK's 20-second timeout
 * with its two retries, so the job never races a call still under way.
 */
export const UNFINISHED_CLAIM_MS = 5 * 60_000;

// Refunds under way in this process, per database, so a double click or two admin tabs share one
// provider call instead of racing. Across processes the claim (`refund_claims`) holds the one
// idempotency key both use, so the provider makes one refund, and the unique payment intent on
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
  // A double click joins the call under way: the same refund, but not this call's change.
  if (existing) return existing.then((result) => ({ ...result, refundedNow: false }));
  const map = running;
  const promise = refundOnce(deps, paymentIntentId).finally(() => map.delete(paymentIntentId));
  map.set(paymentIntentId, promise);
  return promise;
}

async function refundOnce(deps: RefundDeps, paymentIntentId: string): Promise<RefundResult> {
  const claimed = deps.db.transaction(
    (tx) => {
      const booking = tx.select().from(bookings).where(eq(bookings.paymentIntentId, paymentIntentId)).get();
      if (!booking) throw NotFound("no booking with that payment");
      const recorded = recordedRefund(tx, booking.id, paymentIntentId);
      if (recorded) return { recorded };
      // A claim left unfinished (a crash, a provider failure) is finished, whatever the booking's state.
      const earlier = claimOf(tx, paymentIntentId);
      if (earlier) return { claim: earlier };
      if (booking.status !== "paid") throw Conflict(`the booking is ${booking.status}, not paid`, "not_paid");
      // Credit paid part or all (docs/decisions/057-credit.md): the card gets its own part back, and the
      // credit's part goes back as credit, once (the cancel's key), never as cash.
      const cardCents = booking.amountCents - booking.creditCents;
      if (booking.creditCents > 0) {
        addCredit(
          tx,
          {
            guestKey: creditKeyOf(deps.env, booking.phone),
            amountCents: booking.creditCents,
            kind: "cancel",
            reason: "Refunded by the organiser: the credit paid back as credit",
            uniqueKey: cancelCreditKey(booking.id),
            bookingId: booking.id,
            eventId: booking.eventId,
          },
          deps.now(),
        );
      }
      if (cardCents <= 0) {
        tx.update(bookings)
          .set({ status: bookingStatusAfter(booking.status, "cancelled"), seatReleased: true })
          .where(eq(bookings.id, booking.id))
          .run();
        return { creditOnly: { refundId: `credit-${booking.id}`, seatReleased: true, refundedNow: true } };
      }
      const claim = claimRefund(
        tx,
        {
          bookingId: booking.id,
          paymentIntentId,
          idempotencyKey: `refund-${booking.id}`,
          amountCents: cardCents,
          reason: "admin",
        },
        deps.now(),
      );
      return { claim };
    },
    { behavior: "immediate" },
  );
  if (claimed.recorded) return claimed.recorded;
  if (claimed.creditOnly) return claimed.creditOnly;
  return finishClaim(deps, claimed.claim);
}

/**
 * Claims a refund inside the caller's IMMEDIATE transaction, the one that decided it, so the
 * decision and the claim commit together before the provider is asked. A claim already there for the
 * payment is kept, with its key.
 */
export function claimRefund(tx: DbOrTx, claim: Omit<RefundClaim, "id" | "claimedAt">, now: number): RefundClaim {
  tx.insert(refundClaims)
    .values({ ...claim, claimedAt: now })
    .onConflictDoNothing()
    .run();
  const row = claimOf(tx, claim.paymentIntentId);
  // Keys name a booking or a payment, so another payment under the same key is a bug, not a retry.
  if (!row) throw new Error(`refund key ${claim.idempotencyKey} is claimed for another payment`);
  return row;
}

/** Whether the payment's refund is recorded already. */
export function isRefundRecorded(db: DbOrTx, paymentIntentId: string): boolean {
  return (
    db.select({ id: refunds.id }).from(refunds).where(eq(refunds.paymentIntentId, paymentIntentId)).get() !== undefined
  );
}

/**
 * Asks the provider for a claimed refund and records it. Safe to run again, from any process and
 * after any crash: the claim's idempotency key makes the provider answer with the refund it made, and
 * a payment it refunded under a key it has since forgotten is looked up instead of refunded again.
 * Recording the refund of a booking's own payment while the booking is still paid ends the booking.
 */
export async function finishClaim(deps: RefundDeps, claim: RefundClaim): Promise<RefundResult> {
  const { bookingId, paymentIntentId } = claim;
  let refundId: string;
  try {
    refundId = await refundAtProvider(deps, claim);
  } catch (error) {
    deps.log("warn", "refund failed at the provider", {
      bookingId,
      reason: claim.reason,
      error: String(error).slice(0, 200),
    });
    throw ProviderFailed("the payment provider did not make the refund");
  }

  const result = deps.db.transaction(
    (tx) => {
      // Another process may have recorded the same (idempotent) refund while the provider answered.
      const again = recordedRefund(tx, bookingId, paymentIntentId);
      if (again) return { ...again, released: false, refundedNow: false };
      tx.insert(refunds)
        .values({ bookingId, paymentIntentId, refundId, amountCents: claim.amountCents, reason: claim.reason })
        .run();
      // The adjustment note against the payment's receipt or invoice, numbered here (decision 032).
      issueAdjustmentNote(tx, deps.env, { paymentIntentId, refundId, amountCents: claim.amountCents }, deps.now());
      const booking = tx.select().from(bookings).where(eq(bookings.id, bookingId)).get();
      textRefund(tx, claim, booking?.eventId);
      emailRefund(tx, deps.env, claim);
      // A payment refunded for want of a seat already left its booking refunded when it was claimed.
      if (booking?.paymentIntentId !== paymentIntentId || booking.status !== "paid") {
        return { refundId, seatReleased: booking?.seatReleased ?? false, released: false, refundedNow: true };
      }
      const event = tx.select().from(events).where(eq(events.id, booking.eventId)).get();
      // A cancelled event has no seats to keep: its refunds never count as a seat used.
      const seatReleased =
        event?.status === "cancelled" || (event?.status === "upcoming" && deps.now() < event.startsAt);
      tx.update(bookings)
        .set({ status: bookingStatusAfter(booking.status, "refunded"), seatReleased })
        .where(eq(bookings.id, bookingId))
        .run();
      // The ticket's passes now say NOT VALID: queued with the refund, pushed below. A cancelled
      // event's passes said so when it was cancelled; its refunds change nothing they show.
      if (event?.status !== "cancelled") walletPassesChanged(tx, deps, [bookingId], deps.now());
      return { refundId, seatReleased, released: seatReleased, eventId: booking.eventId, refundedNow: true };
    },
    { behavior: "immediate" },
  );
  // The refunded guest's open room stream ends with their seat's right (decision 040).
  if (result.refundedNow) endStreamsFor(deps.db, { booking: bookingId });
  // A seat back on sale goes at once to the first person waiting for it (decision 015).
  if (result.released && result.eventId !== undefined) offerFreedSeatsNow(deps, result.eventId);
  sendWalletUpdatesSoon(deps);
  deliverPending(deps, { dedupePrefix: `refund:${paymentIntentId}` }).catch((error: unknown) =>
    deps.log("warn", "refund text not sent yet; the outbox retries", { error: String(error).slice(0, 200) }),
  );
  return { refundId: result.refundId, seatReleased: result.seatReleased, refundedNow: result.refundedNow };
}

/**
 * Tells the person their money is on its way, once per refunded payment (the key is the payment's),
 * in the transaction that records the refund: what they paid and how long a card refund takes. A
 * cancelled event's text already said both, so its refunds add nothing.
 */
function textRefund(tx: DbOrTx, claim: RefundClaim, eventId: number | undefined) {
  const event = eventId === undefined ? undefined : tx.select().from(events).where(eq(events.id, eventId)).get();
  if (!event || event.status === "cancelled") return;
  const booking = tx.select({ phone: bookings.phone }).from(bookings).where(eq(bookings.id, claim.bookingId)).get();
  if (!booking) return;
  enqueueSms(tx, {
    dedupeKey: `refund:${claim.paymentIntentId}`,
    to: booking.phone,
    body: refundText({ eventName: event.name, amountCents: claim.amountCents, reason: claim.reason }),
  });
}

/**
 * Emails the refund with its adjustment note (decision 032), whatever its reason: a cancelled event's
 * too, as its cancellation email carries no document. Keyed like the text, so the refund's prompt
 * send sends both. A payment that bought nothing (no seat) has no note, and says why.
 */
function emailRefund(tx: DbOrTx, env: RefundDeps["env"], claim: RefundClaim) {
  const row = tx
    .select({ event: events, user: users })
    .from(bookings)
    .innerJoin(events, eq(events.id, bookings.eventId))
    .innerJoin(users, eq(users.id, bookings.userId))
    .where(eq(bookings.id, claim.bookingId))
    .get();
  if (!row?.user.email) return;
  const { event, user } = row;
  const content = refundEmail({
    sender: senderOf(env),
    event,
    name: user.name,
    amountCents: claim.amountCents,
    reason: claim.reason === "guest_cancel" ? "guest_cancel" : claim.reason === "no_seat" ? "no_seat" : "organiser",
    document: emailDocument(adjustmentOfPayment(tx, claim.paymentIntentId)),
  });
  enqueueEmail(
    tx,
    { dedupeKey: `refund:${claim.paymentIntentId}:email`, to: user.email, bookingId: claim.bookingId, ...content },
    env,
  );
}

/** Refunds claimed at least UNFINISHED_CLAIM_MS before `now` and not recorded yet, oldest first. */
export function unfinishedClaims(db: DbOrTx, now: number): RefundClaim[] {
  return db
    .select({ claim: refundClaims })
    .from(refundClaims)
    .leftJoin(refunds, eq(refunds.paymentIntentId, refundClaims.paymentIntentId))
    .where(and(isNull(refunds.id), lte(refundClaims.claimedAt, now - UNFINISHED_CLAIM_MS)))
    .orderBy(asc(refundClaims.claimedAt), asc(refundClaims.id))
    .all()
    .map((row) => row.claim);
}

/**
 * Payments still paid at a cancelled event. cancel-event commits the cancel and its texts ("is being
 * refunded") before it refunds anyone, so a crash in between leaves these with no claim at all.
 */
export function paidAtCancelledEvents(db: DbOrTx): string[] {
  return db
    .select({ paymentIntentId: bookings.paymentIntentId })
    .from(bookings)
    .innerJoin(events, eq(events.id, bookings.eventId))
    .where(
      and(
        eq(events.status, "cancelled"),
        eq(bookings.status, "paid"),
        isNotNull(bookings.paymentIntentId),
        // A guest choosing refund or credit (Cancel the night, Move to another night; decision 059)
        // is settled by that choice, and by the guest-choices job at its deadline, never here.
        sql`not exists (select 1 from ${guestChoices} where ${guestChoices.bookingId} = ${bookings.id} and ${guestChoices.settledAt} is null)`,
      ),
    )
    .orderBy(asc(bookings.id))
    .all()
    .map((row) => row.paymentIntentId ?? "");
}

/**
 * The background job: finishes every refund a crash or a provider failure left claimed but not
 * recorded, and every paid booking of a cancelled event (a cancel that crashed before claiming it),
 * so none stays half-done until someone presses a button: the guests were already told their money
 * is on its way. A failure is logged and tried again on a later tick; one failing payment never
 * stops the others. A cancel still running here shares its refund calls (refundPayment), and one in
 * another process the claim's idempotency key, so nobody is refunded twice.
 */
export async function finishUnfinishedRefunds(deps: RefundDeps, now: number) {
  let finished = 0;
  let failed = 0;
  for (const claim of unfinishedClaims(deps.db, now)) {
    try {
      await finishClaim(deps, claim);
      finished++;
    } catch {
      failed++; // finishClaim logged it
    }
  }
  for (const paymentIntentId of paidAtCancelledEvents(deps.db)) {
    try {
      await refundPayment(deps, paymentIntentId);
      finished++;
    } catch (error) {
      failed++;
      deps.log("warn", "refund of a cancelled event not made yet", { error: String(error).slice(0, 200) });
    }
  }
  return { finished, failed };
}

async function refundAtProvider(deps: RefundDeps, claim: RefundClaim): Promise<string> {
  try {
    // A guest's cancel may give back part of the payment; every other refund gives back all of it.
    const part = claim.reason === "guest_cancel" ? claim.amountCents : undefined;
    return (await deps.payments.refund(claim.paymentIntentId, claim.idempotencyKey, part)).refundId;
  } catch (error) {
    if (!(error instanceof AlreadyRefunded)) throw error;
    // The provider made this refund before (a crash lost its answer, and the key has since been
    // forgotten), or someone refunded the payment at the provider's dashboard: either way the money
    // went back, and that refund is the one to record.
    const existing = await deps.payments.findRefund(claim.paymentIntentId);
    if (!existing) throw error;
    deps.log("info", "refund found at the provider, made earlier", { bookingId: claim.bookingId });
    return existing.refundId;
  }
}

export function claimOf(db: DbOrTx, paymentIntentId: string): RefundClaim | undefined {
  return db.select().from(refundClaims).where(eq(refundClaims.paymentIntentId, paymentIntentId)).get();
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

/** The booking a payment paid for, so the activity log can name the refund's event and person. */
export function bookingOfPayment(db: DbOrTx, paymentIntentId: string) {
  return db
    .select({ eventId: bookings.eventId, userId: bookings.userId })
    .from(bookings)
    .where(eq(bookings.paymentIntentId, paymentIntentId))
    .get();
}
