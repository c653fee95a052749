import { and, eq, inArray, isNull, lt, ne, or, type SQL, sql } from "drizzle-orm";
import { activityLog } from "../../db/access-schema.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import { contactShares, shareDefaults } from "../../db/rounds-schema.ts";
import {
  bookings,
  events,
  outboxMessages,
  phoneVerifications,
  rateLimitHits,
  users,
  waitlistEntries,
  waitlistOffers,
} from "../../db/schema.ts";
import { transferOffers } from "../../db/transfer-schema.ts";
import { walletPasses, walletRegistrations } from "../../db/wallet-schema.ts";
import { deleteExpiredDocuments } from "../booking/documents.ts";
import { NO_PHOTO, removeStoredFiles } from "../booking/images.ts";
import { expireKeptDetails } from "../booking/kept-details.ts";
import { expireTransferOffers } from "../booking/transfer.ts";
import { deleteDeadGuestSessions } from "../lib/guest-session.ts";
import type { Logger } from "../lib/log.ts";
import { deleteDeadHostSessions } from "../organiser/host-links.ts";

// What is kept and for how long: docs/decisions/012-disk-and-personal-data.md.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** What an erased attendee's row says instead of their name, email and phone. */
export const ERASED = { name: "Erased attendee", email: "erased@invalid", phone: "erased", dateOfBirth: null } as const;
/** A sent SMS keeps its full text this long (for "I never got my code" questions), then its first words. */
export const SMS_BODY_KEEP_MS = 7 * DAY;
const SMS_WORDS_KEPT = 3;
/** Every rate limit counts over a day at most; older hits only record who asked. */
export const RATE_LIMIT_HITS_KEEP_MS = 7 * DAY;
/** Codes are dead ten minutes after they are sent; the row is kept a day, as otp.ts trims it. */
const SPENT_CODES_KEEP_MS = DAY;

type Deps = { db: Db; uploadsDir: string; retentionDays: number; log?: Logger };

/** The first words of a message and an ellipsis; a text that short already is kept whole. */
export function firstWords(body: string): string {
  const words = body.trim().split(/\s+/);
  return words.length <= SMS_WORDS_KEPT ? body : `${words.slice(0, SMS_WORDS_KEPT).join(" ")}…`;
}

/**
 * The retention job, run hourly by the scheduler. RETENTION_DAYS after an event's planned end
 * (start + duration, whatever its status, cancelled included) its attendees' photos are deleted and
 * their names, emails and phones replaced, in bookings, waitlists and users alike; amounts, payment
 * ids, refunds, check-ins and feedback stay for the books. Sent SMS keep their first words after
 * seven days and their number after RETENTION_DAYS. Each event is erased in one transaction that
 * sets `personalDataErasedAt`, so running it again changes nothing.
 */
export async function applyRetention(
  deps: Deps,
  now: number,
): Promise<{ erasedEvents: number[]; shortenedMessages: number; deletedDocuments: number }> {
  const cutoff = now - deps.retentionDays * DAY;
  const due = deps.db
    .select({ id: events.id })
    .from(events)
    .where(
      and(isNull(events.personalDataErasedAt), lt(sql`${events.startsAt} + ${events.durationHours} * ${HOUR}`, cutoff)),
    )
    .orderBy(events.id)
    .all();
  const erasedEvents: number[] = [];
  for (const { id } of due) {
    const photos = eraseEvent(deps.db, id, now);
    // After the commit: a crash here leaves orphans, which the upload sweep deletes.
    await removeStoredFiles(deps.uploadsDir, photos);
    erasedEvents.push(id);
    deps.log?.("info", "personal data erased", { eventId: id });
  }
  // Kept details (docs/decisions/029-kept-details.md) outlive RETENTION_DAYS, until 18 months pass with
  // no booking by their number.
  const expired = expireKeptDetails(deps.db, now);
  await removeStoredFiles(deps.uploadsDir, expired.photos);
  if (expired.phones > 0) deps.log?.("info", "kept details erased", { count: expired.phones });
  // A ticket offered to a friend and not taken by the time the doors opened: the friend's number goes.
  expireTransferOffers(deps.db, now);
  const shortenedMessages = forgetOldMessages(deps.db, now, cutoff);
  // Receipts, invoices and adjustment notes are tax records with no personal data: erasing a night
  // leaves them, and they go 5 years after they were written, whatever RETENTION_DAYS says (decision 032).
  const deletedDocuments = deleteExpiredDocuments(deps.db, now);
  if (deletedDocuments > 0) deps.log?.("info", "documents past their 5 years deleted", { count: deletedDocuments });
  // The activity log names people by id only, and is kept no longer than what it points at.
  deps.db.delete(activityLog).where(lt(activityLog.at, cutoff)).run();
  deps.db
    .delete(rateLimitHits)
    .where(lt(rateLimitHits.at, now - RATE_LIMIT_HITS_KEEP_MS))
    .run();
  deleteDeadHostSessions(deps.db, now);
  // A guest session names a phone: gone once it is signed out or over (docs/decisions/027).
  deleteDeadGuestSessions(deps.db, now);
  deps.db
    .delete(phoneVerifications)
    .where(lt(phoneVerifications.expiresAt, now - SPENT_CODES_KEEP_MS))
    .run();
  return { erasedEvents, shortenedMessages, deletedDocuments };
}

/**
 * Empties the messages `where` picks (docs/decisions/039): no body, HTML, attachments or headers, the
 * address erased, and a key that names no one (an announcement's key holds the address); what proves a
 * message went stays: its channel, subject (an event's name, never a person's), status and times. One
 * still waiting is cancelled: its person is gone.
 */
export function emptyMessages(tx: DbOrTx, where: SQL): number {
  return tx
    .update(outboxMessages)
    .set({
      body: "",
      html: null,
      attachments: null,
      headers: null,
      to: sql`case when ${outboxMessages.channel} = 'sms' then ${ERASED.phone} else ${ERASED.email} end`,
      dedupeKey: sql`'erased:' || ${outboxMessages.id}`,
      status: sql`case when ${outboxMessages.status} = 'pending' then 'cancelled' else ${outboxMessages.status} end`,
    })
    .where(where)
    .run().changes;
}

/** Erases one event's attendees; returns the stored photo names no row names any more. */
function eraseEvent(db: Db, eventId: number, now: number): string[] {
  return db.transaction(
    (tx) => {
      const event = tx.select().from(events).where(eq(events.id, eventId)).get();
      if (!event || event.personalDataErasedAt !== null) return [];
      const attendees = tx.select({ id: bookings.userId }).from(bookings).where(eq(bookings.eventId, eventId));
      const photos = eraseUsers(tx, inArray(users.id, attendees), { phone: true });
      // The night's emails (tickets, receipts, reminders, results) hold names, codes and links: emptied.
      emptyMessages(
        tx,
        inArray(
          outboxMessages.bookingId,
          tx.select({ id: bookings.id }).from(bookings).where(eq(bookings.eventId, eventId)),
        ),
      );
      // The ticket code goes with the number: the night is over, and nothing is let in with it again.
      tx.update(bookings).set({ phone: ERASED.phone, uniqueCode: null }).where(eq(bookings.eventId, eventId)).run();
      // The line is long over; ending anyone still "waiting" also keeps one-entry-per-phone satisfied.
      tx.update(waitlistEntries)
        .set({
          phone: ERASED.phone,
          name: ERASED.name,
          status: sql`case when ${waitlistEntries.status} in ('waiting', 'offered') then 'ended' else ${waitlistEntries.status} end`,
        })
        .where(eq(waitlistEntries.eventId, eventId))
        .run();
      tx.update(waitlistOffers).set({ phone: ERASED.phone }).where(eq(waitlistOffers.eventId, eventId)).run();
      tx.update(transferOffers).set({ toPhone: "" }).where(eq(transferOffers.eventId, eventId)).run();
      // What each match chose to share (an Instagram handle, the chooser's number) goes with the night.
      tx.delete(contactShares).where(eq(contactShares.eventId, eventId)).run();
      tx.delete(shareDefaults).where(eq(shareDefaults.eventId, eventId)).run();
      // The night's wallet passes (issue 50): the phones that keep one (their push tokens) and the rows.
      const nightBookings = tx.select({ id: bookings.id }).from(bookings).where(eq(bookings.eventId, eventId));
      const serials = tx
        .select({ serial: walletPasses.serialNumber })
        .from(walletPasses)
        .where(inArray(walletPasses.bookingId, nightBookings));
      tx.delete(walletRegistrations).where(inArray(walletRegistrations.serialNumber, serials)).run();
      tx.delete(walletPasses).where(inArray(walletPasses.bookingId, nightBookings)).run();
      tx.update(events).set({ personalDataErasedAt: now }).where(eq(events.id, eventId)).run();
      return unnamedPhotos(tx, photos);
    },
    { behavior: "immediate" },
  );
}

/**
 * The eraser: the users rows `where` picks lose their name, email, date of birth and photo (and their
 * phone with `phone: true`, as a night's erasure does); their bookings, amounts, refunds, check-ins and
 * feedback stay for the books. Returns the photo names they named; pass them to unnamedPhotos.
 * Used by the retention job for a night and by a guest's **Delete my details** (now, for their number).
 */
export function eraseUsers(tx: DbOrTx, where: SQL, options: { phone: boolean }): string[] {
  const photos = tx
    .select({ imageName: users.imageName, thumbName: users.thumbName })
    .from(users)
    .where(where)
    .all()
    .flatMap((u) => [u.imageName, u.thumbName])
    .filter((name) => name !== NO_PHOTO);
  // Their sharing choices hold their number and any Instagram handle: gone with the rest.
  tx.delete(contactShares)
    .where(inArray(contactShares.fromUserId, tx.select({ id: users.id }).from(users).where(where)))
    .run();
  tx.delete(shareDefaults)
    .where(inArray(shareDefaults.userId, tx.select({ id: users.id }).from(users).where(where)))
    .run();
  const { phone, ...details } = ERASED;
  tx.update(users)
    // Whom they would like to meet (Mixed nights) goes too: sensitive, and needed only for the night.
    .set({
      ...details,
      ...(options.phone ? { phone } : {}),
      wantsToMeet: null,
      imageName: NO_PHOTO,
      thumbName: NO_PHOTO,
    })
    .where(where)
    .run();
  return photos;
}

/** Of `photos`, the names no users row still names: the ones to delete after the commit. */
export function unnamedPhotos(tx: DbOrTx, photos: string[]): string[] {
  if (photos.length === 0) return [];
  // A name some row still uses is never deleted: a move to another night (issue 52) copies the
  // guest's row, photo name and all, to the new night.
  const stillNamed = new Set(
    tx
      .select({ imageName: users.imageName, thumbName: users.thumbName })
      .from(users)
      .where(or(inArray(users.imageName, photos), inArray(users.thumbName, photos)))
      .all()
      .flatMap((u) => [u.imageName, u.thumbName]),
  );
  return photos.filter((name) => !stillNamed.has(name));
}

/**
 * Sent (or abandoned) messages: after seven days only their first words stay, which drops codes,
 * links and their tokens; an email also loses its HTML and its attachments then (they hold the
 * guest's name, the QR ticket, the receipt), keeping its subject. After RETENTION_DAYS it is emptied
 * (emptyMessages): the number or address it went to goes too. Messages still waiting to go out are
 * never touched here.
 */
function forgetOldMessages(db: Db, now: number, cutoff: number): number {
  const done = inArray(outboxMessages.status, ["sent", "failed", "suppressed"]);
  const when = sql`coalesce(${outboxMessages.sentAt}, ${outboxMessages.createdAt})`;
  // A body already cut to three words has two spaces and no other whitespace: it is not read again,
  // nor is an email whose HTML and attachments are gone.
  const longer = sql`(${outboxMessages.body} like '% % % %' or ${outboxMessages.body} glob ${"*[\t\n\r]*"} or ${outboxMessages.html} is not null or ${outboxMessages.attachments} is not null)`;
  const candidates = db
    .select({ id: outboxMessages.id, body: outboxMessages.body, channel: outboxMessages.channel })
    .from(outboxMessages)
    .where(and(done, lt(when, now - SMS_BODY_KEEP_MS), longer))
    .all();
  let shortened = 0;
  db.transaction((tx) => {
    for (const message of candidates) {
      const body = firstWords(message.body);
      if (message.channel === "sms" && body === message.body) continue;
      tx.update(outboxMessages)
        .set(message.channel === "email" ? { body, html: null, attachments: null } : { body })
        .where(eq(outboxMessages.id, message.id))
        .run();
      shortened++;
    }
    // After RETENTION_DAYS nothing of the message is kept but that it went (its first words can be
    // "Hi Alice,", and an announcement's key names its address): emptied as an erasure empties it.
    emptyMessages(
      tx,
      and(
        done,
        lt(when, cutoff),
        or(ne(outboxMessages.body, ""), sql`${outboxMessages.dedupeKey} not like 'erased:%'`),
      )!,
    );
  });
  return shortened;
}
