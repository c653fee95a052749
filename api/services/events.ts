import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { bookings, type Event, events } from "../../db/schema.ts";
import { NotFound } from "../lib/errors.ts";
import { takenSeats } from "./seats.ts";

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
  /** The venue's IANA zone; `EventDateTime` stays UTC (CONTRACT.md, "Beyond SPEC.md: running the night"). */
  time_zone: string;
};

export type EventDetail = EventSummary & { event_date: string; event_time: string; total_seats: number };

function withSeats(db: Db, now: number) {
  const taken = db
    .select({ eventId: bookings.eventId, taken: takenSeats(now).as("taken") })
    .from(bookings)
    .groupBy(bookings.eventId)
    .as("taken");
  return db
    .select({ event: events, taken: sql<number>`coalesce(${taken.taken}, 0)` })
    .from(events)
    .leftJoin(taken, eq(taken.eventId, events.id));
}

export function toSummary(event: Event, taken: number): EventSummary {
  const left = Math.max(0, event.totalSeats - taken);
  return {
    id: event.id,
    event_name: event.name,
    event_image: event.imageName,
    EventDateTime: new Date(event.startsAt).toISOString(),
    event_address: event.address,
    booking_amount: event.priceCents / 100,
    SeatAvailabilityPer: event.totalSeats > 0 ? Math.round((100 * left) / event.totalSeats) : 0,
    event_status: event.status,
    event_duration: event.durationHours,
    from_age: event.fromAge,
    to_age: event.toAge,
    time_zone: event.timeZone,
  };
}

/** Every event, soonest first. */
export function listEvents(db: Db, now: number): EventSummary[] {
  return withSeats(db, now)
    .orderBy(asc(events.startsAt), asc(events.id))
    .all()
    .map((r) => toSummary(r.event, r.taken));
}

export function getEvent(db: Db, id: number, now: number): EventDetail {
  const row = withSeats(db, now).where(eq(events.id, id)).get();
  if (!row) throw NotFound("no such event");
  const iso = new Date(row.event.startsAt).toISOString();
  return {
    ...toSummary(row.event, row.taken),
    event_date: iso.slice(0, 10),
    event_time: iso.slice(11, 16),
    total_seats: row.event.totalSeats,
  };
}
