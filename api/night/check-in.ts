import { and, eq, gt, isNull, or } from "drizzle-orm";
import { doorsOpenAtOf, doorsOpenText } from "../../common/doors-open.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import { type Booking, bookings, type Event, events } from "../../db/schema.ts";
import { findBookingContext, loadBookingContext } from "../booking/checkout.ts";
import { safeEqual } from "../lib/crypto.ts";
import { BadRequest, Conflict, DomainError, NotFound } from "../lib/errors.ts";
import { assertUnderLimit, type Limit, recordHit } from "../lib/rate-limit.ts";

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/**
 * Wrong door codes per booking: a code of 10 characters from 31 cannot be guessed 5 at a time, and
 * one attendee's typos never block anyone else. The address ceiling only stops a script walking
 * through bookings; it is generous because a whole crowd shares the venue's Wi-Fi address.
 */
export const CONFIRM_PER_BOOKING_LIMIT: Limit = { bucket: "confirm-booking-booking", max: 5, windowMs: 10 * MINUTE };
export const CONFIRM_PER_ADDRESS_LIMIT: Limit = { bucket: "confirm-booking", max: 200, windowMs: 10 * MINUTE };

/** How far ahead of the server a door phone's clock may run, and how late a queued check-in may arrive. */
export const CHECK_IN_CLOCK_SKEW_MS = 5 * MINUTE;
export const CHECK_IN_MAX_AGE_MS = 7 * DAY;
// A check-in dated before the doors open (common/doors-open.ts) is not an arrival at the night
// (docs/decisions/017-second-review.md, 008-door.md), and neither is one dated before the booking was paid.
export { DOORS_OPEN_BEFORE_START_MS } from "../../common/doors-open.ts";

/** The refusal of an arrival before the doors open, with the time they open on the venue's clock. */
export function doorsNotOpen(
  event: Pick<Event, "startsAt" | "startedAt" | "doorsOpenAt" | "timeZone">,
  status: 400 | 403,
  now: number,
) {
  const opens = doorsOpenAtOf(event);
  const text = `${doorsOpenText(opens, event.timeZone, now)}.`;
  return new DomainError(status, text, status === 400 ? "doors_not_open" : "host_link_not_open", {
    doorsOpenAt: new Date(opens).toISOString(),
    timeZone: event.timeZone,
  });
}

/** How long before the start an attendee's own code counts as arriving (docs/api.md, confirm-booking). */
export const SELF_ARRIVAL_BEFORE_START_MS = 2 * 60 * MINUTE;

/**
 * Whether a code typed on the confirm-booking page without a staff session is an arrival: from 2 hours
 * before the start (or the organiser's early start) until the night's end, which is its planned end
 * (counted from a late start, if it started late), or earlier if the organiser ended it. The confirmation
 * SMS used to link to that page, so attendees typed their code at home days ahead: that is not arriving.
 */
export function isSelfArrivalOpen(
  event: Pick<Event, "status" | "startsAt" | "startedAt" | "endedAt" | "durationHours">,
  now: number,
): boolean {
  if (event.status === "cancelled" || event.status === "ended" || event.endedAt !== null) return false;
  const start = event.startedAt ?? event.startsAt;
  if (now < Math.min(event.startsAt, start) - SELF_ARRIVAL_BEFORE_START_MS) return false;
  return now <= Math.max(event.startsAt, start) + event.durationHours * 60 * MINUTE;
}

/**
 * The confirm-booking page's header: anyone scanning a QR opens it, so it answers the event's public
 * details for any existing event whatever the `userId`, and walking the sequential user ids learns
 * nothing about who booked. The code itself is only for the admin (door staff).
 */
export function getEventDetails(db: Db, input: { userId: number; eventId: number; admin: boolean }) {
  const event = db.select().from(events).where(eq(events.id, input.eventId)).get();
  if (!event) throw NotFound("no such event");
  const booking = input.admin ? findBookingContext(db, input.userId, input.eventId)?.booking : undefined;
  return {
    event: {
      eventName: event.name,
      eventDate: new Date(event.startsAt).toISOString(),
      eventLocation: event.address,
      time_zone: event.timeZone,
    },
    uniqueCode: booking?.uniqueCode ?? null,
  };
}

// Codes are printed in capitals, but people type what they see on a phone keyboard: "abcd efgh2 " is fine.
const normaliseCode = (code: string) => code.trim().toUpperCase();

/**
 * `checkedIn`: whether the booking has an arrival on record after this call; `checkedInAt` is the
 * first one, present exactly when `checkedIn` is true.
 */
export type ConfirmBookingReply =
  | { confirmed: false }
  | ({ confirmed: true; checkedIn: true; checkedInAt: string } & StaffDetails)
  | ({ confirmed: true; checkedIn: false } & StaffDetails);

/**
 * What staff confirming a right code also learn: whose ticket it is, and, before the doors open, when
 * they do (no arrival is recorded until then). Nothing of this goes to a caller without a staff session.
 */
type StaffDetails = { name?: string; doorsOpenAt?: string };

/**
 * Checks a door code on the server, in constant time, for a paid booking only. A right code records
 * the first check-in when staff confirm it (`staff`: the admin session) or, for anyone, during the
 * night (`isSelfArrivalOpen`); otherwise it only says the code is right. Wrong guesses count against
 * the booking (5 per 10 minutes) and the caller's address (200); at either limit every guess is
 * refused, the right one too, so guessing stays pointless.
 */
export function confirmBooking(
  db: Db,
  input: { userId: number; eventId: number; uniqueCode: string; address: string; now: number; staff: boolean },
): ConfirmBookingReply {
  const bookingKey = `${input.eventId}:${input.userId}`;
  assertUnderLimit(db, CONFIRM_PER_ADDRESS_LIMIT, input.address, input.now);
  assertUnderLimit(db, CONFIRM_PER_BOOKING_LIMIT, bookingKey, input.now);
  let stored: string | null = null;
  let paid = false;
  try {
    const { booking } = loadBookingContext(db, input.userId, input.eventId);
    stored = booking.uniqueCode;
    paid = booking.status === "paid";
  } catch {
    // An unknown booking is just a wrong answer: the page shows "Invalid code".
  }
  const matches = safeEqual(normaliseCode(input.uniqueCode), stored ? normaliseCode(stored) : "\u0000");
  if (!paid || !stored || !matches) {
    recordHit(db, CONFIRM_PER_ADDRESS_LIMIT, input.address, input.now);
    recordHit(db, CONFIRM_PER_BOOKING_LIMIT, bookingKey, input.now);
    return { confirmed: false };
  }
  return db.transaction(
    (tx): ConfirmBookingReply => {
      const { booking, event, user } = loadBookingContext(tx, input.userId, input.eventId);
      // Every way of checking in waits for the doors, staff confirming a code included.
      const doorsOpen = input.now >= doorsOpenAtOf(event);
      const details: StaffDetails = input.staff
        ? { name: user.name, ...(doorsOpen ? {} : { doorsOpenAt: new Date(doorsOpenAtOf(event)).toISOString() }) }
        : {};
      if (doorsOpen && (input.staff || isSelfArrivalOpen(event, input.now))) {
        return { confirmed: true, checkedIn: true, checkedInAt: recordCheckIn(tx, booking, input.now), ...details };
      }
      // Already checked in (by staff, or during the night): that arrival stands.
      return booking.checkedInAt === null
        ? { confirmed: true, checkedIn: false, ...details }
        : { confirmed: true, checkedIn: true, checkedInAt: new Date(booking.checkedInAt).toISOString(), ...details };
    },
    { behavior: "immediate" },
  );
}

/**
 * **Open doors now**: check-in opens at once, without starting the night (no texts, sales stay open).
 * The doors-open time becomes now; doors already open keep their time, so pressing again changes
 * nothing (`changed: false`). 409 for an ended or cancelled night.
 */
export function openDoors(db: Db, eventId: number, now: number): { doorsOpenAt: string; changed: boolean } {
  return db.transaction(
    (tx) => {
      const event = tx.select().from(events).where(eq(events.id, eventId)).get();
      if (!event) throw NotFound("no such event");
      if (event.status === "ended" || event.status === "cancelled" || event.endedAt !== null) {
        throw Conflict(`This event has ${event.status === "cancelled" ? "been cancelled" : "ended"}.`, "wrong_state");
      }
      const opens = doorsOpenAtOf(event);
      if (opens <= now) return { doorsOpenAt: new Date(opens).toISOString(), changed: false };
      tx.update(events).set({ doorsOpenAt: now }).where(eq(events.id, eventId)).run();
      return { doorsOpenAt: new Date(now).toISOString(), changed: true };
    },
    { behavior: "immediate" },
  );
}

/** The first arrival wins: a later time never replaces an earlier one, an earlier one always does. */
function recordCheckIn(tx: DbOrTx, booking: Booking, at: number): string {
  tx.update(bookings)
    .set({ checkedInAt: at })
    .where(and(eq(bookings.id, booking.id), or(isNull(bookings.checkedInAt), gt(bookings.checkedInAt, at))))
    .run();
  const row = tx.select({ checkedInAt: bookings.checkedInAt }).from(bookings).where(eq(bookings.id, booking.id)).get();
  return new Date(row?.checkedInAt ?? at).toISOString();
}

function assertAdmissible(booking: Booking) {
  if (booking.status === "refunded") throw Conflict("this booking was refunded", "refunded");
  if (booking.status === "transferred")
    throw Conflict(
      "this ticket was given to a friend, so it is NOT VALID: the friend's own ticket gets in",
      "not_paid",
    );
  if (booking.status !== "paid") throw Conflict("this booking is not paid", "not_paid");
}

/**
 * Door staff check an attendee in. `clientTs` is when the tap happened on the phone (it may reach us
 * much later, from an offline queue); the earliest check-in of a booking is the one kept, so replays
 * and late syncs never move it forward.
 */
export function checkIn(
  db: Db,
  input: { userId: number; eventId: number; clientTs: number; now: number },
): { checkedInAt: string; changed: boolean } {
  if (input.clientTs > input.now + CHECK_IN_CLOCK_SKEW_MS) {
    throw BadRequest("This tap is dated in the future; check the phone's clock.");
  }
  if (input.clientTs < input.now - CHECK_IN_MAX_AGE_MS)
    throw BadRequest("This tap is more than a week old, so it can't count as an arrival.");
  return db.transaction(
    (tx) => {
      const { booking, event } = loadBookingContext(tx, input.userId, input.eventId);
      assertAdmissible(booking);
      // The event's doors-open time; a night the organiser started early opens its doors from then.
      if (input.clientTs < doorsOpenAtOf(event)) throw doorsNotOpen(event, 400, input.now);
      if (booking.paidAt !== null && input.clientTs < booking.paidAt) {
        throw BadRequest("This tap is before the booking was paid; check the phone's clock.");
      }
      // `changed`: this tap is the first arrival, or an earlier one than recorded (for the activity log).
      const changed = booking.checkedInAt === null || booking.checkedInAt > input.clientTs;
      return { checkedInAt: recordCheckIn(tx, booking, input.clientTs), changed };
    },
    { behavior: "immediate" },
  );
}

/** Takes a check-in back (the wrong row was tapped). Idempotent like checking in. */
export function undoCheckIn(
  db: Db,
  input: { userId: number; eventId: number },
): { checkedInAt: null; changed: boolean } {
  return db.transaction(
    (tx) => {
      const { booking } = loadBookingContext(tx, input.userId, input.eventId);
      assertAdmissible(booking);
      tx.update(bookings).set({ checkedInAt: null }).where(eq(bookings.id, booking.id)).run();
      return { checkedInAt: null, changed: booking.checkedInAt !== null };
    },
    { behavior: "immediate" },
  );
}
