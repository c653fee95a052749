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
import {
  askForEmailConsent,
  type ConsentMailEnv,
  type ConsentState,
  consentStateOf,
  contactAddress,
  hasConsent,
  recordConsent,
  stateOfRecord,
} from "../messaging/consent.ts";
import { ERASED } from "../ops/retention.ts";
import type { MyConsent } from "./me-schemas.ts";

// The signed-in guest's own marketing choices on /me (issue 36, docs/decisions/034-invitations.md):
// the text box is the session's phone; the email box is the newest email address that phone booked
// with (every save of the details form writes a users row, so the newest row is the latest typed).
// Only the session's number is ever read or written here.

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
  const emailState = emailAddress === null ? "no" : consentStateOf(db, "email", emailAddress);
  return { sms: hasConsent(db, "sms", phone), email: emailState === "yes", emailState, emailAddress };
}

/**
 * /me's save: appends a choice only for a box whose state changes, so saving the same state twice
 * leaves one record. The email box needs an address on file: there is nothing to send to otherwise.
 * Ticking it asks the address (askForEmailConsent: `pending` until its owner confirms, at most one
 * email a day); unticking withdraws a yes or a pending request.
 */
export function saveMyConsent(
  db: Db,
  env: ConsentMailEnv,
  phone: string,
  choice: { sms?: boolean; email?: boolean },
  at: number,
): MyConsent {
  return db.transaction(
    (tx) => {
      const current = myConsent(tx, phone);
      if (choice.sms !== undefined && choice.sms !== current.sms)
        recordConsent(tx, { channel: "sms", address: phone, given: choice.sms, source: "me", phone, at });
      if (choice.email !== undefined) {
        if (current.emailAddress === null) {
          throw BadRequest("We have no email address for you yet. Book a night with one, then tick this box.");
        }
        if (choice.email) askForEmailConsent(tx, env, { address: current.emailAddress, source: "me", phone, at });
        else if (current.emailState !== "no")
          recordConsent(tx, { channel: "email", address: current.emailAddress, given: false, source: "me", phone, at });
      }
      return myConsent(tx, phone);
    },
    { behavior: "immediate" },
  );
}

/** Every email address on file for the phone, as the marketing contacts store them. */
export function emailsOf(db: DbOrTx, phone: string): string[] {
  const rows = db
    .selectDistinct({ email: users.email })
    .from(users)
    .where(and(eq(users.phone, phone), ne(users.email, ERASED.email)))
    .all();
  return [...new Set(rows.map((r) => contactAddress("email", r.email)))];
}

/**
 * Delete my details stops marketing by forgetting it (docs/decisions/039): the contacts of the phone's
 * texts and of every email address it booked with go, with every record of them, and so does any
 * record made from this phone's forms. With no record an address is never sent marketing (consent is
 * a yes on the record), and nothing keeps the number or the addresses after the person asked for their
 * details to go. Run it inside the erasing transaction, before the emails are erased: it needs them.
 */
export function eraseMarketingOf(tx: DbOrTx, phone: string): void {
  const contacts = tx
    .select({ id: marketingContacts.id })
    .from(marketingContacts)
    .where(
      or(
        and(eq(marketingContacts.channel, "sms"), eq(marketingContacts.address, contactAddress("sms", phone))),
        and(eq(marketingContacts.channel, "email"), inArray(marketingContacts.address, emailsOf(tx, phone))),
      ),
    )
    .all()
    .map((c) => c.id);
  tx.delete(marketingConsents)
    .where(or(eq(marketingConsents.phone, phone), inArray(marketingConsents.contactId, contacts)))
    .run();
  tx.delete(marketingContacts).where(inArray(marketingContacts.id, contacts)).run();
}

export type ConsentRecord = {
  channel: ConsentChannel;
  given: boolean;
  /** What the record made of the address: an email's yes from a form is `pending` until confirmed. */
  state: ConsentState;
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
    .map((r) => ({
      channel: r.channel,
      given: r.given,
      state: stateOfRecord(r.channel, r),
      source: r.source,
      wording: r.wording,
      at: new Date(r.at).toISOString(),
    }));
}
