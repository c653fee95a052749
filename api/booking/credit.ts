import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { type CreditKind, creditEntries } from "../../db/credit-schema.ts";
import type { Env } from "../env.ts";
import { guestKeyOf } from "../lib/guest-key.ts";

/**
 * A guest's credit (issue 52, docs/decisions/057-credit.md): entries in one ledger keyed by the HMAC
 * of the verified number, so the balance follows the number and outlives Delete my details without
 * keeping it. Every write goes through `addCredit` inside the caller's IMMEDIATE transaction, with a
 * key naming the one thing that made it: a retry or a race writes it once.
 */

type KeyEnv = Pick<Env, "SESSION_SECRET">;

export const creditKeyOf = (env: KeyEnv, phone: string) => guestKeyOf(env, phone);

/** The balance of a guest key: the sum of its entries, never negative by construction (spends check it). */
export function creditBalance(db: DbOrTx, guestKey: string): number {
  const row = db
    .select({ total: sql<number>`coalesce(sum(${creditEntries.amountCents}), 0)` })
    .from(creditEntries)
    .where(eq(creditEntries.guestKey, guestKey))
    .get();
  return Number(row?.total ?? 0);
}

/** What /me and Download my data show: the balance and each movement, oldest first. */
export function creditOf(db: DbOrTx, guestKey: string) {
  const history = db
    .select({ at: creditEntries.at, amountCents: creditEntries.amountCents, reason: creditEntries.reason })
    .from(creditEntries)
    .where(eq(creditEntries.guestKey, guestKey))
    .orderBy(asc(creditEntries.at), asc(creditEntries.id))
    .all()
    .map((e) => ({ at: new Date(e.at).toISOString(), amountCents: e.amountCents, reason: e.reason }));
  return { balanceCents: history.reduce((sum, e) => sum + e.amountCents, 0), history };
}

export type CreditEntryInput = {
  guestKey: string;
  amountCents: number;
  kind: CreditKind;
  reason: string;
  uniqueKey: string;
  bookingId?: number;
  eventId?: number;
};

/** Writes one entry unless its key is there already; true when this call wrote it. */
export function addCredit(tx: DbOrTx, entry: CreditEntryInput, now: number): boolean {
  const row = tx
    .insert(creditEntries)
    .values({ ...entry, bookingId: entry.bookingId ?? null, eventId: entry.eventId ?? null, at: now })
    .onConflictDoNothing({ target: creditEntries.uniqueKey })
    .returning({ id: creditEntries.id })
    .get();
  return row !== undefined;
}

/** Credit a booking's cancel gave (as credit, or the credit part back under the policy): 0 when none. */
export function cancelCreditOf(db: DbOrTx, bookingId: number): number {
  return (
    db
      .select({ amountCents: creditEntries.amountCents })
      .from(creditEntries)
      .where(eq(creditEntries.uniqueKey, cancelCreditKey(bookingId)))
      .get()?.amountCents ?? 0
  );
}

export const cancelCreditKey = (bookingId: number) => `cancel:${bookingId}`;
export const spendKey = (checkoutId: string) => `spend:${checkoutId}`;
export const returnKey = (checkoutId: string) => `return:${checkoutId}`;

/**
 * Gives back the credit a checkout spent when it ends without buying the seat (expired, cancelled,
 * its payment returned for want of a seat), once: the key is the checkout's.
 */
export function returnCheckoutCredit(
  tx: DbOrTx,
  checkout: { id: string; bookingId: number; creditCents: number },
  now: number,
): void {
  if (checkout.creditCents <= 0) return;
  const spent = tx
    .select()
    .from(creditEntries)
    .where(eq(creditEntries.uniqueKey, spendKey(checkout.id)))
    .get();
  if (!spent) return;
  addCredit(
    tx,
    {
      guestKey: spent.guestKey,
      amountCents: -spent.amountCents,
      kind: "returned",
      reason: "Credit back: the payment was not completed",
      uniqueKey: returnKey(checkout.id),
      bookingId: checkout.bookingId,
      eventId: spent.eventId ?? undefined,
    },
    now,
  );
}

/** Credit outstanding across every guest: what the organiser owes in nights (the desk's figure). */
export function creditOutstanding(db: DbOrTx): number {
  const row = db
    .select({ total: sql<number>`coalesce(sum(${creditEntries.amountCents}), 0)` })
    .from(creditEntries)
    .get();
  return Number(row?.total ?? 0);
}

/** The cancel-credit entries of some bookings, by booking id (for lists). */
export function cancelCredits(db: DbOrTx, bookingIds: number[]): Map<number, number> {
  if (bookingIds.length === 0) return new Map();
  const rows = db
    .select({ bookingId: creditEntries.bookingId, amountCents: creditEntries.amountCents })
    .from(creditEntries)
    .where(and(inArray(creditEntries.bookingId, bookingIds), eq(creditEntries.kind, "cancel")))
    .orderBy(desc(creditEntries.id))
    .all();
  return new Map(rows.map((r) => [r.bookingId ?? 0, r.amountCents]));
}
