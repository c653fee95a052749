import { sql } from "drizzle-orm";
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { events, genders, users } from "./schema.ts";

// The night's rounds (docs/decisions/019-running-the-night.md), in a file of their own so schema.ts
// stays the booking side's. drizzle.config.ts lists both files.

export const roundsStatuses = ["planned", "running", "paused", "finished"] as const;
export type RoundsStatus = (typeof roundsStatuses)[number];
export const roundsPhases = ["round", "break"] as const;
export type RoundsPhase = (typeof roundsPhases)[number];

/** One round as stored: who sits with whom at which table, and who has no partner this round. */
export type StoredRound = {
  round: number;
  pairs: { table: number; femaleID: number; maleID: number }[];
  sitOut: number[];
};

/**
 * One row per event once its rounds were planned (no row: status "none"). Only the last change is
 * stored: where the clock stood then (`current`, `phase`, `phaseEndsAt`). Every phase after it
 * follows from the settings and the clock, so reading needs no background job and a restart loses
 * nothing; every write first stores where the clock has got to, so new settings never rewrite the past.
 */
export const eventRounds = sqliteTable("event_rounds", {
  eventId: integer("event_id")
    .primaryKey()
    .references(() => events.id),
  status: text("status", { enum: roundsStatuses }).notNull(),
  roundMinutes: integer("round_minutes").notNull(),
  breakMinutes: integer("break_minutes").notNull(),
  maxRounds: integer("max_rounds"),
  seated: text("seated", { enum: genders }).notNull(),
  plan: text("plan", { mode: "json" }).$type<StoredRound[]>().notNull(),
  // Who was present when the plan was last made: anyone present now and not in it is a new arrival.
  plannedFor: text("planned_for", { mode: "json" }).$type<number[]>().notNull(),
  plannedAt: integer("planned_at").notNull(),
  // The pairs of those planned for who met at an earlier night, `[femaleID, maleID]`, found when the
  // plan was made (docs/decisions/030-nobody-across-the-table-twice.md): the console counts the
  // plan's pairs among them.
  metBefore: text("met_before", { mode: "json" }).$type<[number, number][]>().notNull().default(sql`'[]'`),
  // The round that started last (1-based); null before the start.
  current: integer("current"),
  phase: text("phase", { enum: roundsPhases }),
  // When the current phase ends while running; null while paused (see pausedRemainingMs) or not running.
  phaseEndsAt: integer("phase_ends_at"),
  pausedRemainingMs: integer("paused_remaining_ms"),
  // The host's **Announce** (issue 37): shown on the room's screen and the guests' phones while the
  // round it was made in (and its changeover) lasts; null when there is none.
  announcement: text("announcement"),
  announcementRound: integer("announcement_round"),
  updatedAt: integer("updated_at").notNull(),
});

export type EventRounds = typeof eventRounds.$inferSelect;

export const guestAudiences = ["all", "arrived", "not_arrived"] as const;
export type GuestAudience = (typeof guestAudiences)[number];

/**
 * **Message guests** (docs/decisions/019-running-the-night.md): one row per message sent to a night's
 * guests. Its id keys the texts in the outbox (`message:{eventId}:{id}:{userId}`), so each guest gets
 * a message once, across retries and restarts; the rows of the last hour are the rate limit.
 * `clientKey` is the sender's own id for the message (one per dialog), so a retried send is the same
 * message, not a second one.
 */
export const guestMessages = sqliteTable(
  "guest_messages",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id),
    clientKey: text("client_key"),
    audience: text("audience", { enum: guestAudiences }).notNull(),
    text: text("text").notNull(),
    actor: text("actor").notNull(),
    /** How many guests it was queued for. */
    recipients: integer("recipients").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("guest_messages_client_key").on(t.eventId, t.clientKey),
    index("guest_messages_event_time").on(t.eventId, t.createdAt),
  ],
);

/**
 * **Keep apart** (docs/decisions/030-nobody-across-the-table-twice.md): two guests of an event whom the
 * organiser marked never to be seated together (exes, siblings, colleagues). One row a pair, the
 * lower user id first; unmarking deletes it. Ids only: the names are read from users, so erasure
 * leaves none here.
 */
export const keepApart = sqliteTable(
  "keep_apart",
  {
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id),
    userA: integer("user_a")
      .notNull()
      .references(() => users.id),
    userB: integer("user_b")
      .notNull()
      .references(() => users.id),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.userA, t.userB] })],
);

export const shareChoices = ["mobile", "email", "instagram", "nothing"] as const;
export type ShareChoice = (typeof shareChoices)[number];

/**
 * What a guest lets one match see (issue 37): **Mobile**, **Email**, **Instagram** (the handle they
 * typed) or **Nothing**, chosen on the report page. Without a row, the night's `share_defaults` row
 * for the chooser is the default. Erased with the night's other personal data (api/ops/retention.ts).
 */
export const contactShares = sqliteTable(
  "contact_shares",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id),
    fromUserId: integer("from_user_id")
      .notNull()
      .references(() => users.id),
    toUserId: integer("to_user_id")
      .notNull()
      .references(() => users.id),
    phone: text("phone").notNull(),
    share: text("share", { enum: shareChoices }).notNull(),
    instagram: text("instagram"),
    updatedAt: integer("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("contact_shares_pair").on(t.eventId, t.fromUserId, t.toUserId),
    index("contact_shares_phone").on(t.phone, t.updatedAt),
  ],
);

/**
 * Each guest's default for the matches of a night they have not chosen for, set once when the night's
 * results are released: their last choice made before then at another night (by their number), or
 * Mobile (docs/decisions/040-sharing-defaults-and-stream-rights.md). Stored so that a choice made
 * later, at this night or any other, never changes it. Erased with the night and by Delete my details.
 */
export const shareDefaults = sqliteTable(
  "share_defaults",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    share: text("share", { enum: shareChoices }).notNull(),
    instagram: text("instagram"),
  },
  (t) => [uniqueIndex("share_defaults_guest").on(t.eventId, t.userId)],
);
