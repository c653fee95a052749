import { and, eq, gt, inArray, or, sql } from "drizzle-orm";
import type { LocalDateTime } from "../../common/event-fields.ts";
import { withCode } from "../../common/pricing.ts";
import { wallClockToUtc } from "../../common/venue-time-input.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import { bookings, checkoutSessions, events, type Gender, type PromoCode, promoCodes } from "../../db/schema.ts";
import { Conflict, DomainError, NotFound } from "../lib/errors.ts";
import { assertUnderLimit, type Limit, recordHit } from "../lib/rate-limit.ts";
import { loadBookingContext } from "./checkout.ts";
import type { AppliedPromo } from "./payments-schemas.ts";

/**
 * Promo codes (docs/decisions/023-prices-and-ages.md). A use is a booking naming the code that is
 * paid or still held, counted inside the IMMEDIATE transaction that applies the code, so racing
 * buyers never pass `maxUses`; a hold that lapses stops counting, which gives its use back.
 */

export type PromoCodeView = {
  id: number;
  code: string;
  percentOff: number | null;
  /** Dollars, like every amount in the API. */
  amountOff: number | null;
  maxUses: number | null;
  uses: number;
  /** Paid bookings past `maxUses` (a checkout that outlived its hold), charged what they were shown. */
  overruns: number;
  /** ISO 8601 UTC, or null for a code that never expires. */
  validUntil: string | null;
  gender: Gender | null;
  disabled: boolean;
};

export type NewPromoCode = {
  eventId: number;
  code: string;
  percentOff: number | null;
  amountOffCents: number | null;
  maxUses: number | null;
  /** On the venue's clock, like the early-bird deadline. */
  validUntil: LocalDateTime | null;
  gender: Gender | null;
};

/** Codes are matched ignoring case and surrounding spaces: people type them from a newsletter. */
export const normaliseCode = (code: string) => code.trim().toUpperCase();

/** Bookings that hold a use of a code at `now`: paid, or held and not yet lapsed. */
const holdsAUse = (now: number) =>
  or(eq(bookings.status, "paid"), and(eq(bookings.status, "held"), gt(bookings.holdExpiresAt, now)));

function usesOf(q: DbOrTx, codeIds: number[], now: number, exceptBookingId?: number): Map<number, number> {
  if (codeIds.length === 0) return new Map();
  const rows = q
    .select({ id: bookings.promoCodeId, n: sql<number>`count(*)` })
    .from(bookings)
    .where(
      and(
        inArray(bookings.promoCodeId, codeIds),
        holdsAUse(now),
        exceptBookingId === undefined ? undefined : sql`${bookings.id} <> ${exceptBookingId}`,
      ),
    )
    .groupBy(bookings.promoCodeId)
    .all();
  return new Map(rows.map((r) => [r.id ?? 0, r.n]));
}

/**
 * Whether paying `booking` now takes its code past `maxUses`: the other bookings holding a use are
 * counted as applyPromo counts them. Asked inside the completion's transaction (decision 023).
 */
export function isPromoOverrun(tx: DbOrTx, booking: { id: number; promoCodeId: number | null }, now: number): boolean {
  if (booking.promoCodeId === null) return false;
  const promo = tx.select().from(promoCodes).where(eq(promoCodes.id, booking.promoCodeId)).get();
  if (!promo || promo.maxUses === null) return false;
  return (usesOf(tx, [promo.id], now, booking.id).get(promo.id) ?? 0) >= promo.maxUses;
}

/** Paid bookings that went past their code's maxUses, per code. */
function overrunsOf(q: DbOrTx, codeIds: number[]): Map<number, number> {
  if (codeIds.length === 0) return new Map();
  const rows = q
    .select({ id: bookings.promoCodeId, n: sql<number>`count(*)` })
    .from(bookings)
    .where(and(inArray(bookings.promoCodeId, codeIds), eq(bookings.promoOverrun, true), eq(bookings.status, "paid")))
    .groupBy(bookings.promoCodeId)
    .all();
  return new Map(rows.map((r) => [r.id ?? 0, r.n]));
}

const view = (code: PromoCode, uses: number, overruns = 0): PromoCodeView => ({
  id: code.id,
  code: code.code,
  percentOff: code.percentOff,
  amountOff: code.amountOffCents === null ? null : code.amountOffCents / 100,
  maxUses: code.maxUses,
  uses,
  overruns,
  validUntil: code.validUntil === null ? null : new Date(code.validUntil).toISOString(),
  gender: code.gender,
  disabled: code.disabledAt !== null,
});

/** 409 `promo_code_taken` when the event already has the code (in any letter case). */
export function createPromoCode(db: Db, input: NewPromoCode): PromoCodeView {
  return db.transaction(
    (tx) => {
      const event = tx.select().from(events).where(eq(events.id, input.eventId)).get();
      if (!event) throw NotFound("no such event");
      if (event.status === "ended" || event.status === "cancelled") {
        throw Conflict(`the event is ${event.status}`, "wrong_state");
      }
      const code = normaliseCode(input.code);
      const taken = tx
        .select({ id: promoCodes.id })
        .from(promoCodes)
        .where(and(eq(promoCodes.eventId, event.id), eq(promoCodes.code, code)))
        .get();
      if (taken) throw Conflict(`the event already has the code ${code}`, "promo_code_taken");
      const row = tx
        .insert(promoCodes)
        .values({
          eventId: event.id,
          code,
          percentOff: input.percentOff,
          amountOffCents: input.amountOffCents,
          maxUses: input.maxUses,
          validUntil: input.validUntil === null ? null : wallClockToUtc(input.validUntil, event.timeZone),
          gender: input.gender,
        })
        .returning()
        .get();
      return view(row, 0);
    },
    { behavior: "immediate" },
  );
}

export function listPromoCodes(db: Db, eventId: number, now: number): PromoCodeView[] {
  const event = db.select({ id: events.id }).from(events).where(eq(events.id, eventId)).get();
  if (!event) throw NotFound("no such event");
  const codes = db.select().from(promoCodes).where(eq(promoCodes.eventId, eventId)).orderBy(promoCodes.id).all();
  const ids = codes.map((c) => c.id);
  const uses = usesOf(db, ids, now);
  const overruns = overrunsOf(db, ids);
  return codes.map((c) => view(c, uses.get(c.id) ?? 0, overruns.get(c.id) ?? 0));
}

/** Stops a code being applied from now on; bookings that already used it keep their price. Idempotent. */
/** Disables a code (again is a no-op); answers its event, its text and whether this call disabled it. */
export function disablePromoCode(
  db: Db,
  id: number,
  now: number,
): { eventId: number; code: string; disabledNow: boolean } {
  const row = db.select().from(promoCodes).where(eq(promoCodes.id, id)).get();
  if (!row) throw NotFound("no such promo code");
  if (row.disabledAt === null) db.update(promoCodes).set({ disabledAt: now }).where(eq(promoCodes.id, id)).run();
  return { eventId: row.eventId, code: row.code, disabledNow: row.disabledAt === null };
}

const HOUR = 3_600_000;
/**
 * Wrong codes (no such code for the event) per booking and per phone: 10 an hour, a typo or two and
 * then some. Per address a higher ceiling, for many buyers behind one carrier or venue address.
 * Organisers pick guessable words (`STAFF2026`), so without these a loop finds a 100%-off code.
 */
export const PROMO_WRONG_PER_BOOKING: Limit = { bucket: "promo-wrong-booking", max: 10, windowMs: HOUR };
export const PROMO_WRONG_PER_PHONE: Limit = { bucket: "promo-wrong-phone", max: 10, windowMs: HOUR };
export const PROMO_WRONG_PER_ADDRESS: Limit = { bucket: "promo-wrong-address", max: 100, windowMs: HOUR };

/**
 * applyPromo behind the wrong-code limits, as confirm-booking counts door codes: all three are
 * checked before the code is looked at, so past any of them every code is a 429, the right one too,
 * and guessing stays pointless. Only a code the event does not have counts as wrong. Runs with no
 * await, so parallel guesses cannot all pass the check before one is counted.
 */
export function applyPromoLimited(
  db: Db,
  input: { userId: number; eventId: number; code: string; phone: string; address: string },
  now: number,
): AppliedPromo {
  const bookingKey = `${input.eventId}:${input.userId}`;
  assertUnderLimit(db, PROMO_WRONG_PER_BOOKING, bookingKey, now);
  assertUnderLimit(db, PROMO_WRONG_PER_PHONE, input.phone, now);
  assertUnderLimit(db, PROMO_WRONG_PER_ADDRESS, input.address, now);
  try {
    return applyPromo(db, input, now);
  } catch (error) {
    if (error instanceof DomainError && error.code === "promo_not_found") {
      recordHit(db, PROMO_WRONG_PER_BOOKING, bookingKey, now);
      recordHit(db, PROMO_WRONG_PER_PHONE, input.phone, now);
      recordHit(db, PROMO_WRONG_PER_ADDRESS, input.address, now);
    }
    throw error;
  }
}

/**
 * Applies a code to a held booking and answers its new total (`discount` is all that comes off the
 * list price: the early bird and the code). The same code again changes nothing; another code
 * replaces it. A refused code leaves the total as it was. An open checkout of the old amount is
 * closed, so "Proceed to Payment" starts one for the new total.
 */
export function applyPromo(
  db: Db,
  input: { userId: number; eventId: number; code: string },
  now: number,
): AppliedPromo {
  return db.transaction(
    (tx) => {
      const { booking, user, event } = loadBookingContext(tx, input.userId, input.eventId);
      if (booking.status === "paid") throw Conflict("this booking is already paid", "already_paid");
      if (booking.status !== "held" || booking.holdExpiresAt <= now) {
        throw Conflict("the seat hold has expired, please book again", "hold_expired");
      }
      const code = normaliseCode(input.code);
      const promo = tx
        .select()
        .from(promoCodes)
        .where(and(eq(promoCodes.eventId, event.id), eq(promoCodes.code, code)))
        .get();
      if (!promo) throw Conflict("That promo code is not valid for this event.", "promo_not_found");
      const reply = (amountCents: number, discountCents: number) => ({
        amount: amountCents / 100,
        discount: discountCents / 100,
        code: promo.code,
      });
      if (booking.promoCodeId === promo.id) return reply(booking.amountCents, booking.discountCents);
      if (promo.disabledAt !== null || (promo.validUntil !== null && promo.validUntil <= now)) {
        throw Conflict("That promo code has expired.", "promo_expired");
      }
      if (promo.gender !== null && promo.gender !== user.gender) {
        const who = promo.gender === "female" ? "women" : "men";
        throw Conflict(`That promo code is for ${who} only.`, "promo_wrong_gender");
      }
      if (promo.maxUses !== null && (usesOf(tx, [promo.id], now, booking.id).get(promo.id) ?? 0) >= promo.maxUses) {
        throw Conflict("That promo code has been used up.", "promo_used_up");
      }
      const listCents = booking.listPriceCents ?? booking.amountCents + booking.discountCents;
      const price = withCode(
        { listCents, earlyBirdCents: booking.earlyBirdCents },
        { percentOff: promo.percentOff, amountOffCents: promo.amountOffCents },
      );
      const discountCents = price.earlyBirdCents + price.codeCents;
      tx.update(bookings)
        .set({ amountCents: price.amountCents, discountCents, listPriceCents: listCents, promoCodeId: promo.id })
        .where(eq(bookings.id, booking.id))
        .run();
      if (price.amountCents !== booking.amountCents) {
        tx.update(checkoutSessions)
          .set({ status: "cancelled" })
          .where(and(eq(checkoutSessions.bookingId, booking.id), eq(checkoutSessions.status, "open")))
          .run();
      }
      return reply(price.amountCents, discountCents);
    },
    { behavior: "immediate" },
  );
}
