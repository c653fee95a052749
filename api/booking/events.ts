import { asc, eq } from "drizzle-orm";
import type { z } from "zod";
import { creditUntilOf, policyOf } from "../../common/cancellation.ts";
import { doorsOpenAtOf } from "../../common/doors-open.ts";
import { isListed } from "../../common/event-listing.ts";
import { textReplyOf, EVENT_WIRE_NAMES as W } from "../../common/event-wire.ts";
import { currentAmounts } from "../../common/pricing.ts";
import { resultsAtOf } from "../../common/results-time.ts";
import { formatUtcTime, formatVenueTime, venueDayMonth, venueWeekday } from "../../common/time-zone.ts";
import type { Db } from "../../db/client.ts";
import { type Event, events } from "../../db/schema.ts";
import { NotFound } from "../lib/errors.ts";
import type { eventDetail, eventSummary, pricesAndAgesReply } from "./events-schemas.ts";
import { type SeatUse, seatsLeft, seatUse, seatUseByEvent } from "./seats.ts";

// The replies' types are read from their schemas (events-schemas.ts), never written beside them.
export type EventSummary = z.output<typeof eventSummary>;
export type PricesAndAges = z.output<typeof pricesAndAgesReply>;
export type EventDetail = z.output<typeof eventDetail>;

const dollars = (cents: number | null) => (cents === null ? null : cents / 100);

export function pricesAndAges(event: Event, now: number): PricesAndAges {
  const current = currentAmounts(event, now);
  return {
    bookingAmountMale: dollars(event.priceMaleCents),
    bookingAmountFemale: dollars(event.priceFemaleCents),
    earlyBirdDiscount: dollars(event.earlyBirdDiscountCents),
    earlyBirdUntil: event.earlyBirdUntil === null ? null : new Date(event.earlyBirdUntil).toISOString(),
    earlyBirdUntilText:
      event.earlyBirdUntil === null ? null : venueDayMonth(event.earlyBirdUntil, event.timeZone, "short"),
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

const noUse: SeatUse = { total: 0, male: 0, female: 0 };

/**
 * `SeatAvailabilityPer` (the percentage of seats left) and, beside it, what is left per gender.
 * Seats in use are paid ones, live holds and live waitlist offers (api/booking/seats.ts), so a seat
 * kept for the person it was offered to never shows as free.
 */
export function toSummary(event: Event, use: SeatUse, now: number): EventSummary {
  const left = seatsLeft(event, use);
  // By the wire names of common/event-wire.ts, the one place that says them.
  return {
    [W.id.reply]: event.id,
    ...textReplyOf(event),
    [W.imageName.reply]: event.imageName,
    [W.startsAt.reply]: new Date(event.startsAt).toISOString(),
    [W.priceCents.reply]: event.priceCents / 100,
    SeatAvailabilityPer: event.totalSeats > 0 ? Math.round((100 * left.total) / event.totalSeats) : 0,
    [W.status.reply]: event.status,
    [W.durationHours.reply]: event.durationHours,
    [W.fromAge.reply]: event.fromAge,
    [W.toAge.reply]: event.toAge,
    [W.timeZone.reply]: event.timeZone,
    startsAtText: startsAtText(event.startsAt, event.timeZone),
    SeatsLeft: left.male === null || left.female === null ? null : { male: left.male, female: left.female },
    seatsLeftTotal: left.total,
    resultsAt: new Date(resultsAtOf(event)).toISOString(),
    doorsOpenAt: new Date(doorsOpenAtOf(event)).toISOString(),
    creditUntil: new Date(creditUntilOf(event)).toISOString(),
    noMatchPromise: event.noMatchPromise,
    ...pricesAndAges(event, now),
  };
}

/**
 * The start as a card writes it, formatted here so that a phone opening the home page builds no Intl
 * formatter: its first costs the page's main thread tens of milliseconds (ICU's set-up), the largest
 * part of the home page's blocking time (bench/README.md, "What holds `/` under 98").
 */
function startsAtText(startsAt: number, zone: string) {
  return {
    weekday: venueWeekday(startsAt, zone),
    local: formatVenueTime(startsAt, zone),
    utc: formatUtcTime(startsAt),
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
    [W.totalSeats.reply]: event.totalSeats,
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
