import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { events, personGenders } from "./schema.ts";

// Who may do what on a night, and what they did (docs/decisions/022-host-access.md), in a file of its
// own so schema.ts stays the booking side's. drizzle.config.ts lists every schema file.

/**
 * A host link: one night's door and rounds for whoever opens it, until `expiresAt` (6 hours after the
 * event's planned end, fixed when the link is made) or until the organiser revokes it.
 */
export const hostLinks = sqliteTable(
  "host_links",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id),
    label: text("label").notNull(),
    expiresAt: integer("expires_at").notNull(),
    revokedAt: integer("revoked_at"),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("host_links_event").on(t.eventId)],
);

/**
 * A phone signed in through a host link. The session lives only while its link does: revoking the
 * link ends every session opened with it, whichever copy of the cookie is used.
 */
export const hostSessions = sqliteTable(
  "host_sessions",
  {
    id: text("id").primaryKey(),
    linkId: integer("link_id")
      .notNull()
      .references(() => hostLinks.id),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("host_sessions_link").on(t.linkId)],
);

/**
 * The activity log: who (`organiser` or a host link's label) did what, when, to which event and
 * person. The person is an id only; their name is read from users, so erasure leaves no name here.
 * Failed admin logins are one row per 15-minute window (`windowKey`), with `count` attempts; repeats of
 * one change within 15 minutes likewise share a row.
 */
export const activityLog = sqliteTable(
  "activity_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: integer("at").notNull(),
    actor: text("actor").notNull(),
    /** `organiser`, `host` or `system` (api/organiser/activity.ts); null on rows from before it was kept. */
    actorKind: text("actor_kind"),
    action: text("action").notNull(),
    eventId: integer("event_id"),
    userId: integer("user_id"),
    /** A second person the change concerned (a paper card's partner), an id only like `userId`. */
    otherUserId: integer("other_user_id"),
    /** A short note (the refund's amount, the rounds action); never a name, email or phone. */
    detail: text("detail"),
    count: integer("count").notNull().default(1),
    windowKey: text("window_key"),
  },
  (t) => [index("activity_log_event_at").on(t.eventId, t.at), uniqueIndex("activity_log_window").on(t.windowKey)],
);

/**
 * A guest signed in on /me with their mobile and a one-time code (docs/decisions/027-guest-identity.md).
 * The cookie (`sdt_me`) names the row; every call reads it, so **Sign out** (or erasing the guest's
 * details) ends the session for every copy of the cookie. `phone` is the verified number, E.164.
 */
export const guestSessions = sqliteTable(
  "guest_sessions",
  {
    id: text("id").primaryKey(),
    phone: text("phone").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    revokedAt: integer("revoked_at"),
  },
  (t) => [index("guest_sessions_phone").on(t.phone)],
);

/**
 * A guest's details kept for their next booking, because they ticked **Keep my details for next time**
 * (docs/decisions/029-kept-details.md). One row per verified mobile (E.164). The photo is a copy of
 * its own (`imageName`, `thumbName`), so the retention job erasing a night's attendees never takes it;
 * the row and its copy go when the guest deletes their details, or when `lastBookedAt` is 18 months
 * old (api/ops/retention.ts).
 */
export const keptDetails = sqliteTable(
  "kept_details",
  {
    phone: text("phone").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    dateOfBirth: text("date_of_birth").notNull(),
    gender: text("gender", { enum: personGenders }).notNull(),
    imageName: text("image_name").notNull(),
    thumbName: text("thumb_name").notNull(),
    keptAt: integer("kept_at").notNull(),
    /** The number's latest details saved (a seat held); 18 months after it the row is erased. */
    lastBookedAt: integer("last_booked_at").notNull(),
  },
  // Guests who kept their details, by month (the guests-who-come-back report, issue 51).
  (t) => [index("kept_details_kept_at").on(t.keptAt)],
);

export type KeptDetails = typeof keptDetails.$inferSelect;
export type HostLink = typeof hostLinks.$inferSelect;
export type ActivityEntry = typeof activityLog.$inferSelect;
export type GuestSession = typeof guestSessions.$inferSelect;
