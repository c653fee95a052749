import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { MARKETING_LABELS } from "../../common/consent-labels.ts";
import type { DbOrTx } from "../../db/client.ts";
import {
  type ConsentChannel,
  type ConsentSource,
  marketingConsents,
  marketingContacts,
} from "../../db/marketing-schema.ts";
import { users } from "../../db/schema.ts";
import type { Env } from "../env.ts";
import { isValidLinkToken, linkToken } from "../lib/capability.ts";
import { hmac } from "../lib/crypto.ts";
import { enqueueEmail } from "./outbox.ts";
import { emailConsentConfirmation } from "./templates/email-consent.ts";
import { senderOf } from "./templates/email-frame.ts";

// Consent to marketing, per channel and on the record (issue 36, docs/decisions/034-invitations.md).
// The Spam Act asks for express consent (an unticked box the person ticks), so a choice is stored
// with when, where and the wording it answered, and the newest choice is the one that counts.

/** The boxes' sentences, shown unticked on the details form, the waitlist and /me. */
export const CONSENT_LABELS: Record<ConsentChannel, string> = MARKETING_LABELS;

/**
 * The version of the boxes' wording stored with each choice. Change it whenever CONSENT_LABELS (or
 * what /privacy says marketing means) changes, so each record says what the person agreed to.
 */
export const CONSENT_WORDING_VERSION = "2026-11-28";

/** The marketing contact's address as stored: an email address in lower case, a phone as given (E.164). */
export const contactAddress = (channel: ConsentChannel, address: string) =>
  channel === "email" ? address.trim().toLowerCase() : address.trim();

/** The contact's id for this address, made the first time it is needed. */
export function contactIdOf(db: DbOrTx, channel: ConsentChannel, address: string, now: number): number {
  const stored = contactAddress(channel, address);
  db.insert(marketingContacts)
    .values({ channel, address: stored, createdAt: now })
    .onConflictDoNothing({ target: [marketingContacts.channel, marketingContacts.address] })
    .run();
  return db
    .select({ id: marketingContacts.id })
    .from(marketingContacts)
    .where(and(eq(marketingContacts.channel, channel), eq(marketingContacts.address, stored)))
    .get()!.id;
}

export type ConsentChoice = {
  channel: ConsentChannel;
  address: string;
  given: boolean;
  source: ConsentSource;
  /** Whose form gave it (E.164); null for an unsubscribe link, which does not say whose it is. */
  phone: string | null;
  at: number;
  wording?: string;
};

/** Appends a choice to the contact's history; the newest one counts. Returns the contact's id. */
export function recordConsent(db: DbOrTx, choice: ConsentChoice): number {
  const contactId = contactIdOf(db, choice.channel, choice.address, choice.at);
  db.insert(marketingConsents)
    .values({
      contactId,
      given: choice.given,
      source: choice.source,
      wording: choice.wording ?? CONSENT_WORDING_VERSION,
      phone: choice.phone,
      at: choice.at,
    })
    .run();
  return contactId;
}

/**
 * Where a contact stands (docs/decisions/039): `yes` may be sent marketing; `pending` asked for it
 * and waits for its confirmation (an email address only); `no` withdrew, or never asked.
 */
export type ConsentState = "yes" | "pending" | "no";

/**
 * What one record says. A text's yes counts at once: its forms only take the number the browser
 * verified, and STOP or START come from the number itself. An email's yes counts only from the
 * address's own confirmation link: a form's tick for an address is anyone's word, so it is a request.
 */
export function stateOfRecord(
  channel: ConsentChannel,
  record: { given: boolean; source: ConsentSource },
): ConsentState {
  if (!record.given) return "no";
  return channel === "email" && record.source !== "confirmation" ? "pending" : "yes";
}

/** The contact's current state: its newest record's (`no` when it has none). */
export function consentStateOfContact(db: DbOrTx, contactId: number): ConsentState {
  const newest = db
    .select({ given: marketingConsents.given, source: marketingConsents.source, channel: marketingContacts.channel })
    .from(marketingConsents)
    .innerJoin(marketingContacts, eq(marketingContacts.id, marketingConsents.contactId))
    .where(eq(marketingConsents.contactId, contactId))
    .orderBy(desc(marketingConsents.id))
    .limit(1)
    .get();
  return newest ? stateOfRecord(newest.channel, newest) : "no";
}

/** Appends a choice for a contact known by id (an unsubscribe link), when it changes the contact's state. */
export function recordConsentOfContact(
  db: DbOrTx,
  contactId: number,
  choice: { given: boolean; source: ConsentSource; at: number },
): void {
  const state = consentStateOfContact(db, contactId);
  // A no withdraws a yes and a pending request alike; a confirmation is a yes whatever came before.
  if (choice.given ? state === "yes" : state === "no") return;
  db.insert(marketingConsents)
    .values({ contactId, ...choice, wording: CONSENT_WORDING_VERSION, phone: null })
    .run();
}

/** Whether the contact may be sent marketing now: its newest choice is a yes (confirmed, for an email). */
export function consentOfContact(db: DbOrTx, contactId: number): boolean {
  return consentStateOfContact(db, contactId) === "yes";
}

/** The contact of this address, if any. */
function contactOf(db: DbOrTx, channel: ConsentChannel, address: string): number | null {
  return (
    db
      .select({ id: marketingContacts.id })
      .from(marketingContacts)
      .where(
        and(eq(marketingContacts.channel, channel), eq(marketingContacts.address, contactAddress(channel, address))),
      )
      .get()?.id ?? null
  );
}

/** Where this address stands now. */
export function consentStateOf(db: DbOrTx, channel: ConsentChannel, address: string): ConsentState {
  const contact = contactOf(db, channel, address);
  return contact === null ? "no" : consentStateOfContact(db, contact);
}

/** Whether this address may be sent marketing now: its newest choice is a yes (confirmed, for an email). */
export function hasConsent(db: DbOrTx, channel: ConsentChannel, address: string): boolean {
  return consentStateOf(db, channel, address) === "yes";
}

/** Every address of the channel whose newest choice is a yes (confirmed, for an email), with its contact id. */
export function consentingContacts(db: DbOrTx, channel: ConsentChannel): Map<string, number> {
  const newest = db
    .select({ contactId: marketingConsents.contactId, id: sql<number>`max(${marketingConsents.id})`.as("newest") })
    .from(marketingConsents)
    .groupBy(marketingConsents.contactId)
    .as("newest");
  const rows = db
    .select({ id: marketingContacts.id, address: marketingContacts.address })
    .from(marketingContacts)
    .innerJoin(newest, eq(newest.contactId, marketingContacts.id))
    .innerJoin(marketingConsents, eq(marketingConsents.id, newest.id))
    .where(
      and(
        eq(marketingContacts.channel, channel),
        eq(marketingConsents.given, true),
        channel === "email" ? eq(marketingConsents.source, "confirmation") : undefined,
      ),
    )
    .all();
  return new Map(rows.map((r) => [r.address, r.id]));
}

/** The current choices of these addresses (absent: never asked, so no). */
export function consentsOf(db: DbOrTx, channel: ConsentChannel, addresses: string[]): Map<string, boolean> {
  const stored = addresses.map((a) => contactAddress(channel, a));
  if (stored.length === 0) return new Map();
  const contacts = db
    .select({ id: marketingContacts.id, address: marketingContacts.address })
    .from(marketingContacts)
    .where(and(eq(marketingContacts.channel, channel), inArray(marketingContacts.address, stored)))
    .all();
  return new Map(contacts.map((c) => [c.address, consentOfContact(db, c.id)]));
}

/**
 * Whether a number behind this email contact still takes marketing texts: a phone that booked with
 * the address, whose own newest choice about texts is a yes. The unsubscribe page says that **My
 * nights** turns those off (issue 46 item 12); which number it is, is never said.
 */
export function textsStillOnFor(db: DbOrTx, contactId: number): boolean {
  const contact = db
    .select({ channel: marketingContacts.channel, address: marketingContacts.address })
    .from(marketingContacts)
    .where(eq(marketingContacts.id, contactId))
    .get();
  if (contact?.channel !== "email") return false;
  const phones = db
    .selectDistinct({ phone: users.phone })
    .from(users)
    .where(sql`lower(${users.email}) = ${contact.address}`)
    .all();
  return phones.some((p) => hasConsent(db, "sms", p.phone));
}

export type ConsentMailEnv = Pick<
  Env,
  "EMAIL" | "SESSION_SECRET" | "PUBLIC_BASE_URL" | "BUSINESS_NAME" | "SUPPORT_EMAIL"
>;

const DAY = 86_400_000;

/**
 * A ticked **Email me about future events** (the details form, /me): the address is asked, by one
 * email with a signed link, and the tick is recorded as a request (`pending`) until the link is used
 * (docs/decisions/039). An address already at yes is left alone; one that unsubscribed stays
 * suppressed, since only its owner's click turns it on. Whoever ticks, the address gets at most one
 * such email a day (the outbox's key names the address by an HMAC and the day). Call it inside the
 * transaction that saves the form. Returns the address's state after.
 */
export function askForEmailConsent(
  tx: DbOrTx,
  env: ConsentMailEnv,
  request: { address: string; source: ConsentSource; phone: string | null; at: number },
): ConsentState {
  const address = contactAddress("email", request.address);
  const state = consentStateOf(tx, "email", address);
  if (state === "yes") return state;
  const contactId =
    state === "pending"
      ? contactIdOf(tx, "email", address, request.at)
      : recordConsent(tx, { ...request, channel: "email", address, given: true });
  const day = Math.floor(request.at / DAY);
  const content = emailConsentConfirmation({ sender: senderOf(env), confirmUrl: emailConsentLink(env, contactId) });
  enqueueEmail(
    tx,
    {
      dedupeKey: `email-consent:${hmac(env.SESSION_SECRET, "email-consent-key", address).slice(0, 24)}:${day}`,
      to: address,
      subject: content.subject,
      text: content.text,
      html: content.html,
    },
    env,
  );
  return "pending";
}

/**
 * The confirmation email's link: `/confirm-email-consent?c={contact}&t=…`, signed for that purpose
 * only, so an unsubscribe link (or any other) cannot confirm, and naming the contact by id.
 */
export const emailConsentLink = (env: Pick<Env, "SESSION_SECRET" | "PUBLIC_BASE_URL">, contactId: number) =>
  `${env.PUBLIC_BASE_URL}/confirm-email-consent?c=${contactId}&t=${linkToken(env, "email-consent", contactId)}`;

export const isValidEmailConsentToken = (env: Pick<Env, "SESSION_SECRET">, contactId: number, token: unknown) =>
  isValidLinkToken(env, "email-consent", [contactId], token);

/**
 * The one-tap way out of a marketing email: `/unsubscribe?c={contact}&t=…`, signed for that purpose
 * (docs/decisions/011). It names the contact by id, so the link does not show whose it is, and it
 * does not expire (the Spam Act asks for 30 days after the message; the issue for at least 60).
 */
export const unsubscribeLink = (env: Pick<Env, "SESSION_SECRET" | "PUBLIC_BASE_URL">, contactId: number) =>
  `${env.PUBLIC_BASE_URL}/unsubscribe?c=${contactId}&t=${unsubscribeToken(env, contactId)}`;

export const unsubscribeToken = (env: Pick<Env, "SESSION_SECRET">, contactId: number) =>
  linkToken(env, "unsubscribe", contactId);

export const isValidUnsubscribeToken = (env: Pick<Env, "SESSION_SECRET">, contactId: number, token: unknown) =>
  isValidLinkToken(env, "unsubscribe", [contactId], token);

/**
 * An announcement's link to its event: the home page opens that event, and `a` rides along the
 * booking (sessionStorage → save-user-details' `announcementId` → bookings.announcement_id), so a
 * booking made through it is counted on the announcement. Nothing else is tracked.
 */
export const announcementLink = (env: Pick<Env, "PUBLIC_BASE_URL">, eventId: number, announcementId: number) =>
  `${env.PUBLIC_BASE_URL}/?event=${eventId}&a=${announcementId}`;

/**
 * The headers of a marketing email (RFC 2369 and RFC 8058): a mail client's own Unsubscribe button
 * POSTs `List-Unsubscribe=One-Click` to the API's address, which withdraws the email consent with no
 * page and no login. The email's body links to the page (`unsubscribeLink`) instead.
 */
export const listUnsubscribeHeaders = (
  env: Pick<Env, "SESSION_SECRET" | "PUBLIC_BASE_URL">,
  contactId: number,
): { "List-Unsubscribe": string; "List-Unsubscribe-Post": string } => ({
  "List-Unsubscribe": `<${env.PUBLIC_BASE_URL}/api/unsubscribe?c=${contactId}&t=${unsubscribeToken(env, contactId)}>`,
  "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
});
