import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { bookings } from "./schema.ts";

// A ticket given to a friend (issue 52, docs/decisions/058-ticket-transfer.md): the offer a guest
// makes from their ticket, texted to the friend's number as a signed link (`/transfer?t=`).

export const transferOfferStatuses = ["open", "accepted", "replaced", "expired"] as const;
export type TransferOfferStatus = (typeof transferOfferStatuses)[number];

/**
 * One offer of a paid booking's seat to another number. `toPhone` is the friend's number as the
 * buyer typed it, kept only while the offer is open: accepting, replacing or expiring it blanks it
 * (the friend's own booking then has their number). `acceptedBookingId` is the friend's booking.
 * At most one offer of a booking is open (a new one replaces it).
 */
export const transferOffers = sqliteTable(
  "transfer_offers",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    bookingId: integer("booking_id")
      .notNull()
      .references(() => bookings.id),
    eventId: integer("event_id").notNull(),
    toPhone: text("to_phone").notNull(),
    status: text("status", { enum: transferOfferStatuses }).notNull().default("open"),
    acceptedBookingId: integer("accepted_booking_id"),
    decidedAt: integer("decided_at"),
    createdAt: integer("created_at").notNull().default(sql`(unixepoch('subsec') * 1000)`),
  },
  (t) => [index("transfer_offers_booking").on(t.bookingId, t.status), index("transfer_offers_status").on(t.status)],
);

export type TransferOffer = typeof transferOffers.$inferSelect;
