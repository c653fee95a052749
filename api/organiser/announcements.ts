import { and, asc, count, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { ageAllowed } from "../../common/age.ts";
import { ANNOUNCEMENT_SMS_MAX, smsLength, smsTooLongMessage } from "../../common/announcement.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import { type Announcement, announcements, type ConsentChannel } from "../../db/marketing-schema.ts";
import {
  bookings,
  type Event,
  events,
  isWomanOrMan,
  outboxMessages,
  type PersonGender,
  users,
  waitlistEntries,
} from "../../db/schema.ts";
import type { Env } from "../env.ts";
import { BadRequest, Conflict, NotFound } from "../lib/errors.ts";
import { announcementLink, consentingContacts, unsubscribeLink } from "../messaging/consent.ts";
import { enqueueEmail, enqueueMarketingSms } from "../messaging/outbox.ts";
import {
  type AnnouncementEmail,
  announcementEmail,
  announcementSms,
  listUnsubscribeHeaders,
  type MarketingEnv,
} from "../messaging/templates/announcement.ts";
import { ERASED } from "../ops/retention.ts";
import { ORGANISER, recordActivity } from "./activity.ts";
import type { AnnouncementPreview, AnnouncementRow, Recipients } from "./admin-schemas.ts";

// Announcements (issue 36, docs/decisions/034-invitations.md): the organiser invites people who said
// yes to hearing about future events to an upcoming one. Who is asked is decided here; whether each
// address still consents is decided again by the outbox when its message's turn comes.

export type AudienceFilters = Announcement["audience"];

type AnnouncementDeps = { db: Db; env: Env; now: () => number };

/** A person of the audience: a phone, with what the newest details form (or waitlist entry) says. */
type Person = {
  phone: string;
  gender: PersonGender;
  dateOfBirth: string | null;
  /** The newest details form's address, lower case; null for someone only ever on a waitlist. */
  email: string | null;
};

/** The addresses an announcement goes to, each with its marketing contact's id (for the unsubscribe link). */
export type Audience = Record<ConsentChannel, Map<string, number>>;

const hasFilters = (a: AudienceFilters) =>
  a.pastGuests === true || a.ageFit === true || a.gender !== undefined || a.waitlisted === true;

/** Every person known by phone: the newest details form of each, and those only ever on a waitlist. */
function people(db: DbOrTx): Person[] {
  const byPhone = new Map<string, Person>();
  // Oldest first, so the newest row of a phone is the one kept.
  for (const u of db
    .select({ phone: users.phone, gender: users.gender, dateOfBirth: users.dateOfBirth, email: users.email })
    .from(users)
    .orderBy(asc(users.id))
    .all()) {
    if (u.phone === ERASED.phone) continue;
    byPhone.set(u.phone, { ...u, email: u.email === ERASED.email ? null : u.email.trim().toLowerCase() });
  }
  for (const w of db
    .select({ phone: waitlistEntries.phone, gender: waitlistEntries.gender })
    .from(waitlistEntries)
    .orderBy(asc(waitlistEntries.id))
    .all()) {
    if (w.phone === ERASED.phone) continue;
    const known = byPhone.get(w.phone);
    // A details form says more than a waitlist entry; only a waitlist-only person takes the entry's gender.
    if (!known || known.email === null)
      byPhone.set(w.phone, { phone: w.phone, gender: w.gender, dateOfBirth: null, email: null });
  }
  return [...byPhone.values()];
}

/** Phones with a paid booking (not refunded or cancelled) at a night that has ended. */
function pastGuestPhones(db: DbOrTx): Set<string> {
  const rows = db
    .selectDistinct({ phone: bookings.phone })
    .from(bookings)
    .innerJoin(events, eq(events.id, bookings.eventId))
    .where(and(eq(bookings.status, "paid"), eq(events.status, "ended")))
    .all();
  return new Set(rows.map((r) => r.phone));
}

const waitlistedPhones = (db: DbOrTx) =>
  new Set(
    db
      .selectDistinct({ phone: waitlistEntries.phone })
      .from(waitlistEntries)
      .all()
      .map((r) => r.phone),
  );

/**
 * Who already holds a paid seat at the event, not invited to it: their phones, and every address any
 * of their forms gave (an older address they still consent on is still them).
 */
function alreadyBooked(db: DbOrTx, eventId: number): { phones: Set<string>; emails: Set<string> } {
  const phones = new Set(
    db
      .selectDistinct({ phone: bookings.phone })
      .from(bookings)
      .where(and(eq(bookings.eventId, eventId), eq(bookings.status, "paid")))
      .all()
      .map((r) => r.phone),
  );
  const emails = new Set(
    phones.size === 0
      ? []
      : db
          .selectDistinct({ email: users.email })
          .from(users)
          .where(inArray(users.phone, [...phones]))
          .all()
          .map((r) => r.email.trim().toLowerCase()),
  );
  return { phones, emails };
}

/**
 * Who an announcement for `event` reaches on each channel. With no filter, everyone whose newest
 * choice for that channel is a yes; with filters (all of them apply), the people who match, by text
 * when their phone consents and by email when their newest details form's address does. Never an
 * address without current consent for that channel, and never someone already booked.
 */
export function audienceOf(
  db: DbOrTx,
  event: Event,
  filters: AudienceFilters,
  channels: readonly ConsentChannel[],
): Audience {
  const consenting: Audience = {
    sms: channels.includes("sms") ? consentingContacts(db, "sms") : new Map(),
    email: channels.includes("email") ? consentingContacts(db, "email") : new Map(),
  };
  const booked = alreadyBooked(db, event.id);
  const out: Audience = { sms: new Map(), email: new Map() };
  if (!hasFilters(filters)) {
    for (const [address, id] of consenting.sms) if (!booked.phones.has(address)) out.sms.set(address, id);
    for (const [address, id] of consenting.email) if (!booked.emails.has(address)) out.email.set(address, id);
    return out;
  }
  const past = filters.pastGuests ? pastGuestPhones(db) : null;
  const waited = filters.waitlisted ? waitlistedPhones(db) : null;
  for (const person of people(db)) {
    if (booked.phones.has(person.phone)) continue;
    if (past && !past.has(person.phone)) continue;
    if (waited && !waited.has(person.phone)) continue;
    if (filters.gender !== undefined && person.gender !== filters.gender) continue;
    if (filters.ageFit && (person.dateOfBirth === null || !ageAllowed(event, person.gender, person.dateOfBirth).ok)) {
      continue;
    }
    const sms = consenting.sms.get(person.phone);
    if (sms !== undefined) out.sms.set(person.phone, sms);
    if (person.email !== null && !booked.emails.has(person.email)) {
      const email = consenting.email.get(person.email);
      if (email !== undefined) out.email.set(person.email, email);
    }
  }
  return out;
}

export type AnnouncementInput = {
  eventId: number;
  audience: AudienceFilters;
  channels: ConsentChannel[];
  text: string;
};

/** An event that can still be announced: it exists and is upcoming (not started, ended or cancelled). */
function announceableEvent(db: DbOrTx, eventId: number, now: number): Event {
  const event = db.select().from(events).where(eq(events.id, eventId)).get();
  if (!event) throw NotFound("no such event");
  if (event.status === "cancelled")
    throw Conflict("This event was cancelled, so there is nothing to invite people to.", "wrong_state");
  if (event.status !== "upcoming" || event.startsAt <= now) {
    throw Conflict(
      "This event has already started, so invitations to it have closed. Pick an upcoming event.",
      "wrong_state",
    );
  }
  return event;
}

function assertEmailOn(env: Pick<Env, "EMAIL">, channels: readonly ConsentChannel[]) {
  if (channels.includes("email") && env.EMAIL === "off") {
    throw BadRequest("Email is turned off on this server (EMAIL=off), so send this by text message only.");
  }
}

/** The SMS as it arrives for this announcement id; 400 when it would pass the limit. */
function smsOf(env: Env, event: Event, text: string, announcementId: number, check: boolean): string {
  const sms = announcementSms(env, text, announcementLink(env, event.id, announcementId));
  if (check && smsLength(sms) > ANNOUNCEMENT_SMS_MAX) throw BadRequest(smsTooLongMessage(smsLength(sms)));
  return sms;
}

const emailOf = (env: MarketingEnv, event: Event, text: string, link: string, contactId: number): AnnouncementEmail =>
  announcementEmail(env, {
    event,
    text,
    link,
    unsubscribeUrl: unsubscribeLink(env, contactId),
    headers: listUnsubscribeHeaders(env, contactId),
  });

/** The id the next announcement will have, for a preview's link (the real one is known when it is made). */
const nextAnnouncementId = (db: DbOrTx) =>
  (db
    .select({ id: sql<number | null>`max(${announcements.id})` })
    .from(announcements)
    .get()?.id ?? 0) + 1;

/**
 * What the Invite tab shows before sending: how many each channel reaches, and the text and the
 * email exactly as they will arrive, but for the unsubscribe link, which is a sample (no contact's).
 * A text over the limit is previewed, not refused, so the tab can say by how much.
 */
export function previewAnnouncement(deps: AnnouncementDeps, input: AnnouncementInput): AnnouncementPreview {
  const { db, env } = deps;
  assertEmailOn(env, input.channels);
  const event = announceableEvent(db, input.eventId, deps.now());
  const audience = audienceOf(db, event, input.audience, input.channels);
  const id = nextAnnouncementId(db);
  const link = announcementLink(env, event.id, id);
  const sampleUnsubscribe = `${env.PUBLIC_BASE_URL}/unsubscribe?c=SAMPLE&t=SAMPLE`;
  const email = input.channels.includes("email")
    ? announcementEmail(env, { event, text: input.text, link, unsubscribeUrl: sampleUnsubscribe, headers: {} })
    : null;
  return {
    recipients: { sms: audience.sms.size, email: audience.email.size },
    sms: input.channels.includes("sms") ? smsOf(env, event, input.text, id, false) : null,
    email: email ? { subject: email.subject, text: email.text, html: email.html } : null,
  };
}

/**
 * Makes the announcement and queues its messages in one transaction: the row, then one outbox row
 * per address per channel, keyed `announce:{id}:{channel}:{address}`, so each person gets it once
 * however often delivery runs or the server restarts. The outbox sends them at
 * INVITE_RATE_PER_MINUTE and checks each address's consent again when it sends.
 */
export function sendAnnouncement(
  deps: AnnouncementDeps,
  input: AnnouncementInput,
): { id: number; recipients: Recipients } {
  const { env } = deps;
  assertEmailOn(env, input.channels);
  const now = deps.now();
  return deps.db.transaction(
    (tx) => {
      const event = announceableEvent(tx, input.eventId, now);
      const audience = audienceOf(tx, event, input.audience, input.channels);
      const recipients = { sms: audience.sms.size, email: audience.email.size };
      const { id } = tx
        .insert(announcements)
        .values({
          eventId: event.id,
          audience: input.audience,
          channels: input.channels,
          text: input.text,
          recipientsSms: recipients.sms,
          recipientsEmail: recipients.email,
          createdAt: now,
        })
        .returning({ id: announcements.id })
        .get();
      const link = announcementLink(env, event.id, id);
      // Checked with the real id's link: over the limit, the whole transaction (the row too) is undone.
      const sms = input.channels.includes("sms") ? smsOf(env, event, input.text, id, true) : null;
      if (sms !== null) {
        for (const to of audience.sms.keys()) {
          enqueueMarketingSms(tx, { dedupeKey: `announce:${id}:sms:${to}`, to, body: sms }, { announcementId: id });
        }
      }
      for (const [to, contactId] of audience.email) {
        const email = emailOf(env, event, input.text, link, contactId);
        enqueueEmail(tx, { dedupeKey: `announce:${id}:email:${to}`, to, ...email }, env, { announcementId: id });
      }
      recordActivity(
        tx,
        {
          actor: ORGANISER,
          action: "announcement sent",
          eventId: event.id,
          detail: `To ${recipients.sms} by text, ${recipients.email} by email`,
        },
        now,
      );
      return { id, recipients };
    },
    { behavior: "immediate" },
  );
}

/**
 * The event's announcements, newest first, each with its delivery so far (from its outbox rows) and
 * the paid bookings made through its link, by gender. Counts only: no address or name.
 */
export function listAnnouncements(db: Db, eventId: number): AnnouncementRow[] {
  if (!db.select({ id: events.id }).from(events).where(eq(events.id, eventId)).get()) throw NotFound("no such event");
  const rows = db
    .select()
    .from(announcements)
    .where(eq(announcements.eventId, eventId))
    .orderBy(desc(announcements.id))
    .all();
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const progress = new Map<number, AnnouncementRow["progress"]>(
    ids.map((id) => [id, { sent: 0, total: 0, suppressed: 0, failed: 0 }]),
  );
  for (const r of db
    .select({ id: outboxMessages.announcementId, status: outboxMessages.status, n: count() })
    .from(outboxMessages)
    .where(inArray(outboxMessages.announcementId, ids))
    .groupBy(outboxMessages.announcementId, outboxMessages.status)
    .all()) {
    const p = progress.get(r.id ?? 0);
    if (!p) continue;
    p.total += r.n;
    if (r.status === "sent") p.sent += r.n;
    if (r.status === "suppressed") p.suppressed += r.n;
    if (r.status === "failed") p.failed += r.n;
  }
  const booked = new Map<number, AnnouncementRow["booked"]>(ids.map((id) => [id, { total: 0, female: 0, male: 0 }]));
  for (const r of db
    .select({ id: bookings.announcementId, gender: users.gender, n: count() })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .where(
      and(
        isNotNull(bookings.announcementId),
        inArray(bookings.announcementId, ids),
        eq(bookings.eventId, eventId),
        eq(bookings.status, "paid"),
      ),
    )
    .groupBy(bookings.announcementId, users.gender)
    .all()) {
    const b = booked.get(r.id ?? 0);
    if (!b) continue;
    b.total += r.n;
    if (isWomanOrMan(r.gender)) b[r.gender] += r.n;
  }
  return rows.map((r) => ({
    id: r.id,
    createdAt: new Date(r.createdAt).toISOString(),
    channels: r.channels,
    audience: r.audience,
    text: r.text,
    recipients: { sms: r.recipientsSms, email: r.recipientsEmail },
    progress: progress.get(r.id)!,
    booked: booked.get(r.id)!,
  }));
}
