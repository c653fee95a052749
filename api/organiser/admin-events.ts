import { and, eq, isNotNull, ne } from "drizzle-orm";
import { doorsOpenAtOf } from "../../common/doors-open.ts";
import type { PricesAndAgesFields } from "../../common/event-fields.ts";
import { EVENT_LIMITS } from "../../common/event-limits.ts";
import { textColumnsOfNew, textColumnsOfUpdate } from "../../common/event-wire.ts";
import { type EventFormat, FORMAT_LABELS, splitsByGender } from "../../common/formats.ts";
import { plannedEnd } from "../../common/results-time.ts";
import { utcToWallClock } from "../../common/time-zone.ts";
import { tomorrowIn, wallClockToUtc } from "../../common/venue-time-input.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import { bookings, type Event, events } from "../../db/schema.ts";
import { seatUse } from "../booking/seats.ts";
import { BadRequest, Conflict, NotFound } from "../lib/errors.ts";
import { eventEdited, type PassChangeDeps } from "../wallet/pass-changes.ts";
import type { EventTime, EventUpdateInput, NewEventInput } from "./event-inputs.ts";
import { minimumColumns } from "./minimum-numbers.ts";

type SeatPlan = { seatsMale: number | null; seatsFemale: number | null };

/**
 * Balanced rooms: seats for men and for women, both or neither, adding up to the total. A gender
 * may have none (a ladies' night). 400 otherwise, naming the fields.
 */
function seatPlan(totalSeats: number, male: number | null | undefined, female: number | null | undefined): SeatPlan {
  if ((male ?? null) === null && (female ?? null) === null) return { seatsMale: null, seatsFemale: null };
  if (male === undefined || male === null || female === undefined || female === null) {
    throw BadRequest("seatsMale, seatsFemale: give both or neither");
  }
  if (male + female !== totalSeats) {
    throw BadRequest(`seatsMale, seatsFemale: must add up to totalSeats (${totalSeats})`);
  }
  return { seatsMale: male, seatsFemale: female };
}

/** Ended and cancelled events are history: what they were is what the records and texts said. */
function assertEditable(event: Event) {
  if (event.status === "ended") throw Conflict("the event has ended", "wrong_state");
  if (event.status === "cancelled") throw Conflict("the event was cancelled", "wrong_state");
}

/**
 * An event's date is tomorrow or later, on the venue's clock (decision 005): a Sydney event for
 * tomorrow at 9 am is today in UTC, and must still be accepted.
 */
function assertFromTomorrow(startsAt: number, zone: string, now: number) {
  if (utcToWallClock(startsAt, zone).date < tomorrowIn(zone, now)) {
    throw BadRequest("The date must be tomorrow or later at the venue.");
  }
}

function startsAt(date: string, time: EventTime): number {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  return Date.UTC(y, m - 1, d, time.hour, time.minute);
}

/** Results come after the night: a time before its planned end would close ratings mid-evening. */
function assertResultsAfterEnd(resultsAt: number | null, startsAt: number, durationHours: number) {
  if (resultsAt !== null && resultsAt < plannedEnd({ startsAt, durationHours })) {
    throw BadRequest("The results time can't be before the event's end.");
  }
}

/**
 * The doors open no later than the start: a door that opened after the night began would refuse the
 * people already in the room. The default (null) always fits.
 */
/** Credit for a cancel is offered no later than the start (decision 057); the default (null) is the start. */
function assertCreditBeforeStart(creditUntil: number | null, startsAt: number) {
  if (creditUntil !== null && creditUntil > startsAt) {
    throw BadRequest("Credit until must be no later than the event's start.", "invalid_request");
  }
}

function assertDoorsBeforeStart(doorsOpenAt: number | null, startsAt: number) {
  if (doorsOpenAt !== null && doorsOpenAt > startsAt) {
    throw BadRequest("The doors must open no later than the event's start.", "doors_after_start");
  }
}

function assertAges(fromAge: number, toAge: number) {
  if (fromAge > toAge) throw BadRequest("The youngest age can't be above the oldest age.");
}

type PriceColumns = Pick<
  Event,
  | "priceMaleCents"
  | "priceFemaleCents"
  | "earlyBirdDiscountCents"
  | "earlyBirdUntil"
  | "fromAgeMale"
  | "toAgeMale"
  | "fromAgeFemale"
  | "toAgeFemale"
>;

/**
 * The prices and per-gender ages an event ends up with (decision 023): each field given replaces the
 * stored one (null clears it), each left out keeps it. The early bird needs both its amount and its
 * deadline (read on the venue's clock), and each gender's range must not be crossed. 400 otherwise.
 */
function priceColumns(
  input: Partial<PricesAndAgesFields>,
  stored: PriceColumns | undefined,
  ages: { fromAge: number; toAge: number; timeZone: string },
): PriceColumns {
  const pick = <K extends keyof PriceColumns>(key: K, given: PriceColumns[K] | undefined): PriceColumns[K] =>
    given !== undefined ? given : (stored?.[key] ?? null);
  const until =
    input.earlyBirdUntil === undefined
      ? undefined
      : input.earlyBirdUntil === null
        ? null
        : wallClockToUtc(input.earlyBirdUntil, ages.timeZone);
  const columns: PriceColumns = {
    priceMaleCents: pick("priceMaleCents", input.priceMaleCents),
    priceFemaleCents: pick("priceFemaleCents", input.priceFemaleCents),
    earlyBirdDiscountCents: pick("earlyBirdDiscountCents", input.earlyBirdDiscountCents),
    earlyBirdUntil: pick("earlyBirdUntil", until),
    fromAgeMale: pick("fromAgeMale", input.fromAgeMale),
    toAgeMale: pick("toAgeMale", input.toAgeMale),
    fromAgeFemale: pick("fromAgeFemale", input.fromAgeFemale),
    toAgeFemale: pick("toAgeFemale", input.toAgeFemale),
  };
  if ((columns.earlyBirdDiscountCents === null) !== (columns.earlyBirdUntil === null)) {
    throw BadRequest("Give both an early-bird discount and its end date, or neither.");
  }
  if ((columns.fromAgeMale ?? ages.fromAge) > (columns.toAgeMale ?? ages.toAge)) {
    throw BadRequest("Men's youngest age can't be above their oldest age.");
  }
  if ((columns.fromAgeFemale ?? ages.fromAge) > (columns.toAgeFemale ?? ages.toAge)) {
    throw BadRequest("Women's youngest age can't be above their oldest age.");
  }
  return columns;
}

/** One group and Mixed seat everyone from one pool: seats by gender are Women meet men's. */
function assertPoolFits(format: EventFormat, plan: SeatPlan) {
  if (!splitsByGender(format) && (plan.seatsMale !== null || plan.seatsFemale !== null)) {
    throw BadRequest(`${FORMAT_LABELS[format]} has one pool of seats: leave the women's and men's seats empty.`);
  }
}

/** Whether anyone has booked (held, paid, refunded or cancelled; a hold that lapsed does not count). */
function hasBookings(tx: DbOrTx, eventId: number): boolean {
  return (
    tx
      .select({ id: bookings.id })
      .from(bookings)
      .where(and(eq(bookings.eventId, eventId), ne(bookings.status, "released")))
      .get() !== undefined
  );
}

export function createEvent(db: Db, input: NewEventInput, now: number): { id: number } {
  const at = startsAt(input.date, input.time);
  assertFromTomorrow(at, input.timeZone, now);
  assertAges(input.fromAge, input.toAge);
  assertResultsAfterEnd(input.resultsAt ?? null, at, input.durationHours);
  assertDoorsBeforeStart(input.doorsOpenAt ?? null, at);
  assertCreditBeforeStart(input.creditUntil ?? null, at);
  const format = input.format ?? "women_men";
  const plan = seatPlan(input.totalSeats, input.seatsMale, input.seatsFemale);
  assertPoolFits(format, plan);
  const prices = priceColumns(input, undefined, input);
  const minimum = minimumColumns(input, undefined, { format, startsAt: at, totalSeats: input.totalSeats, ...plan });
  const row = db
    .insert(events)
    .values({
      ...textColumnsOfNew(input),
      imageName: input.imageName,
      startsAt: at,
      timeZone: input.timeZone,
      priceCents: input.priceCents,
      durationHours: input.durationHours,
      fromAge: input.fromAge,
      toAge: input.toAge,
      totalSeats: input.totalSeats,
      ...plan,
      resultsAt: input.resultsAt ?? null,
      doorsOpenAt: input.doorsOpenAt ?? null,
      creditUntil: input.creditUntil ?? null,
      ...prices,
      cancelFullRefundHours: input.cancelFullRefundHours ?? EVENT_LIMITS.cancelFullRefundHours.default,
      cancelLaterPercent: input.cancelLaterPercent ?? EVENT_LIMITS.cancelLaterPercent.default,
      offersFriend: input.offersFriend ?? false,
      format,
      ...minimum,
      noMatchPromise: input.noMatchPromise ?? false,
    })
    .returning({ id: events.id })
    .get();
  return { id: row.id };
}

/**
 * Edits an event. Fields the form leaves out keep their values. The seats are checked against
 * those already taken inside the same transaction as the write, so a booking landing meanwhile
 * cannot end up over the new total. With `passes`, a change its wallet passes show (the name, the
 * time, the venue) updates them in the same transaction (api/wallet/pass-changes.ts).
 */
export function updateEvent(db: Db, input: EventUpdateInput, now: number, passes?: PassChangeDeps): void {
  db.transaction(
    (tx) => {
      const event = tx.select().from(events).where(eq(events.id, input.id)).get();
      if (!event) throw NotFound("no such event");
      assertEditable(event);

      const current = new Date(event.startsAt).toISOString();
      const time = input.time ?? { hour: Number(current.slice(11, 13)), minute: Number(current.slice(14, 16)) };
      const zone = input.timeZone ?? event.timeZone;
      const at = startsAt(input.date, time);
      // Keeping an event's own day is always fine (a name fix on the night); moving it must be forward.
      if (utcToWallClock(at, zone).date !== utcToWallClock(event.startsAt, zone).date) {
        assertFromTomorrow(at, zone, now);
      }
      const fromAge = input.fromAge ?? event.fromAge;
      const toAge = input.toAge ?? event.toAge;
      assertAges(fromAge, toAge);
      const durationHours = input.durationHours ?? event.durationHours;
      const resultsAt = input.resultsAt === undefined ? event.resultsAt : input.resultsAt;
      assertResultsAfterEnd(resultsAt, at, durationHours);
      const doorsOpenAt = input.doorsOpenAt === undefined ? event.doorsOpenAt : input.doorsOpenAt;
      assertDoorsBeforeStart(doorsOpenAt, at);
      const creditUntil = input.creditUntil === undefined ? event.creditUntil : input.creditUntil;
      assertCreditBeforeStart(creditUntil, at);
      // Once someone is checked in, the doors have been used: opening them later would make that
      // arrival one the door refuses. Earlier is always fine.
      const doorsLater = doorsOpenAtOf({ ...event, startsAt: at, doorsOpenAt }) > doorsOpenAtOf(event);
      if (
        doorsLater &&
        tx
          .select({ id: bookings.id })
          .from(bookings)
          .where(and(eq(bookings.eventId, event.id), isNotNull(bookings.checkedInAt)))
          .get()
      ) {
        throw Conflict(
          "The doors can't open later: someone is already checked in, and that can't be undone.",
          "doors_in_use",
        );
      }
      const prices = priceColumns(input, event, { fromAge, toAge, timeZone: zone });
      // The choices are the night's rules: once it has started, guests may already have rated by them.
      if (
        input.offersFriend !== undefined &&
        input.offersFriend !== event.offersFriend &&
        event.status !== "upcoming"
      ) {
        throw Conflict("The choices can't change once the night has started.", "format_locked");
      }

      // The format is who meets whom: once someone booked under it, their answers (or the lack of
      // them) belong to it (issue 37).
      const format = input.format ?? event.format;
      if (format !== event.format && hasBookings(tx, event.id)) {
        throw Conflict(
          "The format can't change once someone has booked: their answers were given for this one.",
          "format_locked",
        );
      }
      // Left out, the plan stays as it is (and must still add up to a changed total); a format with
      // one pool of seats clears it.
      const keep = input.seatsMale === undefined && input.seatsFemale === undefined;
      const plan = keep
        ? splitsByGender(format)
          ? seatPlan(input.totalSeats, event.seatsMale, event.seatsFemale)
          : seatPlan(input.totalSeats, null, null)
        : seatPlan(input.totalSeats, input.seatsMale, input.seatsFemale);
      assertPoolFits(format, plan);
      const minimum = minimumColumns(input, event, { format, startsAt: at, totalSeats: input.totalSeats, ...plan });
      // Paid seats, live holds and seats kept for a waitlist offer: no total or gender goes below them.
      const taken = seatUse(tx, event.id, now);
      // Said as the organiser thinks of it: "paid" when every seat in the way is paid, "taken" when
      // some are live holds or waitlist offers that may still lapse.
      const below = (who: string, side: "total" | "male" | "female") => {
        const paid = seatUse(tx, event.id, Number.MAX_SAFE_INTEGER)[side];
        const how = paid === taken[side] ? "paid" : "taken (paid, or being booked right now)";
        return Conflict(`${who} can't go below the ${taken[side]} already ${how}.`, "seats_taken", {
          takenSeats: taken[side],
        });
      };
      if (input.totalSeats < taken.total) throw below("Seats", "total");
      if (plan.seatsMale !== null && plan.seatsMale < taken.male) throw below("Men's seats", "male");
      if (plan.seatsFemale !== null && plan.seatsFemale < taken.female) throw below("Women's seats", "female");

      tx.update(events)
        .set({
          ...textColumnsOfUpdate(input, event),
          startsAt: at,
          timeZone: zone,
          totalSeats: input.totalSeats,
          ...plan,
          durationHours,
          resultsAt,
          doorsOpenAt,
          creditUntil,
          fromAge,
          toAge,
          priceCents: input.priceCents ?? event.priceCents,
          ...prices,
          // A new policy applies to cancels from now on, bookings made under the old one included:
          // the organiser states it, and the guest sees the one in force before confirming.
          cancelFullRefundHours: input.cancelFullRefundHours ?? event.cancelFullRefundHours,
          cancelLaterPercent: input.cancelLaterPercent ?? event.cancelLaterPercent,
          offersFriend: input.offersFriend ?? event.offersFriend,
          format,
          ...minimum,
          noMatchPromise: input.noMatchPromise ?? event.noMatchPromise,
        })
        .where(eq(events.id, event.id))
        .run();
      if (passes) eventEdited(tx, passes, event, tx.select().from(events).where(eq(events.id, event.id)).get()!, now);
    },
    { behavior: "immediate" },
  );
}

/**
 * Points the event at a newly stored picture and returns the one it replaces, for the caller to
 * delete once this has committed.
 */
export function replaceEventImage(db: Db, eventId: number, imageName: string): { previous: string } {
  return db.transaction(
    (tx) => {
      const event = tx.select().from(events).where(eq(events.id, eventId)).get();
      if (!event) throw NotFound("no such event");
      assertEditable(event);
      tx.update(events).set({ imageName }).where(eq(events.id, eventId)).run();
      return { previous: event.imageName };
    },
    { behavior: "immediate" },
  );
}
