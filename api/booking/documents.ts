import { and, asc, eq, lt, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { documentCounter } from "../../db/payments-schema.ts";
import { type Document, type DocumentLine, documents, promoCodes } from "../../db/schema.ts";
import type { Env } from "../env.ts";
import type { BookingContext } from "./checkout.ts";

/**
 * Receipts, tax invoices and adjustment notes (docs/decisions/032-invoices.md). Each is written once,
 * inside the IMMEDIATE transaction that marks its booking paid or records its refund, takes the next
 * number there, and is never updated. This module only inserts and reads `documents`.
 */

/** The seller's details a document copies from the environment when it is written. */
export type SellerEnv = Pick<Env, "BUSINESS_NAME" | "BUSINESS_ABN" | "BUSINESS_ADDRESS" | "GST_REGISTERED">;

/** Documents are kept this long after they were written (tax records), then the retention job deletes them. */
export const DOCUMENT_KEEP_YEARS = 5;
const DAY = 86_400_000;
/** Five years, counted generously (leap days included), so a record is never deleted a day early. */
export const DOCUMENT_KEEP_MS = (DOCUMENT_KEEP_YEARS * 365 + 2) * DAY;

/** `INV-000123`: six digits, more only past 999,999. */
export const documentNumber = (n: number) => `INV-${String(n).padStart(6, "0")}`;

/**
 * From this total a tax invoice names its buyer: the ATO asks a tax invoice of A$1,000 or more
 * (GST included) for the buyer's identity or ABN. A booking holds no ABN, so it is the name and email.
 */
export const BUYER_NAMED_FROM_CENTS = 100_000;

/** A registered seller's GST in a GST-inclusive price: 1/11 of it, to the nearest cent. */
export const gstOf = (cents: number, registered: boolean) => (registered ? Math.round(cents / 11) : 0);

/**
 * The next number, taken inside the caller's IMMEDIATE transaction: the counter row is raised and
 * read in one statement, and rolls back with the document if the transaction does, so no number is
 * skipped or used twice, and none is reused after old documents are deleted.
 */
function nextNumber(tx: DbOrTx): string {
  const row = tx
    .insert(documentCounter)
    .values({ id: 1, last: 1 })
    .onConflictDoUpdate({ target: documentCounter.id, set: { last: sql`${documentCounter.last} + 1` } })
    .returning({ last: documentCounter.last })
    .get();
  return documentNumber(row.last);
}

/**
 * The lines of a sale: the ticket at its list price, the early-bird and the promo code discounts
 * each on their own line, summing to what was paid. A booking from before prices had parts, or one
 * whose payment differs from its parts, shows one line at what was paid.
 */
export function saleLines(ctx: BookingContext, paidCents: number, promoCode: string | null): DocumentLine[] {
  const { booking, event } = ctx;
  const ticket = `Ticket: ${event.name}`;
  const list = booking.listPriceCents;
  const earlyBird = booking.earlyBirdCents;
  const promo = booking.discountCents - earlyBird;
  if (list === null || list - booking.discountCents !== paidCents || promo < 0) {
    return [{ label: ticket, amountCents: paidCents }];
  }
  const lines: DocumentLine[] = [{ label: ticket, amountCents: list }];
  if (earlyBird > 0) lines.push({ label: "Early-bird discount", amountCents: -earlyBird });
  if (promo > 0) lines.push({ label: `Promo code ${promoCode ?? ""}`.trim(), amountCents: -promo });
  return lines;
}

/**
 * Writes the receipt or tax invoice of a booking just marked paid with `paymentIntentId`, once: a
 * booking that already has one keeps it. Call it in the transaction that marks the booking paid.
 */
export function issueSaleDocument(
  tx: DbOrTx,
  env: SellerEnv,
  ctx: BookingContext,
  sale: { paymentIntentId: string; amountCents: number },
  now: number,
): Document {
  const existing = saleDocumentOfBooking(tx, ctx.booking.id);
  if (existing) return existing;
  const promoCode = ctx.booking.promoCodeId
    ? (tx.select({ code: promoCodes.code }).from(promoCodes).where(eq(promoCodes.id, ctx.booking.promoCodeId)).get()
        ?.code ?? null)
    : null;
  return tx
    .insert(documents)
    .values({
      number: nextNumber(tx),
      kind: env.GST_REGISTERED ? "invoice" : "receipt",
      bookingId: ctx.booking.id,
      paymentIntentId: sale.paymentIntentId,
      issuedAt: now,
      ...seller(env),
      eventName: ctx.event.name,
      eventStartsAt: ctx.event.startsAt,
      eventTimeZone: ctx.event.timeZone,
      // Credit paid part (docs/decisions/057-credit.md): the ticket's lines at its price, then the credit
      // on its own line; the total and its GST are the card's part only (the credit's sale was invoiced).
      lines: [
        ...saleLines(ctx, sale.amountCents + ctx.booking.creditCents, promoCode),
        ...(ctx.booking.creditCents > 0 ? [{ label: "Paid by credit", amountCents: -ctx.booking.creditCents }] : []),
      ],
      totalCents: sale.amountCents,
      gstCents: gstOf(sale.amountCents, env.GST_REGISTERED),
      ...(env.GST_REGISTERED && sale.amountCents >= BUYER_NAMED_FROM_CENTS
        ? { buyerName: ctx.user.name, buyerEmail: ctx.user.email }
        : {}),
    })
    .returning()
    .get();
}

/**
 * Writes the adjustment note of a refund just recorded, against the receipt or invoice of the payment
 * refunded, once per payment. A payment with no such document (one that found no seat and was
 * refunded at once, or a second payment for a booking already paid) bought nothing, so there is
 * nothing to adjust and no note is written. GST follows the document adjusted.
 */
export function issueAdjustmentNote(
  tx: DbOrTx,
  env: SellerEnv,
  refund: { paymentIntentId: string; refundId: string; amountCents: number },
  now: number,
): Document | undefined {
  const sale = tx
    .select()
    .from(documents)
    .where(and(eq(documents.paymentIntentId, refund.paymentIntentId), ne(documents.kind, "adjustment")))
    .get();
  if (!sale) return undefined;
  const existing = adjustmentOfPayment(tx, refund.paymentIntentId);
  if (existing) return existing;
  return tx
    .insert(documents)
    .values({
      number: nextNumber(tx),
      kind: "adjustment",
      bookingId: sale.bookingId,
      paymentIntentId: refund.paymentIntentId,
      refundId: refund.refundId,
      relatesTo: sale.number,
      issuedAt: now,
      ...seller(env),
      gstRegistered: sale.gstRegistered,
      eventName: sale.eventName,
      eventStartsAt: sale.eventStartsAt,
      eventTimeZone: sale.eventTimeZone,
      lines: [{ label: `Refund of ${sale.number}: ${sale.eventName}`, amountCents: refund.amountCents }],
      totalCents: refund.amountCents,
      gstCents: gstOf(refund.amountCents, sale.gstRegistered),
      // A note adjusting an invoice that names its buyer names them too.
      buyerName: sale.buyerName,
      buyerEmail: sale.buyerEmail,
    })
    .returning()
    .get();
}

const seller = (env: SellerEnv) => ({
  sellerName: env.BUSINESS_NAME,
  sellerAbn: env.BUSINESS_ABN,
  sellerAddress: env.BUSINESS_ADDRESS,
  gstRegistered: env.GST_REGISTERED,
});

// ---------------------------------------------------------------------------------------------------
// Lookups (the routes here, and the emails that attach the PDFs).

/** A booking's receipt or tax invoice, if it was paid. */
export function saleDocumentOfBooking(db: DbOrTx, bookingId: number): Document | undefined {
  return db
    .select()
    .from(documents)
    .where(and(eq(documents.bookingId, bookingId), ne(documents.kind, "adjustment")))
    .get();
}

/** The adjustment note of a refunded payment, if one was written. */
export function adjustmentOfPayment(db: DbOrTx, paymentIntentId: string): Document | undefined {
  return db
    .select()
    .from(documents)
    .where(and(eq(documents.paymentIntentId, paymentIntentId), eq(documents.kind, "adjustment")))
    .get();
}

/** A booking's documents, oldest first: its receipt or invoice, then any adjustment note. */
export function documentsOfBooking(db: DbOrTx, bookingId: number): Document[] {
  return db.select().from(documents).where(eq(documents.bookingId, bookingId)).orderBy(asc(documents.id)).all();
}

export function documentById(db: DbOrTx, id: number): Document | undefined {
  return db.select().from(documents).where(eq(documents.id, id)).get();
}

export function documentByNumber(db: DbOrTx, number: string): Document | undefined {
  return db.select().from(documents).where(eq(documents.number, number)).get();
}

/** Deletes documents written more than DOCUMENT_KEEP_YEARS before `now` (the retention job). */
export function deleteExpiredDocuments(db: DbOrTx, now: number): number {
  return db
    .delete(documents)
    .where(lt(documents.issuedAt, now - DOCUMENT_KEEP_MS))
    .run().changes;
}
