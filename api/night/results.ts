import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { resultsAtOf, resultsWhen } from "../../common/results-time.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import { preparedPerDb } from "../../db/prepared.ts";
import { bookings, type Event, events, feedback, type PersonGender, users } from "../../db/schema.ts";
import type { Env } from "../env.ts";
import { eventFeedbackLink, participantFeedbackLink } from "../lib/capability.ts";
import { Conflict, NotFound } from "../lib/errors.ts";
import type { Logger } from "../lib/log.ts";
import { textPaidAttendees } from "../messaging/attendee-texts.ts";
import { deliverBatch, enqueueSms } from "../messaging/outbox.ts";
import { senderOf } from "../messaging/templates/email-frame.ts";
import { ratingReminderText, resultsEmail, resultsText as resultsTextFor } from "../messaging/templates/results.ts";
import type { SmsProvider } from "../providers/sms/types.ts";
import { whoCame } from "./attendance.ts";
import { setShareDefaults } from "./contact-sharing.ts";
import { type FeedbackValue, partnersOf } from "./feedback.ts";
import { keepNoMatchPromise } from "./no-match-promise.ts";
import type { RatedBy } from "./ratings.ts";

// The results of a night (docs/decisions/021-results.md): released once, by the organiser's Release
// results or by the scheduler at `resultsAt`; one text per participant with their matches; one
// reminder before that to those who have not rated everyone they met. Every text is queued in the
// outbox under a key per event and person, so a restart or a second run sends nothing twice. A night
// with the no-match promise also gives its credit here (api/night/no-match-promise.ts).

type Deps = { db: Db; env: Env; sms: SmsProvider; log: Logger; now: () => number };

const HOUR = 3_600_000;
/** No reminder in the hour after the end: the End text has just asked. */
const REMINDER_NOT_BEFORE_END_MS = HOUR;

type Progress = {
  userId: number;
  name: string;
  gender: PersonGender;
  /** Came to the night (attendance.ts), the one rule every count and text follows. */
  came: boolean;
  partners: { id: number; username: string; feedback: FeedbackValue | null; ratedBy: RatedBy | null }[];
  /** Came, met someone and rated everyone they met. */
  done: boolean;
};

/**
 * Every paid guest with the people they met and what they chose: the ground of the organiser's
 * progress, the Rounds tab's scorecards and the reminder, so all three agree.
 */
function progressOf(db: DbOrTx, eventId: number, now: number): Progress[] {
  const paid = db
    .select({ userId: users.id, name: users.name, gender: users.gender })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .where(and(eq(bookings.eventId, eventId), eq(bookings.status, "paid")))
    .orderBy(asc(sql`${users.name} collate nocase`), asc(users.id))
    .all();
  const rated = new Map(
    db
      .select({ from: feedback.fromUserId, to: feedback.toUserId, value: feedback.value, ratedBy: feedback.ratedBy })
      .from(feedback)
      .where(eq(feedback.eventId, eventId))
      .all()
      .map((r) => [`${r.from}:${r.to}`, r]),
  );
  const came = whoCame(db, eventId, now);
  return paid.map((person) => {
    const partners = partnersOf(db, person.userId, eventId, person, now).map((p) => {
      const r = rated.get(`${person.userId}:${p.id}`);
      return { id: p.id, username: p.username, feedback: r?.value ?? null, ratedBy: r?.ratedBy ?? null };
    });
    const counted = came.has(person.userId) && partners.length > 0;
    return {
      ...person,
      came: came.has(person.userId),
      partners,
      done: counted && partners.every((p) => p.feedback !== null),
    };
  });
}

/**
 * Who has rated everyone they met, among the guests who came and met someone: the organiser's
 * progress (`ratings` in the summary) and the reminder's list of those still to finish. A no-show,
 * or someone who met nobody, has nothing to rate and is in neither list.
 */
export function ratingProgress(db: DbOrTx, eventId: number, now: number): { done: number[]; notDone: number[] } {
  const done: number[] = [];
  const notDone: number[] = [];
  for (const person of progressOf(db, eventId, now)) {
    if (!person.came || person.partners.length === 0) continue;
    (person.done ? done : notDone).push(person.userId);
  }
  return { done, notDone };
}

/**
 * Matches per participant, both still holding a paid seat: `mutual` (Date and Date) and `friends`
 * (Date or Friend both ways, not both Date; issue 37), as the report groups them (feedback.ts).
 */
function matchCounts(db: DbOrTx, eventId: number): { mutual: Map<number, number>; friends: Map<number, number> } {
  const paid = new Set(
    db
      .select({ userId: bookings.userId })
      .from(bookings)
      .where(and(eq(bookings.eventId, eventId), eq(bookings.status, "paid")))
      .all()
      .map((b) => b.userId),
  );
  const warm = db
    .select({ from: feedback.fromUserId, to: feedback.toUserId, value: feedback.value })
    .from(feedback)
    .where(and(eq(feedback.eventId, eventId), inArray(feedback.value, ["like", "friend"])))
    .all()
    .filter((l) => paid.has(l.from) && paid.has(l.to));
  const choice = new Map(warm.map((l) => [`${l.from}:${l.to}`, l.value]));
  const mutual = new Map<number, number>();
  const friends = new Map<number, number>();
  for (const l of warm) {
    const back = choice.get(`${l.to}:${l.from}`);
    if (back === undefined) continue;
    const counts = l.value === "like" && back === "like" ? mutual : friends;
    counts.set(l.from, (counts.get(l.from) ?? 0) + 1);
  }
  return { mutual, friends };
}

/**
 * The release text to one guest: their matches and their report link, in the words of
 * api/messaging/templates/results.ts.
 */
export function resultsText(env: Env, event: Event, userId: number, matches: number, friends = 0): string {
  return resultsTextFor({
    eventName: event.name,
    reportUrl: eventFeedbackLink(env, userId, event.id),
    matches,
    friends,
  });
}

/** `releasedNow` is false when the results were already out (a second tap, or the scheduler first). */
export type ReleaseResult = { releasedAt: number; releasedNow: boolean; sent: number; failed: number };

/**
 * Releases an ended event's results: ratings close and the report opens at `releasedAt`, and every
 * paid participant's text is queued in the same transaction. Releasing again changes nothing and
 * answers the first release's time (the organiser's second tap, or the scheduler getting there too).
 */
export async function releaseResults(deps: Deps, eventId: number): Promise<ReleaseResult> {
  const prefix = `results:${eventId}:`;
  const { releasedAt, releasedNow } = deps.db.transaction(
    (tx) => {
      const event = tx.select().from(events).where(eq(events.id, eventId)).get();
      if (!event) throw NotFound("no such event");
      if (event.status !== "ended") {
        throw Conflict(`the event is ${event.status}; results are released once it has ended`, "wrong_state");
      }
      if (event.resultsReleasedAt !== null) return { releasedAt: event.resultsReleasedAt, releasedNow: false };
      const now = deps.now();
      tx.update(events)
        .set({ resultsReleasedAt: now })
        .where(and(eq(events.id, eventId), isNull(events.resultsReleasedAt)))
        .run();
      // Each guest's sharing default for this night's matches, fixed now (decision 040).
      setShareDefaults(tx, eventId, now);
      const counts = matchCounts(tx, eventId);
      const countsOf = (userId: number) => ({
        matches: counts.mutual.get(userId) ?? 0,
        friends: counts.friends.get(userId) ?? 0,
      });
      // A no-show had their one text at the end (event-lifecycle.ts); nothing more now.
      const came = whoCame(tx, eventId, now);
      textPaidAttendees(tx, eventId, {
        only: (attendee) => came.has(attendee.userId),
        dedupeKey: (attendee) => `${prefix}${attendee.userId}`,
        body: (attendee) => {
          const { matches, friends } = countsOf(attendee.userId);
          return resultsText(deps.env, event, attendee.userId, matches, friends);
        },
        email: {
          env: deps.env,
          content: (attendee) =>
            resultsEmail({
              sender: senderOf(deps.env),
              event,
              name: attendee.name,
              reportUrl: eventFeedbackLink(deps.env, attendee.userId, event.id),
              ...countsOf(attendee.userId),
            }),
        },
      });
      // The no-match promise (decision 060): credit and one text, in this transaction, keyed per booking.
      const guests = progressOf(tx, eventId, now).map((p) => ({
        userId: p.userId,
        done: p.done,
        ...countsOf(p.userId),
      }));
      keepNoMatchPromise(tx, deps.env, event, guests, now);
      return { releasedAt: now, releasedNow: true };
    },
    { behavior: "immediate" },
  );
  return { releasedAt, releasedNow, ...(await deliverBatch(deps, prefix)) };
}

/** Ended events whose results are not out yet (asked every tick, so built once: db/prepared.ts). */
const unreleasedQuery = preparedPerDb((db) =>
  db
    .select()
    .from(events)
    .where(and(eq(events.status, "ended"), isNull(events.resultsReleasedAt)))
    .prepare(),
);
const unreleased = (db: Db) => unreleasedQuery(db).all();

/** The scheduler's release: every ended event whose results time has come. Sending is left to the outbox job. */
export async function releaseDueResults(deps: Deps, now: number): Promise<number> {
  let released = 0;
  for (const event of unreleased(deps.db)) {
    if (resultsAtOf(event) > now) continue;
    await releaseResults(deps, event.id);
    released++;
  }
  return released;
}

/**
 * One reminder, RATING_REMINDER_HOURS before the results time, to each participant who has not
 * rated everyone they met. Not in the hour after the end (the End text just asked), and not once
 * the results time has come. The outbox's key makes it once per person however often this runs.
 */
export function queueRatingReminders(deps: Pick<Deps, "db" | "env">, now: number): number {
  const hours = deps.env.RATING_REMINDER_HOURS;
  if (hours === null) return 0;
  let queued = 0;
  for (const event of unreleased(deps.db)) {
    const resultsAt = resultsAtOf(event);
    const dueAt = Math.max(resultsAt - hours * HOUR, (event.endedAt ?? 0) + REMINDER_NOT_BEFORE_END_MS);
    if (now < dueAt || now >= resultsAt) continue;
    const { notDone } = ratingProgress(deps.db, event.id, now);
    if (notDone.length === 0) continue;
    const phones = new Map(
      deps.db
        .select({ userId: bookings.userId, phone: bookings.phone })
        .from(bookings)
        .where(and(eq(bookings.eventId, event.id), eq(bookings.status, "paid")))
        .all()
        .map((b) => [b.userId, b.phone]),
    );
    const when = resultsWhen(resultsAt, event.timeZone, now);
    deps.db.transaction(
      (tx) => {
        for (const userId of notDone) {
          const to = phones.get(userId);
          if (!to) continue;
          enqueueSms(tx, {
            dedupeKey: `rating-reminder:${event.id}:${userId}`,
            to,
            body: ratingReminderText({
              eventName: event.name,
              resultsBy: when,
              ratingUrl: participantFeedbackLink(deps.env, userId, event.id),
            }),
          });
          queued++;
        }
      },
      { behavior: "immediate" },
    );
  }
  return queued;
}

export type Scorecard = {
  id: number;
  name: string;
  /** Left out of a host's copy at One group and Mixed (api/night/host-gender.ts). */
  gender?: PersonGender;
  /** Has rated everyone they met. */
  done: boolean;
  /**
   * The people they met: whether each is rated and by whom (`guest` on their phone, or `staff` on a
   * paper card). `feedback` is the choice for the organiser only; a host gets null (decision 022).
   */
  partners: {
    id: number;
    username: string;
    rated: boolean;
    by: RatedBy | null;
    feedback: FeedbackValue | null;
  }[];
};

/**
 * The staff view of the ratings (the Rounds tab): when results come, whether they are out, and each
 * guest who came with the people they met, for typing in paper cards. A host sees only whether each
 * pair is rated and by whom, never the choice (docs/decisions/022-host-access.md); the organiser sees
 * the choices too.
 */
export function eventRatings(
  db: Db,
  eventId: number,
  now: number,
  caller: { choices: boolean },
): {
  resultsAt: string;
  released: boolean;
  offersFriend: boolean;
  ratings: { done: number; total: number };
  people: Scorecard[];
} {
  const event = db.select().from(events).where(eq(events.id, eventId)).get();
  if (!event) throw NotFound("no such event");
  const everyone = event.status === "upcoming" || event.status === "cancelled" ? [] : progressOf(db, eventId, now);
  // A paper card is for a guest who was there: no-shows are not listed, nor counted.
  const came = everyone.filter((p) => p.came);
  return {
    resultsAt: new Date(resultsAtOf(event)).toISOString(),
    released: event.resultsReleasedAt !== null,
    offersFriend: event.offersFriend,
    ratings: {
      done: came.filter((p) => p.done).length,
      total: came.filter((p) => p.partners.length > 0).length,
    },
    people: came.map((p) => ({
      id: p.userId,
      name: p.name,
      gender: p.gender,
      done: p.done,
      partners: p.partners.map((partner) => ({
        id: partner.id,
        username: partner.username,
        rated: partner.feedback !== null,
        by: partner.ratedBy,
        feedback: caller.choices ? partner.feedback : null,
      })),
    })),
  };
}
