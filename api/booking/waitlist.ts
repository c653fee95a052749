import { and, asc, eq, inArray, lte, notInArray, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client.ts";
import {
  type Event,
  events,
  isWomanOrMan,
  type PersonGender,
  waitlistEntries,
  waitlistOffers,
} from "../../db/schema.ts";
import { Conflict, NotFound } from "../lib/errors.ts";
import { assertUnderLimit, type Limit, recordHit } from "../lib/rate-limit.ts";
import { recordConsent } from "../messaging/consent.ts";
import { enqueueSms } from "../messaging/outbox.ts";
import { waitlistCancelledText } from "../messaging/templates/waitlist.ts";
import { BOOKING_CLOSED } from "./event-lookup.ts";
import { assertNoPaidBooking, isBalanced, liveHoldOf, seatsLeft, seatsLeftFor, seatUse } from "./seats.ts";
import { closeWaitlist, type OfferDeps, offerFreedSeatsNow, stillWaiting, WAITING } from "./waitlist-offers.ts";

/**
 * The waitlist line of a full event (docs/decisions/015-balanced-rooms-and-waitlist.md): joining it,
 * leaving it, places in it, the organiser's list, and its end when the event is cancelled. People
 * wait per gender at a balanced event and in one line otherwise. Giving freed seats to the people in
 * line (offers, their claim and expiry) is waitlist-offers.ts.
 */

/** People in the same line as `gender` at this event: their gender's at a balanced event, everyone otherwise. */
const sameLine = (event: Event, gender: PersonGender) =>
  isBalanced(event) ? eq(waitlistEntries.gender, gender) : undefined;

/** 1 for the first in line. */
function positionOf(q: DbOrTx, event: Event, entry: { id: number; gender: PersonGender }): number {
  const row = q
    .select({ n: sql<number>`count(*)` })
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.eventId, event.id),
        inArray(waitlistEntries.status, [...WAITING]),
        lte(waitlistEntries.id, entry.id),
        sameLine(event, entry.gender),
      ),
    )
    .get();
  return row?.n ?? 1;
}

/** How many are waiting (or holding an offer) at an event, overall and per gender. */
export function waitlistLength(q: DbOrTx, eventId: number): { total: number; male: number; female: number } {
  const rows = q
    .select({ gender: waitlistEntries.gender, n: sql<number>`count(*)` })
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.eventId, eventId), inArray(waitlistEntries.status, [...WAITING])))
    .groupBy(waitlistEntries.gender)
    .all();
  const length = { total: 0, male: 0, female: 0 };
  for (const row of rows) {
    if (isWomanOrMan(row.gender)) length[row.gender] += row.n;
    length.total += row.n;
  }
  return length;
}

/** What the organiser's list shows: the line, and those whose place closed at the start (kept, texted). */
export const LISTED = [...WAITING, "closed"] as const;

/**
 * The waitlist as the organiser sees it: everyone still in line, with their place in it, then those
 * still waiting when sales closed (status `closed`), with the place they had.
 */
export function listWaitlist(db: DbOrTx, event: Event) {
  const rows = db
    .select()
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.eventId, event.id), inArray(waitlistEntries.status, [...LISTED])))
    .orderBy(asc(waitlistEntries.id))
    .all();
  const seen = { line: { male: 0, female: 0, all: 0 }, closed: { male: 0, female: 0, all: 0 } };
  const ordered = [...rows.filter((r) => r.status !== "closed"), ...rows.filter((r) => r.status === "closed")];
  return ordered.map((row) => {
    const count = seen[row.status === "closed" ? "closed" : "line"];
    if (isWomanOrMan(row.gender)) count[row.gender] += 1;
    count.all += 1;
    return {
      position: isBalanced(event) && isWomanOrMan(row.gender) ? count[row.gender] : count.all,
      name: row.name,
      phone: row.phone,
      gender: row.gender,
      status: row.status,
      joinedAt: new Date(row.createdAt).toISOString(),
    };
  });
}

/**
 * Counts one join against its phone: 10 an hour, 429 after. Checked before it is counted, so a
 * refused join counts nothing. Joining and leaving in a loop costs the others in line nothing.
 */
export const JOINS_PER_PHONE: Limit = { bucket: "join-waitlist-phone", max: 10, windowMs: 3_600_000 };
export function countJoin(db: Db, phone: string, now: number) {
  assertUnderLimit(db, JOINS_PER_PHONE, phone, now);
  recordHit(db, JOINS_PER_PHONE, phone, now);
}

/**
 * Joins the line for a seat of `gender`: only while that gender (or the whole event) is full, so
 * nobody waits for a seat they could book now. 409 for a free seat, a phone already waiting or
 * already holding a paid seat, and once sales closed.
 */
export function joinWaitlist(
  db: Db,
  input: { event: Event; phone: string; gender: PersonGender; name: string; marketingSms?: boolean; now: number },
): { position: number } {
  const { phone, gender, now } = input;
  return db.transaction(
    (tx) => {
      const event = tx.select().from(events).where(eq(events.id, input.event.id)).get() ?? input.event;
      if (event.startsAt <= now) throw Conflict(BOOKING_CLOSED, "booking_closed");
      if (event.status !== "upcoming") throw Conflict("this event is no longer taking bookings", "not_taking_bookings");
      assertNoPaidBooking(tx, event.id, phone);
      // A phone holding a seat waits for nothing: joining would let a buyer keep the seat and a
      // place in line at once (docs/decisions/017-second-review.md).
      if (liveHoldOf(tx, event.id, phone, now)) {
        throw Conflict("this phone holds a seat at this event: pay for it or let it go first", "already_holding");
      }
      if (seatsLeftFor(seatsLeft(event, seatUse(tx, event.id, now)), gender) > 0) {
        throw Conflict("a seat is free: book it instead", "seat_free");
      }
      const already = tx
        .select({ id: waitlistEntries.id })
        .from(waitlistEntries)
        .where(
          and(
            eq(waitlistEntries.eventId, event.id),
            eq(waitlistEntries.phone, phone),
            inArray(waitlistEntries.status, [...WAITING]),
          ),
        )
        .get();
      if (already) throw Conflict("this phone is already on the waitlist", "already_waiting");
      // One row per phone and event: an earlier place the phone left, with no offer ever made on it,
      // is replaced rather than kept, so joining and leaving in a loop leaves one row, not thousands.
      // The new row goes to the end of the line like any newcomer.
      const offered = tx
        .select({ id: waitlistOffers.entryId })
        .from(waitlistOffers)
        .where(eq(waitlistOffers.eventId, event.id));
      tx.delete(waitlistEntries)
        .where(
          and(
            eq(waitlistEntries.eventId, event.id),
            eq(waitlistEntries.phone, phone),
            eq(waitlistEntries.status, "left"),
            notInArray(waitlistEntries.id, offered),
          ),
        )
        .run();
      const entry = tx
        .insert(waitlistEntries)
        .values({ eventId: event.id, phone, gender, name: input.name })
        .returning({ id: waitlistEntries.id, gender: waitlistEntries.gender })
        .get();
      // The box ticked goes on the record with the place in line, or neither does (issue 36).
      if (input.marketingSms) {
        recordConsent(tx, { channel: "sms", address: phone, given: true, source: "waitlist", phone, at: now });
      }
      return { position: positionOf(tx, event, entry) };
    },
    { behavior: "immediate" },
  );
}

/** Leaves the line; an offer still out is withdrawn and its seat passes to the next person. */
export function leaveWaitlist(deps: OfferDeps, input: { eventId: number; phone: string }): void {
  const left = deps.db.transaction(
    (tx) => {
      const entry = tx
        .update(waitlistEntries)
        .set({ status: "left" })
        .where(
          and(
            eq(waitlistEntries.eventId, input.eventId),
            eq(waitlistEntries.phone, input.phone),
            inArray(waitlistEntries.status, [...WAITING]),
          ),
        )
        .returning({ id: waitlistEntries.id })
        .get();
      if (!entry) return false;
      tx.update(waitlistOffers)
        .set({ status: "withdrawn" })
        .where(and(eq(waitlistOffers.entryId, entry.id), inArray(waitlistOffers.status, ["open", "claimed"])))
        .run();
      return true;
    },
    { behavior: "immediate" },
  );
  if (!left) throw NotFound("this phone is not on the waitlist");
  offerFreedSeatsNow(deps, input.eventId);
}

/**
 * The cancelled event's line: everyone still waiting is texted once (the outbox key) and the line
 * closes. Runs inside the cancel's transaction; the keys share cancel-event's `cancel:{eventId}:`
 * prefix, so its delivery run sends them with the attendees' texts.
 */
export function endWaitlist(tx: DbOrTx, event: Event) {
  const waiting = stillWaiting(tx, event.id);
  for (const entry of waiting) {
    enqueueSms(tx, {
      dedupeKey: `cancel:${event.id}:waitlist:${entry.id}`,
      to: entry.phone,
      body: waitlistCancelledText({ event }),
    });
  }
  closeWaitlist(tx, event.id);
  return waiting.length;
}
