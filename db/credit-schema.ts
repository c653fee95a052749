import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";

// Credit (issue 52, docs/decisions/057-credit.md): a ledger per guest, keyed by the HMAC of the
// verified mobile (api/lib/guest-key.ts), never by the number itself, so it outlives Delete my
// details and RETENTION_DAYS without keeping a phone. The balance is the sum of its entries.

export const creditKinds = ["cancel", "given", "spent", "returned"] as const;
export type CreditKind = (typeof creditKinds)[number];

/**
 * One row per movement, inserted and never updated: `amountCents` is + for credit issued (a cancel
 * taken as credit, the organiser's **Give credit**, a reserved spend given back) and − for credit
 * spent at a checkout. `uniqueKey` names the one thing that made it (`cancel:{bookingId}`,
 * `spend:{checkoutId}`, `return:{checkoutId}`, `given:{activity}`), so a retry or a race records it once.
 * `reason` is the sentence the guest sees in their history.
 */
export const creditEntries = sqliteTable(
  "credit_entries",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    guestKey: text("guest_key").notNull(),
    at: integer("at").notNull(),
    amountCents: integer("amount_cents").notNull(),
    kind: text("kind", { enum: creditKinds }).notNull(),
    reason: text("reason").notNull(),
    bookingId: integer("booking_id"),
    eventId: integer("event_id"),
    uniqueKey: text("unique_key").notNull(),
    createdAt: integer("created_at").notNull().default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [uniqueIndex("credit_entries_unique_key").on(t.uniqueKey), index("credit_entries_guest").on(t.guestKey, t.at)],
);

export type CreditEntry = typeof creditEntries.$inferSelect;
