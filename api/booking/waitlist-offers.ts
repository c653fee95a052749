import { and, asc, eq, inArray, lte, ne, or, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client.ts";
import { preparedPerDb } from "../../db/prepared.ts";
import {
  bookings,
  type Event,
  events,
  type Gender,
  type WaitlistEntry,
  type WaitlistOffer,
  waitlistEntries,
  waitlistOffers,
} from "../../db/schema.ts";
import type { Env } from "../env.ts";
import { isValidLinkToken, linkToken } from "../lib/capability.ts";
import { Forbidden, Gone, NotFound } from "../lib/errors.ts";
import type { Logger } from "../lib/log.ts";
import { deliverPending, enqueueSms } from "../messaging/outbox.ts";
import { waitlistClosedText, waitlistOfferText } from "../messaging/templates/waitlist.ts";
import type { SmsProvider } from "../providers/sms/types.ts";
import { isBalanced, liveOffer, seatsLeft, seatsLeftFor, seatUse } from "./seats.ts";

/**
 * The seat allocator behind the waitlist (docs/decisions/015-balanced-rooms-and-waitlist.md); the
 * line itself (joining, leaving, places) is waitlist.ts. Whenever a seat frees up, the first person
 * waiting for it gets an offer: the seat is kept for them for WAITLIST_OFFER_MINUTES (never past the
 * start) and texted as a signed link. Offers are made by `offerFreedSeats`, which the actions that
 * free a seat call at once and the scheduler runs every tick (expired holds and offers free seats by
 * the clock alone). It works in one IMMEDIATE transaction, so concurrent calls never offer one seat
 * twice, and it only ever acts on what the database says now, so running it again changes nothing.
 */

type Deps = { db: Db; env: Pick<Env, "PUBLIC_BASE_URL" | "SESSION_SECRET" | "WAITLIST_OFFER_MINUTES"> };
/** What an action that frees a seat needs to offer it and text the offer at once. */
export type OfferDeps = Deps & { sms: SmsProvider; log: Logger; now: () => number };

/** An entry is in line while it waits and while it holds an offer. */
export const WAITING = ["waiting", "offered"] as const;

/** Who is still in an event's line (to text when it closes), by entry. */
export const stillWaiting = (tx: DbOrTx, eventId: number) =>
  tx
    .select({ id: waitlistEntries.id, phone: waitlistEntries.phone })
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.eventId, eventId), inArray(waitlistEntries.status, [...WAITING])))
    .all();

export const waitlistOfferLink = (env: Deps["env"], offerId: number) =>
  `${env.PUBLIC_BASE_URL}/waitlist-offer?o=${offerId}&t=${linkToken(env, "waitlist-offer", offerId)}`;

const takingBookings = (event: Event, now: number) => event.status === "upcoming" && event.startsAt > now;

/**
 * Makes every offer that is due: first it lapses offers that ran out (their person loses the place)
 * and closes the lines of events that stopped taking bookings, then it gives each free seat to the
 * first person waiting for it. Returns how many offers it made.
 */
export function offerFreedSeats(deps: Deps, now: number, eventId?: number): number {
  // Prepared on the database, run in the transaction open on it (db/prepared.ts).
  const ask = offerQueries(deps.db)[eventId === undefined ? "everyEvent" : "oneEvent"];
  const params = { now, eventId };
  return deps.db.transaction(
    (tx) => {
      // Offers that ran out lapse, and their person loses the place in line.
      lapseEntries(
        tx,
        ask.lapseRunOutOffers.all(params).map((offer) => offer.entryId),
      );
      let made = 0;
      for (const { event } of ask.eventsWithWaiting.all(params)) {
        if (!takingBookings(event, now)) {
          closeLineAtStart(tx, event);
          continue;
        }
        made += offerEventSeats(tx, deps.env, event, now);
      }
      for (const { event } of ask.closedWithOffersOut.all(params)) closeLineAtStart(tx, event);
      return made;
    },
    { behavior: "immediate" },
  );
}

/** The entries whose offer ran out lose their place in line. */
function lapseEntries(tx: DbOrTx, entryIds: number[]) {
  if (entryIds.length === 0) return;
  tx.update(waitlistEntries)
    .set({ status: "lapsed" })
    .where(and(inArray(waitlistEntries.id, entryIds), eq(waitlistEntries.status, "offered")))
    .run();
}

/**
 * offerFreedSeats' three questions, for every event (the scheduler's tick) or one (`eventId`, an
 * action that freed a seat there), each built once per database.
 */
const offerQueries = preparedPerDb((db) => ({
  everyEvent: offerQueriesFor(db, false),
  oneEvent: offerQueriesFor(db, true),
}));

function offerQueriesFor(db: Db, oneEvent: boolean) {
  const eventId = sql.placeholder("eventId");
  const now = sql.placeholder("now");
  return {
    /** Offers that ran out: their entries. */
    lapseRunOutOffers: db
      .update(waitlistOffers)
      .set({ status: "expired" })
      .where(
        and(
          inArray(waitlistOffers.status, ["open", "claimed"]),
          lte(waitlistOffers.expiresAt, now),
          oneEvent ? eq(waitlistOffers.eventId, eventId) : undefined,
        ),
      )
      .returning({ entryId: waitlistOffers.entryId })
      .prepare(),
    /** The events with someone still waiting in line. */
    eventsWithWaiting: db
      .selectDistinct({ event: events })
      .from(waitlistEntries)
      .innerJoin(events, eq(events.id, waitlistEntries.eventId))
      .where(and(eq(waitlistEntries.status, "waiting"), oneEvent ? eq(waitlistEntries.eventId, eventId) : undefined))
      .prepare(),
    /** Lines of events that stopped taking bookings with only offers out (the start passed mid-offer). */
    closedWithOffersOut: db
      .selectDistinct({ event: events })
      .from(waitlistEntries)
      .innerJoin(events, eq(events.id, waitlistEntries.eventId))
      .where(
        and(
          eq(waitlistEntries.status, "offered"),
          or(ne(events.status, "upcoming"), lte(events.startsAt, now)),
          oneEvent ? eq(events.id, eventId) : undefined,
        ),
      )
      .prepare(),
  };
}

/** One event taking bookings: each of its free seats goes to the first person waiting for it. */
function offerEventSeats(tx: DbOrTx, env: Deps["env"], event: Event, now: number): number {
  leaveLineIfBooked(tx, event.id);
  const left = seatsLeft(event, seatUse(tx, event.id, now));
  const lines: { gender?: Gender; free: number }[] = isBalanced(event)
    ? [
        { gender: "male", free: seatsLeftFor(left, "male") },
        { gender: "female", free: seatsLeftFor(left, "female") },
      ]
    : [{ free: left.total }];
  // A gender's seats never exceed the room's: what one line takes is no longer free for the other.
  let room = left.total;
  let made = 0;
  for (const line of lines) {
    const free = Math.min(line.free, room);
    if (free <= 0) continue;
    const next = firstWaiting(tx, event.id, free, line.gender);
    room -= next.length;
    for (const entry of next) makeOffer(tx, env, event, entry, now);
    made += next.length;
  }
  return made;
}

/** Someone who booked a seat on their own (it freed up while they were waiting) is out of line. */
function leaveLineIfBooked(tx: DbOrTx, eventId: number) {
  tx.update(waitlistEntries)
    .set({ status: "booked" })
    .where(
      and(
        eq(waitlistEntries.eventId, eventId),
        eq(waitlistEntries.status, "waiting"),
        inArray(
          waitlistEntries.phone,
          tx
            .select({ phone: bookings.phone })
            .from(bookings)
            .where(and(eq(bookings.eventId, eventId), eq(bookings.status, "paid"))),
        ),
      ),
    )
    .run();
}

/** The first `count` people waiting at the event (in one gender's line, when it has them), in order. */
const firstWaiting = (tx: DbOrTx, eventId: number, count: number, gender?: Gender) =>
  tx
    .select()
    .from(waitlistEntries)
    .where(
      and(
        eq(waitlistEntries.eventId, eventId),
        eq(waitlistEntries.status, "waiting"),
        gender ? eq(waitlistEntries.gender, gender) : undefined,
      ),
    )
    .orderBy(asc(waitlistEntries.id))
    .limit(count)
    .all();

/** Keeps a seat for this person until the offer runs out (never past the start) and texts them its link. */
function makeOffer(tx: DbOrTx, env: Deps["env"], event: Event, entry: WaitlistEntry, now: number) {
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
    body: waitlistOfferText({ event, expiresAt, offerUrl: waitlistOfferLink(env, offer.id) }),
  });
}

/**
 * For the actions that free a seat (a refund, a released hold, a leaver, added seats): the offers are
 * made now and their texts sent now rather than at the scheduler's next tick. The outbox's claim
 * keeps the scheduler from sending one twice.
 */
export function offerFreedSeatsNow(deps: OfferDeps, eventId: number): number {
  // Most events have nobody in line and no offer out: one read, not a write transaction, for each of
  // an on-sale rush's details forms (docs/decisions/007-scale.md).
  if (!hasLineOrOffers(deps.db, eventId)) return 0;
  const made = offerFreedSeats(deps, deps.now(), eventId);
  if (made > 0) {
    deliverPending(deps, { dedupePrefix: "waitlist-offer:" }).catch((error: unknown) =>
      deps.log("warn", "waitlist offers not sent yet; the scheduler retries", { error: String(error) }),
    );
  }
  return made;
}

/** Whether the event has anyone waiting or an offer still open or claimed: what offerFreedSeats works on. */
function hasLineOrOffers(db: DbOrTx, eventId: number): boolean {
  const waiting = db
    .select({ id: waitlistEntries.id })
    .from(waitlistEntries)
    .where(and(eq(waitlistEntries.eventId, eventId), eq(waitlistEntries.status, "waiting")))
    .get();
  if (waiting) return true;
  const offer = db
    .select({ id: waitlistOffers.id })
    .from(waitlistOffers)
    .where(and(eq(waitlistOffers.eventId, eventId), inArray(waitlistOffers.status, ["open", "claimed"])))
    .get();
  return offer !== undefined;
}

/** The outbox keys of the texts sent when an event's line closes at the start: one per place in line. */
export const lineClosedKey = (eventId: number, entryId?: number) =>
  `waitlist-closed:${eventId}:${entryId === undefined ? "" : entryId}`;

/**
 * Sales closed (Start Event, or the start time passing) with people still in line: each is texted
 * once, whatever restarts or ticks follow (the outbox key is their place's), and the line is kept as
 * `closed` for the organiser's list and the CSV instead of vanishing
 * (docs/decisions/015-balanced-rooms-and-waitlist.md). A cancelled event's line is endWaitlist's.
 */
export function closeLineAtStart(tx: DbOrTx, event: Event) {
  if (event.status === "cancelled") {
    closeWaitlist(tx, event.id);
    return;
  }
  for (const entry of stillWaiting(tx, event.id)) {
    enqueueSms(tx, {
      dedupeKey: lineClosedKey(event.id, entry.id),
      to: entry.phone,
      body: waitlistClosedText({ event }),
    });
  }
  closeWaitlist(tx, event.id, "closed");
}

/**
 * Start Event's part: the line closes and its texts go now, not at the scheduler's next tick (which
 * would find the line already closed and send nothing twice).
 */
export function closeLineNow(deps: OfferDeps, eventId: number) {
  offerFreedSeats(deps, deps.now(), eventId);
  deliverPending(deps, { dedupePrefix: lineClosedKey(eventId) }).catch((error: unknown) =>
    deps.log("warn", "waitlist closing texts not sent yet; the outbox retries", { error: String(error) }),
  );
}

/** Ends an event's line: nobody is offered a seat any more and offers still out are withdrawn. */
export function closeWaitlist(tx: DbOrTx, eventId: number, status: "ended" | "closed" = "ended") {
  tx.update(waitlistEntries)
    .set({ status })
    .where(and(eq(waitlistEntries.eventId, eventId), inArray(waitlistEntries.status, [...WAITING])))
    .run();
  tx.update(waitlistOffers)
    .set({ status: "withdrawn" })
    .where(and(eq(waitlistOffers.eventId, eventId), inArray(waitlistOffers.status, ["open", "claimed"])))
    .run();
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
      // The name given when joining the line, so the details form opens filled in.
      const entry = tx
        .select({ name: waitlistEntries.name })
        .from(waitlistEntries)
        .where(eq(waitlistEntries.id, offer.entryId))
        .get();
      return {
        success: true as const,
        eventID: offer.eventId,
        phone: offer.phone,
        gender: offer.gender,
        name: entry?.name ?? "",
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
