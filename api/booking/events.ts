import { asc, eq } from "drizzle-orm";
import { type CancellationPolicy, policyOf } from "../../common/cancellation.ts";
import { doorsOpenAtOf } from "../../common/doors-open.ts";
import { isListed } from "../../common/event-listing.ts";
import type { EventFormat } from "../../common/formats.ts";
import { currentAmounts } from "../../common/pricing.ts";
import { resultsAtOf } from "../../common/results-time.ts";
import type { Db } from "../../db/client.ts";
import { type Event, events } from "../../db/schema.ts";
import { NotFound } from "../lib/errors.ts";
import { type SeatUse, seatsLeft, seatUse, seatUseByEvent } from "./seats.ts";

export type EventSummary = {
  id: number;
  event_name: string;
  event_image: string;
  EventDateTime: string;
  event_address: string;
  booking_amount: number;
  SeatAvailabilityPer: number;
  event_status: Event["status"];
  event_duration: number;
  from_age: number;
  to_age: number;
  /** The venue's IANA zone; `EventDateTime` stays UTC, so clients that ignore the zone keep working (decision 005). */
  time_zone: string;
  /** Seats left per gender at a balanced event, null at one with a single pool (decision 015). */
  SeatsLeft: { male: number; female: number } | null;
  /** Seats left in all: the count behind `SeatAvailabilityPer`, so a card can say "3 seats left". */
  seatsLeftTotal: number;
  /** When the matches are released (ISO, UTC): the organiser's time or the default (docs/decisions/021-results.md). */
  resultsAt: string;
  /** When the door may check people in (ISO, UTC): the organiser's time or the default (docs/decisions/008-door.md). */
  doorsOpenAt: string;
} & PricesAndAges;

/**
 * Who may book and what they pay (docs/decisions/023-prices-and-ages.md). Dollars like
 * `booking_amount`; null where the event does not set the field. `currentAmount` is what each gender
 * pays if they hold a seat now, before any promo code (the early bird taken off while it runs).
 */
export type PricesAndAges = {
  bookingAmountMale: number | null;
  bookingAmountFemale: number | null;
  earlyBirdDiscount: number | null;
  /** ISO 8601 UTC; the organiser set it on the venue's clock. */
  earlyBirdUntil: string | null;
  fromAgeMale: number | null;
  toAgeMale: number | null;
  fromAgeFemale: number | null;
  toAgeFemale: number | null;
  currentAmount: { male: number; female: number };
  /** What a guest gets back on cancelling (docs/decisions/028-cancellation-money-path.md). */
  cancellationPolicy: CancellationPolicy;
  /** Partners are chosen Date, Friend or No (issue 37) rather than Like or Dislike. */
  offersFriend: boolean;
  /**
   * Who meets whom (issue 37): the booking form and the card follow it. Left out at Women meet men,
   * whose answers stay as they were; a client reads its absence as `women_men`.
   */
  format?: EventFormat;
};

const dollars = (cents: number | null) => (cents === null ? null : cents / 100);

export function pricesAndAges(event: Event, now: number): PricesAndAges {
  const current = currentAmounts(event, now);
  return {
    bookingAmountMale: dollars(event.priceMaleCents),
    bookingAmountFemale: dollars(event.priceFemaleCents),
    earlyBirdDiscount: dollars(event.earlyBirdDiscountCents),
    earlyBirdUntil: event.earlyBirdUntil === null ? null : new Date(event.earlyBirdUntil).toISOString(),
    fromAgeMale: event.fromAgeMale,
    toAgeMale: event.toAgeMale,
    fromAgeFemale: event.fromAgeFemale,
    toAgeFemale: event.toAgeFemale,
    currentAmount: { male: current.male / 100, female: current.female / 100 },
    cancellationPolicy: policyOf(event),
    offersFriend: event.offersFriend,
    ...(event.format === "women_men" ? {} : { format: event.format }),
  };
}

export type EventDetail = EventSummary & {
  event_date: string;
  event_time: string;
  total_seats: number;
  /** The seat plan of a balanced event, both null when it has one pool of seats. */
  seatsMale: number | null;
  seatsFemale: number | null;
};

const noUse: SeatUse = { total: 0, male: 0, female: 0 };

/**
 * `SeatAvailabilityPer` (the percentage of seats left) and, beside it, what is left per gender.
 * Seats in use are paid ones, live holds and live waitlist offers (api/booking/seats.ts), so a seat
 * kept for the person it was offered to never shows as free.
 */
export function toSummary(event: Event, use: SeatUse, now: number): EventSummary {
  const left = seatsLeft(event, use);
  return {
    id: event.id,
    event_name: event.name,
    event_image: event.imageName,
    EventDateTime: new Date(event.startsAt).toISOString(),
    event_address: event.address,
    booking_amount: event.priceCents / 100,
    SeatAvailabilityPer: event.totalSeats > 0 ? Math.round((100 * left.total) / event.totalSeats) : 0,
    event_status: event.status,
    event_duration: event.durationHours,
    from_age: event.fromAge,
    to_age: event.toAge,
    time_zone: event.timeZone,
    SeatsLeft: left.male === null || left.female === null ? null : { male: left.male, female: left.female },
    seatsLeftTotal: left.total,
    resultsAt: new Date(resultsAtOf(event)).toISOString(),
    doorsOpenAt: new Date(doorsOpenAtOf(event)).toISOString(),
    ...pricesAndAges(event, now),
  };
}

/**
 * Every event with its seats in use, soonest first: one query for the events and one grouped query
 * per table that takes seats (bookings, offers), however many events there are.
 */
export function listEventRows(db: Db, now: number): { event: Event; use: SeatUse }[] {
  const use = seatUseByEvent(db, now);
  return db
    .select()
    .from(events)
    .orderBy(asc(events.startsAt), asc(events.id))
    .all()
    .map((event) => ({ event, use: use.get(event.id) ?? noUse }));
}

/** Every event, soonest first. */
export function listEvents(db: Db, now: number): EventSummary[] {
  return listEventRows(db, now).map((r) => toSummary(r.event, r.use, now));
}

export function getEvent(db: Db, id: number, now: number): EventDetail {
  const event = db.select().from(events).where(eq(events.id, id)).get();
  if (!event) throw NotFound("no such event");
  const iso = new Date(event.startsAt).toISOString();
  return {
    ...toSummary(event, seatUse(db, id, now), now),
    event_date: iso.slice(0, 10),
    event_time: iso.slice(11, 16),
    total_seats: event.totalSeats,
    seatsMale: event.seatsMale,
    seatsFemale: event.seatsFemale,
  };
}

const firstPictures = new WeakMap<Db, { at: number; name: string | null }>();

/**
 * The picture of the first event the home page lists (its largest paint), for the page's HTML.
 * Looked up at most once a second: every new visitor in a busy minute asks.
 */
export function firstListedPicture(db: Db, now: number): string | null {
  const known = firstPictures.get(db);
  if (known && now - known.at < 1000 && now >= known.at) return known.name;
  const name = listEvents(db, now).find((e) => isListed(e, now))?.event_image ?? null;
  firstPictures.set(db, { at: now, name });
  return name;
}
