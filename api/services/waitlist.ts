import { and, asc, eq, inArray, lte, ne, or, sql } from "drizzle-orm";
import { formatVenueTime } from "../../common/time-zone.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import {
  bookings,
  type Event,
  events,
  type Gender,
  type WaitlistOffer,
  waitlistEntries,
  waitlistOffers,
} from "../../db/schema.ts";
import type { Env } from "../env.ts";
import { isValidLinkToken, linkToken } from "../lib/capability.ts";
import { Conflict, Forbidden, Gone, NotFound } from "../lib/errors.ts";
import type { Logger } from "../lib/log.ts";
import type { SmsProvider } from "../providers/sms/types.ts";
import { BOOKING_CLOSED } from "./holds.ts";
import { deliverPending, enqueueSms } from "./outbox.ts";
import { assertNoPaidBooking, isBalanced, liveOffer, seatsLeft, seatsLeftFor, seatUse } from "./seats.ts";

/**
 * The waitlist of a full event (docs/decisions/015-balanced-rooms-and-waitlist.md). People wait per
 * gender at a balanced event and in one line otherwise. Whenever a seat frees up, the first person
 * waiting for it gets an offer: the seat is kept for them for WAITLIST_OFFER_MINUTES (never past the
 * start) and texted as a signed link. Offers are made by `offerFreedSeats`, which the actions that
 * free a seat call at once and the scheduler runs every tick (expired holds and offers free seats by
 * the clock alone). It works in one IMMEDIATE transaction, so concurrent calls never offer one seat
 * twice, and it only ever acts on what the database says now, so running it again changes nothing.
 */

type Deps = { db: Db; env: Pick<Env, "PUBLIC_BASE_URL" | "SESSION_SECRET" | "WAITLIST_OFFER_MINUTES"> };
/** What an action that frees a seat needs to offer it and text the offer at once. */
export type OfferDeps = Deps & { sms: SmsProvider; log: Logger; now: () => number };

const WAITING = ["waiting", "offered"] as const;

export const waitlistOfferLink = (env: Deps["env"], offerId: number) =>
  `${env.PUBLIC_BASE_URL}/waitlist-offer?o=${offerId}&t=${linkToken(env, "waitlist-offer", offerId)}`;

const takingBookings = (event: Event, now: number) => event.status === "upcoming" && event.startsAt > now;

/** People in the same line as `gender` at this event: their gender's at a balanced event, everyone otherwise. */
const sameLine = (event: Event, gender: Gender) => (isBalanced(event) ? eq(waitlistEntries.gender, gender) : undefined);

/** 1 for the first in line. */
function positionOf(q: DbOrTx, event: Event, entry: { id: number; gender: Gender }): number {
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
    length[row.gender] += row.n;
    length.total += row.n;
  }
  return length;
}

/** The waitlist as the organiser sees it: everyone still in line, with their place in it. */
export function listWaitlist(db: Db, event: Event) {
  const rows = db
    .select()
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.eventId, event.id), inArray(waitlistEntries.status, [...WAITING])))
    .orderBy(asc(waitlistEntries.id))
    .all();
  const seen = { male: 0, female: 0, all: 0 };
  return rows.map((row) => {
    seen[row.gender] += 1;
    seen.all += 1;
    return {
      position: isBalanced(event) ? seen[row.gender] : seen.all,
      name: row.name,
      phone: row.phone,
      gender: row.gender,
      status: row.status,
      joinedAt: new Date(row.createdAt).toISOString(),
    };
  });
}

/**
 * Joins the line for a seat of `gender`: only while that gender (or the whole event) is full, so
 * nobody waits for a seat they could book now. 409 for a free seat, a phone already waiting or
 * already holding a paid seat, and once sales closed.
 */
export function joinWaitlist(
  db: Db,
  input: { event: Event; phone: string; gender: Gender; name: string; now: number },
): { position: number } {
  const { phone, gender, now } = input;
  return db.transaction(
    (tx) => {
      const event = tx.select().from(events).where(eq(events.id, input.event.id)).get() ?? input.event;
      if (event.startsAt <= now) throw Conflict(BOOKING_CLOSED, "booking_closed");
      if (event.status !== "upcoming") throw Conflict("this event is no longer taking bookings", "not_taking_bookings");
      assertNoPaidBooking(tx, event.id, phone);
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
      const entry = tx
        .insert(waitlistEntries)
        .values({ eventId: event.id, phone, gender, name: input.name })
        .returning({ id: waitlistEntries.id, gender: waitlistEntries.gender })
        .get();
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
 * Makes every offer that is due: first it lapses offers that ran out (their person loses the place)
 * and closes the lines of events that stopped taking bookings, then it gives each free seat to the
 * first person waiting for it. Returns how many offers it made.
 */
export function offerFreedSeats(deps: Deps, now: number, eventId?: number): number {
  const { db, env } = deps;
  return db.transaction(
    (tx) => {
      const lapsed = tx
        .update(waitlistOffers)
        .set({ status: "expired" })
        .where(
          and(
            inArray(waitlistOffers.status, ["open", "claimed"]),
            lte(waitlistOffers.expiresAt, now),
            eventId === undefined ? undefined : eq(waitlistOffers.eventId, eventId),
          ),
        )
        .returning({ entryId: waitlistOffers.entryId })
        .all();
      if (lapsed.length > 0) {
        tx.update(waitlistEntries)
          .set({ status: "lapsed" })
          .where(
            and(
              inArray(
                waitlistEntries.id,
                lapsed.map((o) => o.entryId),
              ),
              eq(waitlistEntries.status, "offered"),
            ),
          )
          .run();
      }
      const withLines = tx
        .selectDistinct({ event: events })
        .from(waitlistEntries)
        .innerJoin(events, eq(events.id, waitlistEntries.eventId))
        .where(
          and(
            eq(waitlistEntries.status, "waiting"),
            eventId === undefined ? undefined : eq(waitlistEntries.eventId, eventId),
          ),
        )
        .all();
      let made = 0;
      for (const { event } of withLines) {
        if (!takingBookings(event, now)) {
          closeWaitlist(tx, event.id);
          continue;
        }
        // Someone who booked a seat on their own (it freed up while they were waiting) is out of line.
        tx.update(waitlistEntries)
          .set({ status: "booked" })
          .where(
            and(
              eq(waitlistEntries.eventId, event.id),
              eq(waitlistEntries.status, "waiting"),
              inArray(
                waitlistEntries.phone,
                tx
                  .select({ phone: bookings.phone })
                  .from(bookings)
                  .where(and(eq(bookings.eventId, event.id), eq(bookings.status, "paid"))),
              ),
            ),
          )
          .run();
        const left = seatsLeft(event, seatUse(tx, event.id, now));
        const lines: { gender?: Gender; free: number }[] = isBalanced(event)
          ? [
              { gender: "male", free: seatsLeftFor(left, "male") },
              { gender: "female", free: seatsLeftFor(left, "female") },
            ]
          : [{ free: left.total }];
        // A gender's seats never exceed the room's: what one line takes is no longer free for the other.
        let room = left.total;
        for (const line of lines) {
          const free = Math.min(line.free, room);
          if (free <= 0) continue;
          const next = tx
            .select()
            .from(waitlistEntries)
            .where(
              and(
                eq(waitlistEntries.eventId, event.id),
                eq(waitlistEntries.status, "waiting"),
                line.gender ? eq(waitlistEntries.gender, line.gender) : undefined,
              ),
            )
            .orderBy(asc(waitlistEntries.id))
            .limit(free)
            .all();
          room -= next.length;
          for (const entry of next) {
            const expiresAt = Math.min(now + env.WAITLIST_OFFER_MINUTES * 60_000, event.startsAt);
            const offer = tx
              .insert(waitlistOffers)
              .values({ entryId: entry.id, eventId: event.id, phone: entry.phone, gender: entry.gender, expiresAt })
              .returning({ id: waitlistOffers.id })
              .get();
            tx.update(waitlistEntries).set({ status: "offered" }).where(eq(waitlistEntries.id, entry.id)).run();
            enqueueSms(tx, {
              dedupeKey: `waitlist-offer:${offer.id}`,
              to: entry.phone,
              body: `A seat is free at ${event.name}, ${formatVenueTime(event.startsAt, event.timeZone)}. It is kept for you until ${formatVenueTime(expiresAt, event.timeZone)}: ${waitlistOfferLink(env, offer.id)}`,
            });
            made += 1;
          }
        }
      }
      // Lines of events that stopped taking bookings with only offers out (the start passed mid-offer).
      const closed = tx
        .selectDistinct({ id: events.id })
        .from(waitlistEntries)
        .innerJoin(events, eq(events.id, waitlistEntries.eventId))
        .where(
          and(
            eq(waitlistEntries.status, "offered"),
            or(ne(events.status, "upcoming"), lte(events.startsAt, now)),
            eventId === undefined ? undefined : eq(events.id, eventId),
          ),
        )
        .all();
      for (const event of closed) closeWaitlist(tx, event.id);
      return made;
    },
    { behavior: "immediate" },
  );
}

/**
 * For the actions that free a seat (a refund, a released hold, a leaver, added seats): the offers are
 * made now and their texts sent now rather than at the scheduler's next tick. The outbox's claim
 * keeps the scheduler from sending one twice.
 */
export function offerFreedSeatsNow(deps: OfferDeps, eventId: number): number {
  const made = offerFreedSeats(deps, deps.now(), eventId);
  if (made > 0) {
    deliverPending(deps, { dedupePrefix: "waitlist-offer:" }).catch((error: unknown) =>
      deps.log("warn", "waitlist offers not sent yet; the scheduler retries", { error: String(error) }),
    );
  }
  return made;
}

/** Ends an event's line: nobody is offered a seat any more and offers still out are withdrawn. */
function closeWaitlist(tx: DbOrTx, eventId: number) {
  tx.update(waitlistEntries)
    .set({ status: "ended" })
    .where(and(eq(waitlistEntries.eventId, eventId), inArray(waitlistEntries.status, [...WAITING])))
    .run();
  tx.update(waitlistOffers)
    .set({ status: "withdrawn" })
    .where(and(eq(waitlistOffers.eventId, eventId), inArray(waitlistOffers.status, ["open", "claimed"])))
    .run();
}

/**
 * The cancelled event's line: everyone still waiting is texted once (the outbox key) and the line
 * closes. Runs inside the cancel's transaction; the keys share cancel-event's `cancel:{eventId}:`
 * prefix, so its delivery run sends them with the attendees' texts.
 */
export function endWaitlist(tx: DbOrTx, event: Event) {
  const waiting = tx
    .select({ id: waitlistEntries.id, phone: waitlistEntries.phone })
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.eventId, event.id), inArray(waitlistEntries.status, [...WAITING])))
    .all();
  for (const entry of waiting) {
    enqueueSms(tx, {
      dedupeKey: `cancel:${event.id}:waitlist:${entry.id}`,
      to: entry.phone,
      body: `${event.name} on ${formatVenueTime(event.startsAt, event.timeZone)} has been cancelled, so the waitlist is closed. Sorry!`,
    });
  }
  closeWaitlist(tx, event.id);
  return waiting.length;
}

/**
 * Opening the texted link: proves the phone (the link went to it) and hands back what the details
 * form needs. 403 for a forged link, 410 once the offer was claimed, ran out or was withdrawn.
 */
export function claimOffer(deps: Deps, input: { offerId: number; token: unknown; now: number }) {
  if (!isValidLinkToken(deps.env, "waitlist-offer", [input.offerId], input.token)) {
    throw Forbidden("this offer link is not valid", "invalid_link");
  }
  return deps.db.transaction(
    (tx) => {
      const offer = tx.select().from(waitlistOffers).where(eq(waitlistOffers.id, input.offerId)).get();
      if (!offer) throw NotFound("no such offer");
      const event = tx.select().from(events).where(eq(events.id, offer.eventId)).get();
      // An event started early or cancelled has no seat to give, whatever the offer's own clock says.
      if (offer.status !== "open" || offer.expiresAt <= input.now || !event || !takingBookings(event, input.now)) {
        throw Gone("this offer has expired or was already used");
      }
      tx.update(waitlistOffers)
        .set({ status: "claimed", claimedAt: input.now })
        .where(eq(waitlistOffers.id, offer.id))
        .run();
      return {
        success: true as const,
        eventID: offer.eventId,
        phone: offer.phone,
        gender: offer.gender,
        expiresAt: new Date(offer.expiresAt).toISOString(),
      };
    },
    { behavior: "immediate" },
  );
}

/** This phone's offer still keeping a seat at the event, if any: its booking takes that seat. */
export function liveOfferFor(q: DbOrTx, eventId: number, phone: string, now: number): WaitlistOffer | undefined {
  return q
    .select()
    .from(waitlistOffers)
    .where(and(eq(waitlistOffers.eventId, eventId), eq(waitlistOffers.phone, phone), liveOffer(now)))
    .get();
}

/** The offer became a booking: from here the hold keeps the seat, and the person leaves the line. */
export function offerBooked(q: DbOrTx, offer: WaitlistOffer, bookingId: number) {
  q.update(waitlistOffers).set({ status: "booked", bookingId }).where(eq(waitlistOffers.id, offer.id)).run();
  q.update(waitlistEntries).set({ status: "booked" }).where(eq(waitlistEntries.id, offer.entryId)).run();
}

/** Offers out for an event right now (the admin's and the tests' view). */
export const openOffers = (q: DbOrTx, eventId: number, now: number) =>
  q
    .select()
    .from(waitlistOffers)
    .where(and(eq(waitlistOffers.eventId, eventId), liveOffer(now)))
    .all();
