import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { events } from "./schema.ts";

// Inviting guests back (issue 36, docs/decisions/034-invitations.md): who said yes to hearing about
// future events, on which channel, and what the organiser sent them. In a file of its own so
// schema.ts stays the booking side's; drizzle.config.ts lists every schema file.

export const consentChannels = ["sms", "email"] as const;
export type ConsentChannel = (typeof consentChannels)[number];

/**
 * Where a choice was made: a form's box, a reply to a text, an unsubscribe link, or the link of the
 * email that asks an address to confirm (`confirmation`): the only source of an email's yes
 * (docs/decisions/039); a form's yes for an email address is a request, `pending` until then.
 */
export const consentSources = ["booking", "me", "waitlist", "inbound", "unsubscribe", "confirmation"] as const;
export type ConsentSource = (typeof consentSources)[number];

/**
 * An address marketing may reach: a phone (E.164) for texts, an email address (lower case) for email.
 * Its id is what an unsubscribe link names, so the link never carries the address itself.
 */
export const marketingContacts = sqliteTable(
  "marketing_contacts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    channel: text("channel", { enum: consentChannels }).notNull(),
    address: text("address").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [uniqueIndex("marketing_contacts_address").on(t.channel, t.address)],
);

/**
 * Every choice, appended and never changed (the Spam Act's consent, on the record): the contact's
 * current state is its newest row. `wording` is the version of the box's sentence the person saw;
 * `phone` is whose form gave it (null for an unsubscribe link, which does not say whose it is).
 */
export const marketingConsents = sqliteTable(
  "marketing_consents",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    contactId: integer("contact_id")
      .notNull()
      .references(() => marketingContacts.id),
    given: integer("given", { mode: "boolean" }).notNull(),
    source: text("source", { enum: consentSources }).notNull(),
    wording: text("wording").notNull(),
    phone: text("phone"),
    at: integer("at").notNull(),
  },
  (t) => [index("marketing_consents_contact").on(t.contactId, t.id)],
);

/**
 * What the organiser sent to invite people to `eventId`. `audience` and `channels` as chosen;
 * `recipientsSms`/`recipientsEmail` as counted when it was queued. Its outbox rows carry its id
 * (progress), and a booking made through its link does too (how many booked).
 */
export const announcements = sqliteTable(
  "announcements",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    eventId: integer("event_id")
      .notNull()
      .references(() => events.id),
    audience: text("audience", { mode: "json" })
      .notNull()
      .$type<{ pastGuests?: boolean; ageFit?: boolean; gender?: "male" | "female"; waitlisted?: boolean }>(),
    channels: text("channels", { mode: "json" }).notNull().$type<ConsentChannel[]>(),
    text: text("text").notNull(),
    recipientsSms: integer("recipients_sms").notNull(),
    recipientsEmail: integer("recipients_email").notNull(),
    createdAt: integer("created_at").notNull(),
  },
  (t) => [index("announcements_event").on(t.eventId)],
);

export type MarketingContact = typeof marketingContacts.$inferSelect;
export type MarketingConsent = typeof marketingConsents.$inferSelect;
export type Announcement = typeof announcements.$inferSelect;

/**
 * Texts sent to our number that were taken, by Twilio's `MessageSid` (issue 46 item 17). Twilio's
 * signature carries no timestamp, so a signed STOP or START seen once could be sent again at will:
 * each sid is acted on once, and a repeat changes nothing. Only the sid and when: no number, no text.
 */
export const inboundSmsTaken = sqliteTable("inbound_sms_taken", {
  sid: text("sid").primaryKey(),
  takenAt: integer("taken_at").notNull(),
});
