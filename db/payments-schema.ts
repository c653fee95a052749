import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

// Two bookkeeping tables of the payments, apart from db/schema.ts so it stays readable in one go.

/**
 * The last document number written: one row, raised inside the IMMEDIATE transaction that writes the
 * document, so numbers are gapless and never reused, even after old documents are deleted.
 */
export const documentCounter = sqliteTable("document_counter", {
  id: integer("id").primaryKey(),
  last: integer("last").notNull(),
});

/** Webhook deliveries already handled, so replays change nothing. */
export const processedWebhookEvents = sqliteTable("processed_webhook_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  processedAt: integer("processed_at").notNull(),
});
