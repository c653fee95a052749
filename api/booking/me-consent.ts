import { and, asc, desc, eq, inArray, ne, or } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client.ts";
import {
  type ConsentChannel,
  type ConsentSource,
  marketingConsents,
  marketingContacts,
} from "../../db/marketing-schema.ts";
import { users } from "../../db/schema.ts";
import { BadRequest } from "../lib/errors.ts";
import { contactAddress, hasConsent, recordConsent } from "../messaging/consent.ts";
import { ERASED } from "../ops/retention.ts";

// The signed-in guest's own marketing choices on /me (issue 36, docs/decisions/034-invitations.md):
// the text box is the session's phone; the email box is the newest email address that phone booked
// with (every save of the details form writes a users row, so the newest row is the latest typed).
// Only the session's number is ever read or written here.

export type MyConsent = { sms: boolean; email: boolean; emailAddress: string | null };

/** The newest email this phone booked with, or null (none yet, or erased by Delete my details). */
export function newestEmailOf(db: DbOrTx, phone: string): string | null {
  const row = db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.phone, phone), ne(users.email, ERASED.email)))
    .orderBy(desc(users.id))
    .limit(1)
    .get();
  return row?.email ?? null;
}

export function myConsent(db: DbOrTx, phone: string): MyConsent {
  const emailAddress = newestEmailOf(db, phone);
  return {
    sms: hasConsent(db, "sms", phone),
    email: emailAddress !== null && hasConsent(db, "email", emailAddress),
    emailAddress,
  };
}

/**
 * /me's save: appends a choice only for a box whose state changes, so saving the same state twice
 * leaves one record. The email box needs an address on file: there is nothing to send to otherwise.
 */
export function saveMyConsent(
  db: Db,
  phone: string,
  choice: { sms?: boolean; email?: boolean },
  at: number,
): MyConsent {
  return db.transaction(
    (tx) => {
      const current = myConsent(tx, phone);
      const record = (channel: ConsentChannel, address: string, given: boolean) =>
        recordConsent(tx, { channel, address, given, source: "me", phone, at });
      if (choice.sms !== undefined && choice.sms !== current.sms) record("sms", phone, choice.sms);
      if (choice.email !== undefined && choice.email !== current.email) {
        if (current.emailAddress === null) {
          throw BadRequest("We have no email address for you yet. Book a night with one, then tick this box.");
        }
        record("email", current.emailAddress, choice.email);
      }
      return myConsent(tx, phone);
    },
    { behavior: "immediate" },
  );
}

/** Every email address on file for the phone, as the marketing contacts store them. */
function emailsOf(db: DbOrTx, phone: string): string[] {
  const rows = db
    .selectDistinct({ email: users.email })
    .from(users)
    .where(and(eq(users.phone, phone), ne(users.email, ERASED.email)))
    .all();
  return [...new Set(rows.map((r) => contactAddress("email", r.email)))];
}

/**
 * Delete my details stops marketing too: a "no" is appended for the phone's texts and for every email
 * address it booked with, inside the erasing transaction (run it before the emails are erased). Only
 * an address that said yes gets one: a "no" for an address never asked would store, after the person
 * asked for their details to go, an address nothing else holds any more.
 */
export function withdrawAllOf(tx: DbOrTx, phone: string, at: number): void {
  const addresses: [ConsentChannel, string][] = [
    ["sms", phone],
    ...emailsOf(tx, phone).map((email): [ConsentChannel, string] => ["email", email]),
  ];
  for (const [channel, address] of addresses) {
    if (hasConsent(tx, channel, address))
      recordConsent(tx, { channel, address, given: false, source: "me", phone, at });
  }
}

export type ConsentRecord = {
  channel: ConsentChannel;
  given: boolean;
  source: ConsentSource;
  wording: string;
  at: string;
};

/**
 * Download my data's consent history: every choice about the phone's texts and its email addresses on
 * file, and every choice made from this phone's own forms (which still names an email address after
 * Delete my details erased it from the bookings). Oldest first.
 */
export function consentHistoryOf(db: DbOrTx, phone: string): ConsentRecord[] {
  const emails = emailsOf(db, phone);
  const contacts = db
    .select({ id: marketingContacts.id })
    .from(marketingContacts)
    .where(
      or(
        and(eq(marketingContacts.channel, "sms"), eq(marketingContacts.address, contactAddress("sms", phone))),
        emails.length === 0
          ? undefined
          : and(eq(marketingContacts.channel, "email"), inArray(marketingContacts.address, emails)),
      ),
    )
    .all()
    .map((c) => c.id);
  return db
    .select({
      channel: marketingContacts.channel,
      given: marketingConsents.given,
      source: marketingConsents.source,
      wording: marketingConsents.wording,
      at: marketingConsents.at,
    })
    .from(marketingConsents)
    .innerJoin(marketingContacts, eq(marketingContacts.id, marketingConsents.contactId))
    .where(
      or(
        eq(marketingConsents.phone, phone),
        contacts.length === 0 ? undefined : inArray(marketingConsents.contactId, contacts),
      ),
    )
    .orderBy(asc(marketingConsents.id))
    .all()
    .map((r) => ({ ...r, at: new Date(r.at).toISOString() }));
}
