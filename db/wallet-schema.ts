import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { bookings } from "./schema.ts";

// Wallet passes (issue 50, docs/decisions/053-wallet-passes.md): the passes a ticket was given as,
// and the Apple devices that keep one and want a push when it changes. A pass's content is never
// stored: it is made from the booking and its event each time it is asked for, so it cannot drift.

const createdAt = () => integer("created_at").notNull().default(sql`(unixepoch('subsec') * 1000)`);

/**
 * One row per booking whose ticket was given as a pass (Apple's .pkpass or Google's save link).
 * `serialNumber` is random and names the pass to Apple's devices; the pass's authentication token is
 * an HMAC of it (api/wallet), so none is stored. `updateTag` grows each time what the pass shows
 * changes (a refund, a cancellation, a move of the event); Apple's "passes changed since" lists
 * passes whose tag is above the one a device holds. `googleSavedAt`: a Google save link was made, so
 * Google's copy of the object is updated when the pass changes.
 */
export const walletPasses = sqliteTable(
  "wallet_passes",
  {
    bookingId: integer("booking_id")
      .primaryKey()
      .references(() => bookings.id),
    serialNumber: text("serial_number").notNull(),
    updateTag: integer("update_tag").notNull().default(1),
    /** Epoch ms of the last change the pass shows (Apple's Last-Modified). */
    updatedAt: integer("updated_at").notNull(),
    appleIssuedAt: integer("apple_issued_at"),
    googleSavedAt: integer("google_saved_at"),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("wallet_passes_serial").on(t.serialNumber), index("wallet_passes_tag").on(t.updateTag)],
);

/**
 * An Apple device that added a pass (PassKit web service: register). Its push token is where APNs
 * reaches it; unregistering deletes the row. A device may hold many passes, a pass many devices.
 */
export const walletRegistrations = sqliteTable(
  "wallet_registrations",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    deviceLibraryId: text("device_library_id").notNull(),
    serialNumber: text("serial_number").notNull(),
    pushToken: text("push_token").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("wallet_registrations_device_pass").on(t.deviceLibraryId, t.serialNumber),
    index("wallet_registrations_serial").on(t.serialNumber),
  ],
);
