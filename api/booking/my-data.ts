import { createHmac } from "node:crypto";
import { and, eq, inArray, isNotNull, isNull, lt, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { guestSessions } from "../../db/access-schema.ts";
import type { Db } from "../../db/client.ts";
import {
  bookings,
  events,
  feedback,
  outboxMessages,
  phoneVerifications,
  rateLimitHits,
  refunds,
  users,
  waitlistEntries,
  waitlistOffers,
} from "../../db/schema.ts";
import { transferOffers } from "../../db/transfer-schema.ts";
import type { AppDeps } from "../deps.ts";
import { endGuestSessionsOf } from "../lib/guest-session.ts";
import { ERASED, emptyMessages, eraseUsers, unnamedPhotos } from "../ops/retention.ts";
import { creditKeyOf, creditOf } from "./credit.ts";
import { removeStoredFiles } from "./images.ts";
import { deleteKeptDetails, keptForForm } from "./kept-details.ts";
import { consentHistoryOf, emailsOf, eraseMarketingOf } from "./me-consent.ts";
import { transfersOf } from "./transfer.ts";

// What is kept about me, and erasing it (docs/decisions/029-kept-details.md): **Download my data** and
// **Delete my details** on /me. Both read and write only the rows of the session's own number; of
// anyone else, the download holds only what that guest already saw: the name of someone they rated,
// and a mutual match's name and number (the match's report shows both). Never another person's photo,
// phone (outside a match), email or choices.

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** A stand-in for a phone in the log: the same number gives the same tag, and the tag names no one. */
export function phoneTag(secret: string, phone: string): string {
  return createHmac("sha256", secret).update(`log:${phone}`).digest("hex").slice(0, 12);
}

/** The number's bookings with their users row and event, oldest first. */
function bookingRowsOf(db: Db, phone: string) {
  return db
    .select({ booking: bookings, user: users, event: events })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .innerJoin(events, eq(events.id, bookings.eventId))
    .where(eq(bookings.phone, phone))
    .orderBy(bookings.id)
    .all();
}

type BookingRow = ReturnType<typeof bookingRowsOf>[number];

/** Each booking as the download shows it, with its refunds. */
function bookingsShown(db: Db, rows: BookingRow[]) {
  const refundRows =
    rows.length === 0
      ? []
      : db
          .select()
          .from(refunds)
          .where(
            inArray(
              refunds.bookingId,
              rows.map((r) => r.booking.id),
            ),
          )
          .all();
  return rows.map(({ booking, user, event }) => ({
    eventName: event.name,
    eventDate: iso(event.startsAt),
    eventLocation: event.address,
    status: booking.status,
    amountCents: booking.amountCents,
    paidAt: iso(booking.paidAt),
    checkedInAt: iso(booking.checkedInAt),
    ticketCode: booking.status === "paid" ? booking.uniqueCode : null,
    refunds: refundRows
      .filter((r) => r.bookingId === booking.id)
      .map((r) => ({ amountCents: r.amountCents, at: iso(r.createdAt) })),
    details: {
      name: user.name,
      email: user.email,
      dateOfBirth: user.dateOfBirth,
      gender: user.gender,
      photo: user.imageName !== "none.jpg",
    },
    bookedAt: iso(booking.createdAt),
  }));
}

/** The ratings this number's users rows gave, with whom they were about. */
function ratingsGivenBy(db: Db, myUserIds: number[]) {
  const other = alias(users, "other");
  const given =
    myUserIds.length === 0
      ? []
      : db
          .select({
            eventName: events.name,
            aboutName: other.name,
            value: feedback.value,
            ratedBy: feedback.ratedBy,
            at: feedback.updatedAt,
          })
          .from(feedback)
          .innerJoin(events, eq(events.id, feedback.eventId))
          .innerJoin(other, eq(other.id, feedback.toUserId))
          .where(inArray(feedback.fromUserId, myUserIds))
          .orderBy(feedback.id)
          .all();
  return given.map((g) => ({
    eventName: g.eventName,
    about: g.aboutName,
    choice: g.value,
    ratedBy: g.ratedBy,
    at: iso(g.at),
  }));
}

/**
 * Matches: mutual likes on nights whose results are out and where both still hold a paid seat,
 * as the guest's own report lists them (api/night/feedback-report.ts), with the number it shows.
 */
function matchesOf(db: Db, rows: BookingRow[]) {
  const matches: { eventName: string; name: string; phone: string }[] = [];
  const paidMine = rows.filter((r) => r.booking.status === "paid" && r.event.resultsReleasedAt !== null);
  for (const { user, event } of paidMine) {
    if (event.status === "cancelled") continue;
    const likes = db
      .select({ from: feedback.fromUserId, to: feedback.toUserId })
      .from(feedback)
      .where(
        and(
          eq(feedback.eventId, event.id),
          eq(feedback.value, "like"),
          or(eq(feedback.fromUserId, user.id), eq(feedback.toUserId, user.id)),
        ),
      )
      .all();
    const iLike = new Set(likes.filter((l) => l.from === user.id).map((l) => l.to));
    const mutual = likes.filter((l) => l.to === user.id && iLike.has(l.from)).map((l) => l.from);
    if (mutual.length === 0) continue;
    const partners = db
      .select({ name: users.name, phone: users.phone })
      .from(bookings)
      .innerJoin(users, eq(users.id, bookings.userId))
      .where(
        and(
          eq(bookings.eventId, event.id),
          eq(bookings.status, "paid"),
          inArray(users.id, mutual),
          isNotNull(users.phone),
        ),
      )
      .all();
    for (const p of partners) matches.push({ eventName: event.name, name: p.name, phone: p.phone });
  }

  return matches;
}

/** The texts sent to the number, with their words. */
function textsTo(db: Db, phone: string) {
  return db
    .select({
      body: outboxMessages.body,
      status: outboxMessages.status,
      createdAt: outboxMessages.createdAt,
      sentAt: outboxMessages.sentAt,
    })
    .from(outboxMessages)
    .where(eq(outboxMessages.to, phone))
    .orderBy(outboxMessages.id)
    .all()
    .map((t) => ({ body: t.body, status: t.status, createdAt: iso(t.createdAt), sentAt: iso(t.sentAt) }));
}

/**
 * Every message sent to the number and to its email addresses, texts and emails (issue 46): which
 * kind, its subject, its state and times. An email's body is left out: one to an address someone
 * else may also have typed (a confirmation email's link) is not this number's to read.
 */
function messagesTo(db: Db, phone: string, bookingIds: number[]) {
  const emails = emailsOf(db, phone);
  return (
    db
      .select({
        channel: outboxMessages.channel,
        subject: outboxMessages.subject,
        status: outboxMessages.status,
        createdAt: outboxMessages.createdAt,
        sentAt: outboxMessages.sentAt,
      })
      .from(outboxMessages)
      .where(
        or(
          and(eq(outboxMessages.channel, "sms"), eq(outboxMessages.to, phone)),
          bookingIds.length === 0 ? undefined : inArray(outboxMessages.bookingId, bookingIds),
          emails.length === 0
            ? undefined
            : and(eq(outboxMessages.channel, "email"), inArray(sql`lower(${outboxMessages.to})`, emails)),
        ),
      )
      .orderBy(outboxMessages.id)
      .all()
      // Texts and emails: a wallet update goes to a device or to Google, never to the number.
      .filter((m): m is typeof m & { channel: "sms" | "email" } => m.channel === "sms" || m.channel === "email")
      .map((m) => ({ ...m, createdAt: iso(m.createdAt), sentAt: iso(m.sentAt) }))
  );
}

export function myData(deps: Pick<AppDeps, "db" | "now" | "env">, phone: string) {
  const db = deps.db;
  const rows = bookingRowsOf(db, phone);
  const myUserIds = rows.map((r) => r.user.id);
  const bookingsOut = bookingsShown(db, rows);
  const ratingsGiven = ratingsGivenBy(db, myUserIds);
  const matches = matchesOf(db, rows);
  const texts = textsTo(db, phone);
  const messagesSent = messagesTo(
    db,
    phone,
    rows.map((r) => r.booking.id),
  );
  const waitlist = db
    .select({ eventName: events.name, name: waitlistEntries.name, status: waitlistEntries.status })
    .from(waitlistEntries)
    .innerJoin(events, eq(events.id, waitlistEntries.eventId))
    .where(eq(waitlistEntries.phone, phone))
    .orderBy(waitlistEntries.id)
    .all();

  return {
    phone,
    downloadedAt: new Date(deps.now()).toISOString(),
    keptDetails: keptForForm(db, phone),
    bookings: bookingsOut,
    waitlist,
    ratingsGiven,
    matches,
    textsSent: texts,
    messagesSent,
    // Each yes and no to messages about future events, with when, where and the wording's version.
    marketingConsents: consentHistoryOf(db, phone),
    // Tickets given to a friend and taken from one (docs/decisions/058-ticket-transfer.md).
    transfers: transfersOf(db, phone),
    // The number's credit and its history (issue 52): kept after Delete my details, under its key.
    credit: creditOf(db, creditKeyOf(deps.env, phone)),
  };
}

export type MyData = ReturnType<typeof myData>;

/**
 * **Delete my details** (docs/decisions/029 and 039): erases, now, the name, email, date of birth and
 * photos of every booking row of `phone` (as RETENTION_DAYS would later), its name on waitlists, and its
 * kept details; forgets its choices about messages on future events (texts and every email it booked
 * with); empties its messages (texts to the number, the emails of its bookings and to its addresses),
 * cancelling those still waiting; deletes its codes and ends its guest sessions everywhere. A night
 * that is over loses the number and the ticket code too; an upcoming one keeps both until its own
 * erasure, since they are the ticket's key at the door and the only way the organiser reaches the
 * guest before it. The reports' key of the number (api/lib/guest-key.ts) goes from every booking.
 * Amounts, refunds and check-ins stay for the books. Nobody else's row is read for
 * writing: every update is keyed by this phone, its bookings or its addresses.
 */
export async function deleteMyDetails(
  deps: Pick<AppDeps, "db" | "now"> & { uploadsDir: string; guestKey: string },
  phone: string,
): Promise<{ erasedBookings: number }> {
  const now = deps.now();
  const { photos, erasedBookings } = deps.db.transaction(
    (tx) => {
      // Before the emails are erased: both need them to know which addresses were this number's.
      const emails = emailsOf(tx, phone);
      eraseMarketingOf(tx, phone);
      const mine = tx
        .select({ bookingId: bookings.id, userId: bookings.userId })
        .from(bookings)
        .where(eq(bookings.phone, phone))
        .all();
      const bookingIds = mine.map((b) => b.bookingId);
      // The reports' key of the number goes from every booking, those whose number is already erased too.
      tx.update(bookings)
        .set({ guestKey: null })
        .where(or(eq(bookings.phone, phone), eq(bookings.guestKey, deps.guestKey)))
        .run();
      emptyMessages(
        tx,
        or(
          and(eq(outboxMessages.channel, "sms"), eq(outboxMessages.to, phone)),
          bookingIds.length === 0 ? undefined : inArray(outboxMessages.bookingId, bookingIds),
          // An address another number also typed keeps its messages about that number's bookings.
          emails.length === 0
            ? undefined
            : and(
                eq(outboxMessages.channel, "email"),
                isNull(outboxMessages.bookingId),
                inArray(sql`lower(${outboxMessages.to})`, emails),
              ),
        )!,
      );
      const userRows = tx.select({ id: users.id }).from(users).where(eq(users.phone, phone)).all();
      const ids = userRows.map((u) => u.id);
      const userPhotos = ids.length === 0 ? [] : eraseUsers(tx, inArray(users.id, ids), { phone: false });
      tx.update(waitlistEntries).set({ name: ERASED.name }).where(eq(waitlistEntries.phone, phone)).run();
      // Nights that are over: their number and ticket code go now, as the night's erasure would later.
      const over = or(
        inArray(events.status, ["ended", "cancelled"]),
        lt(sql`${events.startsAt} + ${events.durationHours} * 3600000`, now),
      );
      const overEvents = tx.select({ id: events.id }).from(events).where(over);
      const overBookings = tx
        .select({ id: bookings.id, userId: bookings.userId })
        .from(bookings)
        .where(and(eq(bookings.phone, phone), inArray(bookings.eventId, overEvents)))
        .all();
      if (overBookings.length > 0) {
        tx.update(users)
          .set({ phone: ERASED.phone })
          .where(
            inArray(
              users.id,
              overBookings.map((b) => b.userId),
            ),
          )
          .run();
        tx.update(bookings)
          .set({ phone: ERASED.phone, uniqueCode: null })
          .where(
            inArray(
              bookings.id,
              overBookings.map((b) => b.id),
            ),
          )
          .run();
      }
      tx.update(waitlistEntries)
        .set({ phone: ERASED.phone })
        .where(and(eq(waitlistEntries.phone, phone), inArray(waitlistEntries.eventId, overEvents)))
        .run();
      tx.update(waitlistOffers)
        .set({ phone: ERASED.phone })
        .where(and(eq(waitlistOffers.phone, phone), inArray(waitlistOffers.eventId, overEvents)))
        .run();
      // An open offer of a ticket to this number forgets it, and its link stops working.
      tx.update(transferOffers)
        .set({ toPhone: "", status: "replaced", decidedAt: now })
        .where(and(eq(transferOffers.toPhone, phone), eq(transferOffers.status, "open")))
        .run();
      const keptPhotos = deleteKeptDetails(tx, phone);
      tx.delete(phoneVerifications).where(eq(phoneVerifications.phone, phone)).run();
      // Rate limits keyed by the number (codes sent, wrong codes, saves): the hits go, so the limits
      // start again for it. Only its owner can erase (a /me session is a verified code), so the
      // reset is theirs alone, and the limits guard the number from others, not from itself.
      tx.delete(rateLimitHits).where(sql`instr(${rateLimitHits.key}, ${phone}) > 0`).run();
      endGuestSessionsOf(tx, phone, now);
      // Ended above (so whatever watches them sees it), then gone: a session row names the number.
      tx.delete(guestSessions).where(eq(guestSessions.phone, phone)).run();
      return { photos: [...unnamedPhotos(tx, userPhotos), ...keptPhotos], erasedBookings: ids.length };
    },
    { behavior: "immediate" },
  );
  await removeStoredFiles(deps.uploadsDir, photos);
  return { erasedBookings };
}
