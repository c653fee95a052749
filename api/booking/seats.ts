import { and, eq, gt, inArray, ne, or, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client.ts";
import {
  bookings,
  type Event,
  type Gender,
  isWomanOrMan,
  type PersonGender,
  users,
  waitlistOffers,
} from "../../db/schema.ts";
import { Conflict } from "../lib/errors.ts";

/**
 * The one definition of a seat that counts against an event: a paid booking, a hold that has not
 * expired, or a refund that kept its seat (refunded after the event started). Expired holds stop
 * counting the moment they expire, with no sweeper needed.
 */
export function seatCounts(now: number | SQLWrapper): SQL {
  return or(
    eq(bookings.status, "paid"),
    and(eq(bookings.status, "held"), gt(bookings.holdExpiresAt, now)),
    and(eq(bookings.status, "refunded"), eq(bookings.seatReleased, false)),
  ) as SQL;
}

/** `count(*)` of the seats taken per event, for a subquery or a grouped select. */
export const takenSeats = (now: number) =>
  sql<number>`coalesce(sum(case when ${seatCounts(now)} then 1 else 0 end), 0)`;

/**
 * A waitlist offer keeps its seat for the person it was texted to until it runs out: nobody else can
 * take it meanwhile. Once booked, the booking counts instead (docs/decisions/015).
 */
export function liveOffer(now: number | SQLWrapper): SQL {
  return and(inArray(waitlistOffers.status, ["open", "claimed"]), gt(waitlistOffers.expiresAt, now)) as SQL;
}

/** Seats in use, overall and by the gender of who uses them (bookings, live holds and live offers). */
export type SeatUse = { total: number; male: number; female: number };

const empty = (): SeatUse => ({ total: 0, male: 0, female: 0 });

function add(use: SeatUse, gender: PersonGender, n: number) {
  use.total += n;
  if (isWomanOrMan(gender)) use[gender] += n;
}

/**
 * What a booker may leave out of the count: `exceptPhone`'s live offer (the seat it keeps is the one
 * that phone is about to book) and `exceptHoldOf`'s live hold (a retry replaces it).
 */
export type SeatUseOptions = {
  exceptPhone?: string;
  exceptHoldOf?: string;
  /**
   * False counts bookings without looking up who holds them (their gender): all of `total`, none in
   * `male` or `female`. An event with one pool of seats needs no more, and the hold path of such an
   * event then counts from the bookings_seats index alone (docs/decisions/007-scale.md).
   */
  byGender?: boolean;
};

/** One event's seats without genders, as three ranges of the bookings_seats index (seatUseByEvent). */
const onePoolSeats = (id: number | SQLWrapper, now: number | SQLWrapper) =>
  sql<number>`(select count(*) from ${bookings} where ${bookings.eventId} = ${id} and ${bookings.status} = 'paid')
          + (select count(*) from ${bookings} where ${bookings.eventId} = ${id} and ${bookings.status} = 'held' and ${bookings.holdExpiresAt} > ${now})
          + (select count(*) from ${bookings} where ${bookings.eventId} = ${id} and ${bookings.status} = 'refunded' and ${bookings.seatReleased} = 0)`;

/** The seats in use at `eventId`. */
export function seatUse(q: DbOrTx, eventId: number, now: number, options: SeatUseOptions = {}): SeatUse {
  return seatUseByEvent(q, now, { eventId, ...options }).get(eventId) ?? empty();
}

/** `seatUse` for every event at once (the event list), or for one. */
export function seatUseByEvent(
  q: DbOrTx,
  now: number,
  options: SeatUseOptions & { eventId?: number } = {},
): Map<number, SeatUse> {
  const byEvent = new Map<number, SeatUse>();
  const use = (eventId: number) => {
    const found = byEvent.get(eventId) ?? empty();
    byEvent.set(eventId, found);
    return found;
  };
  const counted = and(
    seatCounts(now),
    options.eventId === undefined ? undefined : eq(bookings.eventId, options.eventId),
    options.exceptHoldOf === undefined
      ? undefined
      : or(ne(bookings.phone, options.exceptHoldOf), ne(bookings.status, "held")),
  );
  if (options.byGender === false && options.eventId !== undefined && options.exceptHoldOf === undefined) {
    // One event's seats without genders, as the hold path of a one-pool event asks: three ranges of
    // the bookings_seats index counted apart, which SQLite steps through without testing each row
    // (the `or` of seatCounts is tested row by row). Same definition, spelled per status.
    const id = options.eventId;
    const n = q
      .select({ n: onePoolSeats(id, now) })
      .from(sql`(select 1)`)
      .get();
    if (n && n.n > 0) use(id).total += n.n;
  } else if (options.byGender === false) {
    const rows = q
      .select({ eventId: bookings.eventId, n: sql<number>`count(*)` })
      .from(bookings)
      .where(counted)
      .groupBy(bookings.eventId)
      .all();
    for (const row of rows) use(row.eventId).total += row.n;
  } else {
    const booked = q
      .select({ eventId: bookings.eventId, gender: users.gender, n: sql<number>`count(*)` })
      .from(bookings)
      .innerJoin(users, eq(users.id, bookings.userId))
      .where(counted)
      .groupBy(bookings.eventId, users.gender)
      .all();
    for (const row of booked) add(use(row.eventId), row.gender, row.n);
  }
  const offered = q
    .select({ eventId: waitlistOffers.eventId, gender: waitlistOffers.gender, n: sql<number>`count(*)` })
    .from(waitlistOffers)
    .where(
      and(
        liveOffer(now),
        options.eventId === undefined ? undefined : eq(waitlistOffers.eventId, options.eventId),
        options.exceptPhone === undefined ? undefined : ne(waitlistOffers.phone, options.exceptPhone),
      ),
    )
    .groupBy(waitlistOffers.eventId, waitlistOffers.gender)
    .all();
  for (const row of offered) add(use(row.eventId), row.gender, row.n);
  return byEvent;
}

/** The statements of `seatUseNow`, compiled once per connection. */
const seatStatements = new WeakMap<Db, ReturnType<typeof prepareSeatStatements>>();

function prepareSeatStatements(db: Db) {
  const eventId = sql.placeholder("eventId");
  const now = sql.placeholder("now");
  return {
    onePool: db
      .select({ n: onePoolSeats(eventId, now) })
      .from(sql`(select 1)`)
      .prepare(),
    byGender: db
      .select({ gender: users.gender, n: sql<number>`count(*)` })
      .from(bookings)
      .innerJoin(users, eq(users.id, bookings.userId))
      .where(and(seatCounts(now), eq(bookings.eventId, eventId)))
      .groupBy(users.gender)
      .prepare(),
    offered: db
      .select({ gender: waitlistOffers.gender, n: sql<number>`count(*)` })
      .from(waitlistOffers)
      .where(and(liveOffer(now), eq(waitlistOffers.eventId, eventId)))
      .groupBy(waitlistOffers.gender)
      .prepare(),
  };
}

/**
 * `seatUse(db, event.id, now, { byGender: isBalanced(event) })`, the count a hold takes under its
 * write lock, from statements compiled once per connection instead of built by drizzle each time
 * (docs/decisions/007-scale.md, "Seat holds"). Same definition: api/booking/seats.test.ts checks the
 * two agree. Inside a transaction on `db` it reads what that transaction sees (one connection).
 */
export function seatUseNow(db: Db, event: Event, now: number): SeatUse {
  let statements = seatStatements.get(db);
  if (!statements) {
    statements = prepareSeatStatements(db);
    seatStatements.set(db, statements);
  }
  const use = empty();
  const params = { eventId: event.id, now };
  if (isBalanced(event)) for (const row of statements.byGender.all(params)) add(use, row.gender, row.n);
  else use.total += statements.onePool.get(params)?.n ?? 0;
  for (const row of statements.offered.all(params)) add(use, row.gender, row.n);
  return use;
}

type SeatPlan = Pick<Event, "totalSeats" | "seatsMale" | "seatsFemale">;

export const isBalanced = (event: SeatPlan): event is SeatPlan & { seatsMale: number; seatsFemale: number } =>
  event.seatsMale !== null && event.seatsFemale !== null;

/** What is left, overall and per gender (null per gender for an event with one pool of seats). */
export type SeatsLeft = { total: number; male: number | null; female: number | null };

export function seatsLeft(event: SeatPlan, use: SeatUse): SeatsLeft {
  const total = Math.max(0, event.totalSeats - use.total);
  if (!isBalanced(event)) return { total, male: null, female: null };
  return {
    total,
    male: Math.max(0, event.seatsMale - use.male),
    female: Math.max(0, event.seatsFemale - use.female),
  };
}

/** Seats left for someone of `gender`: their gender's own for a balanced event, the pool's otherwise. */
export const seatsLeftFor = (left: SeatsLeft, gender: PersonGender): number =>
  Math.min(left.total, (isWomanOrMan(gender) ? left[gender] : null) ?? left.total);

export const noSeatsLeftFor = (gender: Gender) => `no seats left for ${gender === "male" ? "men" : "women"}`;

/**
 * 409 unless a seat for `gender` is free at `event`. Call it inside the IMMEDIATE transaction that
 * then takes the seat, so that no gender is ever oversold: "no seats left" for a full event, "no
 * seats left for men|women" when only the chosen gender is full.
 */
export function assertSeatFor(
  q: DbOrTx,
  event: Event,
  gender: PersonGender,
  now: number,
  options: SeatUseOptions = {},
) {
  assertSeatLeft(event, seatUse(q, event.id, now, { byGender: isBalanced(event), ...options }), gender);
}

/** 409 unless `use` (the event's seats in use, counted in the transaction that takes one) leaves a seat for `gender`. */
export function assertSeatLeft(event: Event, use: SeatUse, gender: PersonGender) {
  const left = seatsLeft(event, use);
  if (left.total <= 0) throw Conflict("no seats left", "sold_out");
  if (isWomanOrMan(gender) && seatsLeftFor(left, gender) <= 0)
    throw Conflict(noSeatsLeftFor(gender), "gender_sold_out", { gender });
}

/** This phone's hold at the event that has not run out yet, if any. */
export function liveHoldOf(q: DbOrTx, eventId: number, phone: string, now: number) {
  return q
    .select({
      id: bookings.id,
      holdExpiresAt: bookings.holdExpiresAt,
      heldSince: sql<number>`coalesce(${bookings.heldSince}, ${bookings.createdAt})`,
    })
    .from(bookings)
    .where(
      and(
        eq(bookings.eventId, eventId),
        eq(bookings.phone, phone),
        eq(bookings.status, "held"),
        gt(bookings.holdExpiresAt, now),
      ),
    )
    .get();
}

/**
 * This phone's paid booking for the event, if it has one: a phone holds at most one paid seat per
 * event. `exceptBookingId` leaves out the booking a payment is being completed for.
 */
export function paidBookingOf(
  q: DbOrTx,
  eventId: number,
  phone: string,
  options: { exceptBookingId?: number } = {},
): { id: number } | undefined {
  return q
    .select({ id: bookings.id })
    .from(bookings)
    .where(
      and(
        eq(bookings.phone, phone),
        eq(bookings.eventId, eventId),
        eq(bookings.status, "paid"),
        options.exceptBookingId === undefined ? undefined : ne(bookings.id, options.exceptBookingId),
      ),
    )
    .get();
}

/** 409 when this phone already has a paid seat for the event: it needs no hold and no place in line. */
export function assertNoPaidBooking(q: DbOrTx, eventId: number, phone: string) {
  if (paidBookingOf(q, eventId, phone)) {
    throw Conflict("this phone already has a paid seat for this event", "already_booked", { alreadyBooked: true });
  }
}
