import { and, asc, eq, inArray, isNotNull, ne, sql } from "drizzle-orm";
import { resultsAtOf } from "../../common/results-time.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import {
  bookings,
  type Event,
  events,
  type FeedbackChoice,
  feedback,
  type PersonGender,
  users,
  type WantsToMeet,
} from "../../db/schema.ts";
import type { Env } from "../env.ts";
import { type FeedbackPage, isValidFeedbackToken } from "../lib/capability.ts";
import { Conflict, Forbidden, NotFound } from "../lib/errors.ts";
import { metInStartedRounds } from "./rounds.ts";

/**
 * Partner feedback after an event: what its three rooms share. Every call is made with a capability
 * link (the `t` texted at start and end), so the token is checked before anything that could reveal
 * who attended. Each token opens its own page only (docs/decisions/011): the start link's lists
 * partners and saves taps (ratings.ts), the end link's reads the report (feedback-report.ts), which
 * holds phone numbers, and sets what each match may see (contact-sharing.ts). This file holds the
 * link checks, the caller's seat, the partner rule and which group of the report a pair falls in.
 *
 * Decisions made here (the calls' shapes in docs/api.md do not settle them):
 * - Ratings are taken from the start until the results are released (docs/decisions/021-results.md);
 *   before the start nobody has met anyone, so saving (and listing partners) answers 409, and after
 *   the release saving answers 409 `ratings_closed` (the partners page still lists who they met).
 *   The report answers 409 `results_not_yet` until the release, with the time it is due: before
 *   then it would show likes as they happen, and miss what others rate later.
 * - The caller must hold a paid, unrefunded seat (403 otherwise); the rated partner must be one of
 *   the caller's partners (404 otherwise, as for a refunded or unknown person). Partners are, in this
 *   order of precedence (docs/decisions/019-running-the-night.md): with a rounds plan, the paid
 *   attendees met in the rounds started so far, newest first; else, once anyone was checked in at
 *   the door, the checked-in attendees of the other gender; else every paid attendee of the other
 *   gender. So a no-show is nobody's partner, and has no partners, once the door or the rounds say
 *   who came.
 * - A `clientTs` more than a day ahead of the server's clock is refused (400): a phone with a clock
 *   set far ahead would otherwise make one tap impossible to change.
 */

export type Ctx = { db: Db; env: Pick<Env, "SESSION_SECRET"> };

/** Date (`like`), Friend (`friend`, only where the event offers it) or No (`dislike`). */
export type FeedbackValue = FeedbackChoice;
export type Partner = { id: number; username: string; image_name: string };

export function assertLink(ctx: Ctx, page: FeedbackPage, userId: number, eventId: number, token: unknown) {
  if (!isValidFeedbackToken(ctx.env, page, userId, eventId, token)) {
    throw Forbidden("this feedback link is not valid", "invalid_link");
  }
}

export type Seat = { gender: PersonGender };

/** The caller's paid seat at the event, or 403. */
export function participantOf(db: DbOrTx, userId: number, eventId: number): Seat {
  const row = db
    .select({ gender: users.gender })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .where(and(eq(bookings.userId, userId), eq(bookings.eventId, eventId), eq(bookings.status, "paid")))
    .get();
  if (!row) throw Forbidden("you are not a participant of this event", "not_a_participant");
  return row;
}

export function eventOf(db: DbOrTx, eventId: number): Event {
  const event = db.select().from(events).where(eq(events.id, eventId)).get();
  if (!event) throw NotFound("no such event");
  return event;
}

/** Partners can be listed once the night has started, and still after the ratings closed. */
export function assertStarted(db: DbOrTx, eventId: number): Event {
  const event = eventOf(db, eventId);
  if (event.status === "upcoming") throw Conflict("feedback opens when the event starts", "feedback_not_open");
  if (event.status === "cancelled") throw Conflict("this event was cancelled", "event_cancelled");
  return event;
}

const partnerColumns = { id: users.id, username: users.name, image_name: users.thumbName };

/**
 * The other paid participants this guest could have met, by name: of the other gender at a Women
 * meet men night, anyone else at the others; `checkedIn` keeps those who came only.
 */
export function paidOfOtherGender(db: DbOrTx, userId: number, eventId: number, seat: Seat, checkedIn = false) {
  const event = db.select({ format: events.format }).from(events).where(eq(events.id, eventId)).get();
  const oneSide = event?.format !== "one_group" && event?.format !== "mixed";
  const rows = db
    .select({
      ...partnerColumns,
      phone: users.phone,
      email: users.email,
      gender: users.gender,
      wants: users.wantsToMeet,
    })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .where(
      and(
        eq(bookings.eventId, eventId),
        eq(bookings.status, "paid"),
        ne(users.id, userId),
        oneSide ? ne(users.gender, seat.gender) : undefined,
        checkedIn ? isNotNull(bookings.checkedInAt) : undefined,
      ),
    )
    .orderBy(asc(sql`${users.name} collate nocase`), asc(users.id))
    .all();
  // At Mixed, only those each would like to meet (the planner's rule); the answers stay in here.
  const me = event?.format === "mixed" ? mixedSelf(db, userId) : null;
  return rows
    .filter((r) => !me || wantEachOther(me, { gender: r.gender, wants: r.wants }))
    .map(({ gender: _, wants: __, ...r }) => r);
}

type MixedAnswers = { gender: PersonGender; wants: WantsToMeet | null };

const mixedSelf = (db: DbOrTx, userId: number): MixedAnswers =>
  db.select({ gender: users.gender, wants: users.wantsToMeet }).from(users).where(eq(users.id, userId)).get() ?? {
    gender: "unasked",
    wants: null,
  };

const WANTED = { women: "female", men: "male" } as const;
const wants = (x: MixedAnswers, y: MixedAnswers) =>
  x.wants === "everyone" || (x.wants !== null && WANTED[x.wants] === y.gender);
/** planning/group-plan.ts's wantToMeet over stored answers: each would like to meet the other. */
const wantEachOther = (x: MixedAnswers, y: MixedAnswers) => wants(x, y) && wants(y, x);

const anyoneCheckedIn = (db: DbOrTx, eventId: number) =>
  db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.eventId, eventId), isNotNull(bookings.checkedInAt)))
    .limit(1)
    .get() !== undefined;

const checkedInHere = (db: DbOrTx, userId: number, eventId: number) =>
  db
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(eq(bookings.eventId, eventId), eq(bookings.userId, userId), isNotNull(bookings.checkedInAt)))
    .get() !== undefined;

/** Whom the caller may see and rate: the partner rule at the top of this file. */
export function partnersOf(db: DbOrTx, userId: number, eventId: number, seat: Seat, now: number): Partner[] {
  const met = metInStartedRounds(db, eventId, userId, now);
  if (met === null) {
    const doorUsed = anyoneCheckedIn(db, eventId);
    // Once the door says who came, a guest it never checked in met nobody, as in the rounds.
    if (doorUsed && !checkedInHere(db, userId, eventId)) return [];
    return paidOfOtherGender(db, userId, eventId, seat, doorUsed).map(({ phone: _, email: __, ...p }) => p);
  }
  if (met.length === 0) return [];
  const rows = db
    .select(partnerColumns)
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .where(and(eq(bookings.eventId, eventId), eq(bookings.status, "paid"), inArray(users.id, met)))
    .all();
  const byId = new Map(rows.map((row) => [row.id, row]));
  return met.flatMap((id) => byId.get(id) ?? []);
}

/** A Date or a Friend: the choices that say "I'd like to see you again". */
export const warm = (value: FeedbackValue | undefined) => value === "like" || value === "friend";

/** The report's group of a pair, from this guest's choice and the other's. */
export function reportGroup(
  mine: FeedbackValue | undefined,
  theirs: FeedbackValue | undefined,
): "mutual" | "friends" | "likedme" | "iliked" | null {
  if (mine === "like" && theirs === "like") return "mutual";
  if (warm(mine) && warm(theirs)) return "friends";
  if (warm(theirs)) return "likedme";
  if (warm(mine)) return "iliked";
  return null;
}

export function openReport(ctx: Ctx, input: { userId: number; eventId: number; token: unknown }): Event {
  assertLink(ctx, "report", input.userId, input.eventId, input.token);
  const event = eventOf(ctx.db, input.eventId);
  if (event.status === "cancelled") throw Conflict("this event was cancelled", "event_cancelled");
  if (event.resultsReleasedAt === null) {
    // The page says when, on the venue's clock: it needs the zone as well as the instant.
    throw Conflict("the results are not out yet", "results_not_yet", {
      resultsAt: new Date(resultsAtOf(event)).toISOString(),
      timeZone: event.timeZone,
    });
  }
  return event;
}

/** Both choices of every pair that includes this guest: id → value, each way. */
export function choicesAround(db: DbOrTx, eventId: number, userId: number) {
  const rows = db
    .select({ from: feedback.fromUserId, to: feedback.toUserId, value: feedback.value })
    .from(feedback)
    .where(
      and(eq(feedback.eventId, eventId), sql`(${feedback.fromUserId} = ${userId} or ${feedback.toUserId} = ${userId})`),
    )
    .all();
  const mine = new Map(rows.filter((r) => r.from === userId).map((r) => [r.to, r.value]));
  const theirs = new Map(rows.filter((r) => r.to === userId).map((r) => [r.from, r.value]));
  return { mine, theirs };
}
