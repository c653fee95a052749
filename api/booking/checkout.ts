import { and, desc, eq, gt, inArray } from "drizzle-orm";
import type { z } from "zod";
import type { Db, DbOrTx } from "../../db/client.ts";
import {
  type Booking,
  bookings,
  type CheckoutSession,
  checkoutSessions,
  type Event,
  events,
  type User,
  users,
} from "../../db/schema.ts";
import type { Env } from "../env.ts";
import { Conflict, NotFound } from "../lib/errors.ts";
import type { PaymentsProvider } from "../providers/payments/types.ts";
import { bookingStatusAfter, bookingStatusesFor } from "./booking-status.ts";
import { addCredit, creditBalance, creditKeyOf, returnCheckoutCredit, spendKey } from "./credit.ts";
import { assertSalesOpen } from "./event-lookup.ts";
import { releaseHolds } from "./holds.ts";
import { NO_PHOTO } from "./images.ts";
import { type CompletionDeps, completeCheckout } from "./payment-completion.ts";
import type { checkoutReply } from "./payments-schemas.ts";
import { photoJobsOf } from "./photo-jobs.ts";
import { type OfferDeps, offerFreedSeatsNow } from "./waitlist-offers.ts";

type Deps = { db: Db; env: Env; payments: PaymentsProvider; now: () => number };
type CheckoutDeps = CompletionDeps;
type CheckoutInput = { userId: number; eventId: number; useCredit?: boolean };

export type BookingContext = { booking: Booking; user: User; event: Event };

// Stripe refuses a Checkout Session whose expires_at is less than 30 minutes after its creation. A
// hold has at most 30 minutes left when the buyer reaches "Proceed to Payment", so creating a checkout
// stretches the hold to 31 minutes from now (the extra minute covers the call to Stripe) and the
// session expires with it. A session is reused while open, and no stretch goes past HOLD_MINUTES plus
// 31 minutes from when the phone first held the seat, so a hold cannot be extended forever.
const MIN_CHECKOUT_MS = 31 * 60_000;

/** The placeholder Stripe replaces with the session id in the success URL. */
export const SESSION_ID_PLACEHOLDER = "{CHECKOUT_SESSION_ID}";

export function loadBookingContext(db: DbOrTx, userId: number, eventId: number): BookingContext {
  const row = findBookingContext(db, userId, eventId);
  if (!row) throw NotFound("no such booking");
  return row;
}

export function findBookingContext(db: DbOrTx, userId: number, eventId: number): BookingContext | undefined {
  return db
    .select({ booking: bookings, user: users, event: events })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .innerJoin(events, eq(events.id, bookings.eventId))
    .where(and(eq(bookings.userId, userId), eq(bookings.eventId, eventId)))
    .get();
}

export function loadBookingContextById(db: DbOrTx, bookingId: number): BookingContext | undefined {
  return db
    .select({ booking: bookings, user: users, event: events })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .innerJoin(events, eq(events.id, bookings.eventId))
    .where(eq(bookings.id, bookingId))
    .get();
}

/**
 * The success URL the checkout returns to (`/success?session_id=…&userID=…&eventID=…&eventName=…&amount=…
 * &userEmail=…&phone=…`). Every value comes from the database, not from the client, so the page the
 * buyer returns to shows what was actually bought.
 */
export function successUrl(env: Pick<Env, "PUBLIC_BASE_URL">, sessionId: string, ctx: BookingContext): string {
  const q = encodeURIComponent;
  return (
    `${env.PUBLIC_BASE_URL}/success?session_id=${sessionId === SESSION_ID_PLACEHOLDER ? sessionId : q(sessionId)}` +
    `&userID=${ctx.user.id}&eventID=${ctx.event.id}&eventName=${q(ctx.event.name)}` +
    `&amount=${q(String(ctx.booking.amountCents / 100))}&userEmail=${q(ctx.user.email)}&phone=${q(ctx.user.phone)}`
  );
}

/**
 * Where Cancel on the payment page leads: back to the held booking's confirmation page
 * (`/confirmation?payment=cancelled&userID=…&eventID=…&heldUntil=…`), which finds the booking's
 * details in the tab's own storage. `heldUntil` (ISO 8601 UTC) is until when the seat stays held; it
 * is left out when the hold is already gone, and the page then says so.
 */
export function cancelUrl(
  env: Pick<Env, "PUBLIC_BASE_URL">,
  input: { userId: number; eventId: number; heldUntil: number | null },
): string {
  const held =
    input.heldUntil === null ? "" : `&heldUntil=${encodeURIComponent(new Date(input.heldUntil).toISOString())}`;
  return `${env.PUBLIC_BASE_URL}/confirmation?payment=cancelled&userID=${input.userId}&eventID=${input.eventId}${held}`;
}

/** Until when `booking`'s seat is still held at `now`, or null when it is not held any more. */
export const heldUntil = (booking: Booking, now: number): number | null =>
  booking.status === "held" && booking.holdExpiresAt > now ? booking.holdExpiresAt : null;

/** What create-checkout-session answers: its type is its schema's (payments-schemas.ts). */
export type CheckoutReply = z.output<typeof checkoutReply>;

// Checkouts being created in this process, per booking: a double click shares one provider call.
const inFlight = new WeakMap<Db, Map<number, Promise<CheckoutReply>>>();

/**
 * Starts (or reuses) the card checkout for a user's live hold. The price is the booking's, fixed
 * when the seat was held and changed only by a promo code (decision 023); whatever amount the client
 * sent is ignored.
 */
export async function createCheckoutSession(deps: CheckoutDeps, input: CheckoutInput) {
  const { db } = deps;
  // A first save is answered before its photo is stored (save-details.ts): the payment waits for the photo,
  // and a photo that failed (its seat already given back) is a 415 that says so.
  await photoJobsOf(db).settle(input.userId, deps.now());
  const bookingId = loadBookingContext(db, input.userId, input.eventId).booking.id;
  let running = inFlight.get(db);
  if (!running) {
    running = new Map();
    inFlight.set(db, running);
  }
  const existing = running.get(bookingId);
  if (existing) return existing;
  const map = running;
  const promise = createOnce(deps, input).finally(() => map.delete(bookingId));
  map.set(bookingId, promise);
  return promise;
}

/** The spend of `creditCents` on checkout `checkoutId`, in the caller's IMMEDIATE transaction. */
function spendCredit(
  tx: DbOrTx,
  guestKey: string,
  ctx: BookingContext,
  checkout: { id: string; creditCents: number },
  now: number,
) {
  addCredit(
    tx,
    {
      guestKey,
      amountCents: -checkout.creditCents,
      kind: "spent",
      reason: `Paid towards ${ctx.event.name}`,
      uniqueKey: spendKey(checkout.id),
      bookingId: ctx.booking.id,
      eventId: ctx.event.id,
    },
    now,
  );
}

// Why one function: the hold's stretch, the credit's spend and the provider's call are one sequence,
// each step's outcome deciding the next (docs/decisions/017 and 057).
async function createOnce(deps: CheckoutDeps, input: CheckoutInput): Promise<CheckoutReply> {
  const { db, payments } = deps;
  const now = deps.now();
  const plan = db.transaction(
    (tx) => {
      const ctx = loadBookingContext(tx, input.userId, input.eventId);
      const { booking, event } = ctx;
      if (booking.status === "paid") throw Conflict("this booking is already paid", "already_paid");
      assertSalesOpen(event, now);
      if (booking.status !== "held" || booking.holdExpiresAt <= now) {
        throw Conflict("the seat hold has expired, please book again", "hold_expired");
      }
      // A first save holds its seat before its photo is stored (save-details.ts, saveUserDetails): until the
      // photo is attached the hold is not a booking anyone may pay for. The wait above covers this
      // process's photos; a hold still without one belongs to a process that stopped mid-photo.
      if (ctx.user.imageName === NO_PHOTO)
        throw Conflict("the seat is not held until its photo is saved, please book again", "hold_expired");
      const open = tx
        .select()
        .from(checkoutSessions)
        .where(
          and(
            eq(checkoutSessions.bookingId, booking.id),
            eq(checkoutSessions.provider, payments.name),
            eq(checkoutSessions.status, "open"),
            gt(checkoutSessions.expiresAt, now),
          ),
        )
        .orderBy(desc(checkoutSessions.createdAt))
        .get();
      if (open) return { kind: "reuse" as const, open };
      // Credit (docs/decisions/057-credit.md): what the number holds pays first, up to the price.
      const guestKey = creditKeyOf(deps.env, booking.phone);
      const creditCents = input.useCredit ? Math.min(creditBalance(tx, guestKey), booking.amountCents) : 0;
      if (creditCents > 0 && creditCents === booking.amountCents) {
        // Paid wholly by credit: no card checkout. A checkout row of the credit alone carries it through
        // the one completion every payment takes, so the ticket, texts and receipt are a paid booking's.
        const id = `credit_${booking.id}_${now}`;
        tx.insert(checkoutSessions)
          .values({
            id,
            bookingId: booking.id,
            provider: payments.name,
            amountCents: 0,
            creditCents,
            currency: "aud",
            url: "",
            expiresAt: Math.max(booking.holdExpiresAt, now + 60_000),
          })
          .run();
        spendCredit(tx, guestKey, ctx, { id, creditCents }, now);
        return { kind: "credit" as const, id, bookingId: booking.id };
      }
      // Stripe keeps a checkout open at least 30 minutes, so starting one stretches the hold to match,
      // but never past HOLD_MINUTES plus one checkout from when the phone first held the seat: saving
      // the details again and starting another checkout must not pin the seat forever (decision 017).
      // The checkout expires with its hold, never after it: a lapsed hold gives its promo code's use
      // back, and a payment page still open after that could pass the code's maxUses (decision 023).
      const expiresAt = Math.max(booking.holdExpiresAt, now + MIN_CHECKOUT_MS);
      const heldSince = booking.heldSince ?? booking.createdAt;
      const holdExpiresAt = Math.min(expiresAt, heldSince + deps.env.HOLD_MINUTES * 60_000 + MIN_CHECKOUT_MS);
      if (holdExpiresAt < expiresAt) {
        // The hold's last stretch ends too soon for a checkout Stripe accepts (a buyer came back to pay
        // after an earlier checkout was closed). The hold is let go now, so booking again starts a
        // fresh one at once instead of waiting for this one to lapse.
        releaseHolds(tx, eq(bookings.id, booking.id));
        return { kind: "too_late" as const };
      }
      tx.update(bookings).set({ holdExpiresAt }).where(eq(bookings.id, booking.id)).run();
      return { kind: "create" as const, ctx, expiresAt, holdExpiresAt, creditCents, guestKey };
    },
    { behavior: "immediate" },
  );
  if (plan.kind === "reuse")
    return { sessionId: plan.open.id, paymentIntentId: plan.open.paymentIntentId, url: plan.open.url };
  if (plan.kind === "too_late") {
    throw Conflict("the seat hold ends too soon to start a payment, please book again", "hold_expired");
  }
  if (plan.kind === "credit") {
    const done = await completeCheckout(deps, {
      sessionId: plan.id,
      paymentIntentId: `credit_${plan.bookingId}`,
      requireOpen: true,
    });
    // No seat for it after all (the completion gave the credit back): book again.
    if (done.outcome !== "paid") throw Conflict("the seat hold has expired, please book again", "hold_expired");
    return { paidByCredit: true as const, url: `${deps.env.PUBLIC_BASE_URL}/me` };
  }

  const { ctx, expiresAt, holdExpiresAt, creditCents, guestKey } = plan;
  const info = await payments.createCheckout({
    // The card pays what credit does not (the Stripe session's amount, as a promo code changes it).
    amountCents: ctx.booking.amountCents - creditCents,
    currency: "aud",
    productName: ctx.event.name,
    customerEmail: ctx.user.email,
    successUrl: successUrl(deps.env, SESSION_ID_PLACEHOLDER, ctx),
    // Stripe's cancel link ends nothing: the session stays payable and the seat held until they expire.
    cancelUrl: cancelUrl(deps.env, { userId: ctx.user.id, eventId: ctx.event.id, heldUntil: holdExpiresAt }),
    expiresAt,
    metadata: { bookingId: String(ctx.booking.id), userId: String(ctx.user.id), eventId: String(ctx.event.id) },
    // One key per booking and hold window: a retry after a lost reply gets the same session back.
    idempotencyKey: `checkout-${ctx.booking.id}-${expiresAt}${creditCents > 0 ? `-c${creditCents}` : ""}`,
  });
  db.transaction(
    (tx) => {
      // The credit is spent with the row that carries it; another checkout of the same number that
      // spent it meanwhile leaves too little, and this checkout is not offered (asked again, it costs more).
      const short = creditCents > 0 && creditBalance(tx, guestKey) < creditCents;
      tx.insert(checkoutSessions)
        .values({
          id: info.id,
          bookingId: ctx.booking.id,
          provider: payments.name,
          amountCents: ctx.booking.amountCents - creditCents,
          creditCents: short ? 0 : creditCents,
          currency: "aud",
          url: info.url,
          expiresAt,
          ...(short ? { status: "cancelled" as const } : {}),
        })
        // The local provider writes its row as it creates the checkout: the credit is set on it here.
        .onConflictDoUpdate({
          target: checkoutSessions.id,
          set: { creditCents: short ? 0 : creditCents, ...(short ? { status: "cancelled" as const } : {}) },
        })
        .run();
      if (short) throw Conflict("the credit was used by another booking meanwhile, please try again", "credit_changed");
      if (creditCents > 0) spendCredit(tx, guestKey, ctx, { id: info.id, creditCents }, now);
    },
    { behavior: "immediate" },
  );
  return { sessionId: info.id, paymentIntentId: info.paymentIntentId, url: info.url };
}

export function findCheckoutSession(db: DbOrTx, sessionId: string): CheckoutSession | undefined {
  return db.select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionId)).get();
}

/** The booking a checkout session of this app belongs to; undefined for a session it never created. */
export function bookingOfCheckout(db: DbOrTx, sessionId: string): BookingContext | undefined {
  const session = findCheckoutSession(db, sessionId);
  return session && loadBookingContextById(db, session.bookingId);
}

/**
 * What the success page needs: has this checkout been paid, and with which payment intent. The route
 * has already matched the session to a booking of this app, so the provider is never probed blindly.
 */
export async function getCheckoutStatus(deps: Deps, sessionId: string) {
  if (!findCheckoutSession(deps.db, sessionId)) throw NotFound("no such checkout session");
  const info = await deps.payments.retrieveCheckout(sessionId);
  return { paymentIntentId: info.paid ? info.paymentIntentId : null, paid: info.paid };
}

/**
 * Ends an unpaid checkout (cancelled by the buyer, or expired at the provider) and gives its seat
 * back. A paid booking is never touched, so an "expired" arriving after "completed" changes nothing.
 * A seat given back goes at once to the first person waiting for it (decision 015).
 */
export function releaseCheckout(
  deps: OfferDeps,
  sessionId: string,
  reason: "cancelled" | "expired",
  now: number,
): boolean {
  let freedAt: number | undefined;
  const ended = deps.db.transaction(
    (tx) => {
      const session = findCheckoutSession(tx, sessionId);
      if (session?.status !== "open") return false;
      tx.update(checkoutSessions).set({ status: reason }).where(eq(checkoutSessions.id, sessionId)).run();
      returnCheckoutCredit(tx, session, now);
      const otherOpen = tx
        .select({ id: checkoutSessions.id })
        .from(checkoutSessions)
        .where(
          and(
            eq(checkoutSessions.bookingId, session.bookingId),
            eq(checkoutSessions.status, "open"),
            gt(checkoutSessions.expiresAt, now),
          ),
        )
        .get();
      if (otherOpen) return true;
      freedAt = tx
        .update(bookings)
        .set({ status: bookingStatusAfter("held", "hold_lapsed") })
        .where(and(eq(bookings.id, session.bookingId), inArray(bookings.status, bookingStatusesFor("hold_lapsed"))))
        .returning({ eventId: bookings.eventId })
        .get()?.eventId;
      return true;
    },
    { behavior: "immediate" },
  );
  if (freedAt !== undefined) offerFreedSeatsNow(deps, freedAt);
  return ended;
}

/**
 * Cancel on the local checkout page: that checkout can no longer be paid, but the seat stays held for
 * its buyer until the hold runs out, as it does when a buyer leaves Stripe's page by its cancel link,
 * so "Proceed to Payment" can start a new checkout. Returns the booking as it is now.
 */
export function cancelCheckout(db: Db, sessionId: string, now: number): BookingContext | undefined {
  return db.transaction(
    (tx) => {
      const session = findCheckoutSession(tx, sessionId);
      if (!session) return undefined;
      const ended = tx
        .update(checkoutSessions)
        .set({ status: "cancelled" })
        .where(and(eq(checkoutSessions.id, sessionId), eq(checkoutSessions.status, "open")))
        .returning()
        .get();
      if (ended) returnCheckoutCredit(tx, ended, now);
      return loadBookingContextById(tx, session.bookingId);
    },
    { behavior: "immediate" },
  );
}
