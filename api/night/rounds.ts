import { and, eq, inArray, isNotNull, ne } from "drizzle-orm";
import type { z } from "zod";
import { ageOn, eventDate } from "../../common/age.ts";
import { ROOM_ANNOUNCEMENT } from "../../common/guest-message.ts";
import { ROUNDS_LIMITS as LIMITS, ROUNDS_DEFAULTS, type RoundsSettings } from "../../common/rounds-settings.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import { type EventRounds, eventRounds, type RoundsPhase } from "../../db/rounds-schema.ts";
import { bookings, type Event, events, type PersonGender, users, type WantsToMeet } from "../../db/schema.ts";
import { BadRequest, Conflict, NotFound } from "../lib/errors.ts";
import { keptApart } from "./keep-apart.ts";
import type { roundsView } from "./night-schemas.ts";
import { planGroupNight } from "./planning/format-plan.ts";
import { type PersonPair, planRounds, type Round, replanRounds } from "./planning/rounds-plan.ts";
import { advance, applyAction, type Clock, type ClockAction, shownPhaseEnd, type Timing } from "./rounds-clock.ts";

/**
 * The night's rounds on the server (docs/decisions/019-running-the-night.md): the plan built from the
 * people present, the clock the host runs, and who has met whom. The planner and the clock are pure
 * (planning/rounds-plan.ts, rounds-clock.ts); this file reads and writes them, each write in one IMMEDIATE
 * transaction that re-reads the state it changes.
 *
 * Why one file: every call here (plan, run, announce, left, the views) reads and writes the one
 * event_rounds row through the same private steps (the clock at `now`, who is present, the view),
 * inside the caller's transaction; split, those steps would be exported for each part to share. Keep
 * apart (keep-apart.ts) and the planners (planning/) already stand apart.
 */

const MINUTE = 60_000;

/** A checked-in attendee as the host's console lists them: never an email or a full phone. */
export type RoundsPerson = RoundsView["people"][number];

/** What the host's console reads; every admin rounds call answers it: its schema's type (night-schemas.ts). */
export type RoundsView = z.output<typeof roundsView>;

const NOT_STARTED: Clock = {
  status: "planned",
  current: null,
  phase: null,
  phaseEndsAt: null,
  pausedRemainingMs: null,
};

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function findEvent(db: DbOrTx, eventId: number): Event {
  const event = db.select().from(events).where(eq(events.id, eventId)).get();
  if (!event) throw NotFound("no such event");
  return event;
}

function assertStarted(event: Event) {
  if (event.status !== "started") {
    throw Conflict(`the event is ${event.status}; the rounds run while it is started`, "wrong_state");
  }
}

const settingsOf = (row: EventRounds | undefined): RoundsSettings =>
  row
    ? { roundMinutes: row.roundMinutes, breakMinutes: row.breakMinutes, maxRounds: row.maxRounds, seated: row.seated }
    : { ...ROUNDS_DEFAULTS };

const timingOf = (row: EventRounds): Timing => ({
  roundMs: row.roundMinutes * MINUTE,
  breakMs: row.breakMinutes * MINUTE,
  totalRounds: row.plan.length,
});

/**
 * The clock at `now`. Once the event has ended the night's clock stops at the end: a host who ends the
 * event mid-round has finished the rounds, and the rounds after it were never played.
 */
export function clockAt(row: EventRounds, event: Event, now: number): Clock {
  const stored: Clock = {
    status: row.status,
    current: row.current,
    phase: row.phase,
    phaseEndsAt: row.phaseEndsAt,
    pausedRemainingMs: row.pausedRemainingMs,
  };
  const until = event.status === "ended" && event.endedAt !== null ? Math.min(now, event.endedAt) : now;
  const clock = advance(stored, timingOf(row), until);
  if (event.status !== "started" && (clock.status === "running" || clock.status === "paused")) {
    return { ...clock, status: "finished", phase: null, phaseEndsAt: null, pausedRemainingMs: null };
  }
  return clock;
}

// `wantsToMeet` is read for the planner only and never leaves this file in a reply (issue 37).
type Attendee = RoundsPerson & { gender: PersonGender; checkedInAt: number; wantsToMeet: WantsToMeet | null };

// One collator for every sort: localeCompare with options builds a new one per comparison.
const byName = new Intl.Collator("en", { sensitivity: "base" }).compare;

/** The paid attendees checked in at the door, left or not, by name. */
function checkedIn(db: DbOrTx, eventId: number): Attendee[] {
  const rows = db
    .select({
      userID: users.id,
      username: users.name,
      gender: users.gender,
      wantsToMeet: users.wantsToMeet,
      image_name: users.thumbName,
      checkedInAt: bookings.checkedInAt,
      leftAt: bookings.leftAt,
      dateOfBirth: users.dateOfBirth,
    })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .where(and(eq(bookings.eventId, eventId), eq(bookings.status, "paid"), isNotNull(bookings.checkedInAt)))
    .all();
  const event = findEvent(db, eventId);
  // The event's date on the venue's clock, worked out once for everyone (a time-zone conversion).
  const day = eventDate(event.startsAt, event.timeZone);
  return rows
    .map(({ leftAt, checkedInAt, dateOfBirth, ...person }) => ({
      ...person,
      age: dateOfBirth === null ? null : ageOn(dateOfBirth, day),
      left: leftAt !== null,
      checkedInAt: checkedInAt ?? 0,
      arrivedAt: new Date(checkedInAt ?? 0).toISOString(),
    }))
    .sort((a, b) => byName(a.username, b.username) || a.userID - b.userID);
}

/** The present (checked in, not left), in order of arrival: the order the planners seat them in. */
const presentInOrder = (people: Attendee[]) =>
  people.filter((p) => !p.left).sort((a, b) => a.checkedInAt - b.checkedInAt || a.userID - b.userID);

/** The present by side, each in order of arrival. */
function presentBySide(people: Attendee[]) {
  const present = presentInOrder(people);
  return {
    female: present.filter((p) => p.gender === "female").map((p) => p.userID),
    male: present.filter((p) => p.gender === "male").map((p) => p.userID),
  };
}

function view(db: DbOrTx, event: Event, row: EventRounds | undefined, now: number): RoundsView {
  const people = checkedIn(db, event.id);
  const present = presentBySide(people);
  const everyone = presentInOrder(people).map((p) => p.userID);
  const clock = row ? clockAt(row, event, now) : undefined;
  const planned = new Set(row?.plannedFor ?? []);
  return {
    eventStatus: event.status,
    status: clock?.status ?? "none",
    settings: settingsOf(row),
    current: clock?.current ?? null,
    phase: clock?.phase ?? null,
    phaseEndsAt: iso(clock ? shownPhaseEnd(clock, now) : null),
    serverNow: new Date(now).toISOString(),
    format: event.format,
    present: { female: present.female.length, male: present.male.length },
    presentTotal: everyone.length,
    rounds: row?.plan ?? [],
    people: people.map(({ checkedInAt: _, wantsToMeet: __, ...person }) => person),
    arrivals: row ? everyone.filter((id) => !planned.has(id)) : [],
    metBefore: row ? seatedAgain(row.plan, row.metBefore) : [],
    announcement: row && clock ? announcementAt(row, clock) : null,
  };
}

/** A started night with a plan, and its clock at `now`; 409 `wrong_state` saying `notPlanned` without a plan. */
function plannedNight(tx: DbOrTx, eventId: number, now: number, notPlanned: string) {
  const event = findEvent(tx, eventId);
  assertStarted(event);
  const row = findRounds(tx, eventId);
  if (!row) throw Conflict(notPlanned, "wrong_state");
  return { event, row, at: clockAt(row, event, now) };
}

/** The announcement to show now: made in the round still on (or in its changeover), while the rounds run. */
export function announcementAt(row: EventRounds, clock: Clock): string | null {
  if (row.announcement === null || clock.status === "finished" || clock.status === "planned") return null;
  return clock.current === row.announcementRound ? row.announcement : null;
}

/**
 * **Announce**: a short line for the room's screen and every guest's round view (issue 37), shown
 * until the next round starts; an empty text takes it down. Only while the rounds run (or are
 * paused): before the start there is no round for it to belong to.
 */
export function announceToRoom(
  db: Db,
  input: { eventId: number; text: string },
  now: number,
): RoundsView & { changed: boolean } {
  return db.transaction(
    (tx) => {
      const { event, row, at } = plannedNight(
        tx,
        input.eventId,
        now,
        "Plan and start the rounds first: an announcement shows during them.",
      );
      if (at.status !== "running" && at.status !== "paused") {
        throw Conflict("An announcement shows while the rounds run; start them first.", "wrong_state");
      }
      const text = input.text.trim();
      if (text.length > ROOM_ANNOUNCEMENT.maxLength) {
        throw BadRequest(`Keep the announcement to ${ROOM_ANNOUNCEMENT.maxLength} characters; it has ${text.length}.`);
      }
      const before = announcementAt(row, at);
      const announcement = text === "" ? null : text;
      tx.update(eventRounds)
        .set({ announcement, announcementRound: announcement === null ? null : at.current, updatedAt: now })
        .where(eq(eventRounds.eventId, input.eventId))
        .run();
      return { ...view(tx, event, findRounds(tx, input.eventId), now), changed: before !== announcement };
    },
    { behavior: "immediate" },
  );
}

/** The plan's seats where the two met at an earlier night. */
function seatedAgain(plan: readonly Round[], metBefore: readonly PersonPair[]) {
  if (metBefore.length === 0) return [];
  const met = new Map<number, Set<number>>();
  for (const [a, b] of metBefore) {
    met.set(a, (met.get(a) ?? new Set()).add(b));
    met.set(b, (met.get(b) ?? new Set()).add(a));
  }
  return plan.flatMap((r) =>
    r.pairs.filter((p) => met.get(p.femaleID)?.has(p.maleID)).map((p) => ({ round: r.round, table: p.table })),
  );
}

export const findRounds = (db: DbOrTx, eventId: number) =>
  db.select().from(eventRounds).where(eq(eventRounds.eventId, eventId)).get();

/** The host's console: the plan, the clock and who is present. 404 for no such event. */
export function getRounds(db: Db, eventId: number, now: number): RoundsView {
  const event = findEvent(db, eventId);
  return view(db, event, findRounds(db, eventId), now);
}

/**
 * Plan rounds, or Re-plan rounds once they run: the rounds not yet started are rebuilt from the people
 * present now, the started ones are kept as they were. Settings left out keep their value. The plan
 * seats no pair kept apart and as few pairs who met at an earlier night as it can
 * (docs/decisions/030-nobody-across-the-table-twice.md).
 */
export function planEventRounds(
  db: Db,
  input: { eventId: number } & Partial<RoundsSettings>,
  now: number,
  options: { preview?: boolean } = {},
): RoundsView {
  return db.transaction(
    (tx) => {
      const event = findEvent(tx, input.eventId);
      assertStarted(event);
      const row = findRounds(tx, input.eventId);
      const values = newPlan(tx, event, row, input, now);
      // A preview answers the view the plan would give, and stores nothing.
      if (options.preview) {
        const announced = {
          announcement: row?.announcement ?? null,
          announcementRound: row?.announcementRound ?? null,
        };
        return view(tx, event, { eventId: input.eventId, ...announced, ...values }, now);
      }
      tx.insert(eventRounds)
        .values({ eventId: input.eventId, ...values })
        .onConflictDoUpdate({ target: eventRounds.eventId, set: values })
        .run();
      return view(tx, event, findRounds(tx, input.eventId), now);
    },
    { behavior: "immediate" },
  );
}

/** The row a (re-)plan stores: the settings, the clock where it stands, and the plan for who is present. */
export function newPlan(
  tx: DbOrTx,
  event: Event,
  row: EventRounds | undefined,
  input: Partial<RoundsSettings>,
  now: number,
) {
  const clock = row ? clockAt(row, event, now) : undefined;
  if (clock?.status === "finished") throw Conflict("the rounds are finished", "wrong_state");
  const before = settingsOf(row);
  const settings: RoundsSettings = {
    roundMinutes: input.roundMinutes ?? before.roundMinutes,
    breakMinutes: input.breakMinutes ?? before.breakMinutes,
    maxRounds: input.maxRounds === undefined ? before.maxRounds : input.maxRounds,
    seated: input.seated ?? before.seated,
  };
  const attendees = checkedIn(tx, event.id);
  if (event.format !== "women_men") return newGroupPlan(tx, event, row, clock, settings, attendees, now);
  const present = presentBySide(attendees);
  const cap = LIMITS.presentPerSide;
  if (present.female.length > cap || present.male.length > cap) {
    throw Conflict(
      `The rounds can be planned for up to ${cap} women and ${cap} men present; ${present.female.length} women and ${present.male.length} men are here. Mark those who left, or run this night's rounds by hand.`,
      "room_too_large",
      { present: { female: present.female.length, male: present.male.length }, limit: cap },
    );
  }
  const started = clock?.current ?? 0;
  const history = row && started > 0 ? { played: row.plan.slice(0, started), planned: row.plan.slice(started) } : null;
  // Who met at an earlier night, among those present and those in the rounds already played.
  const people = new Set([...present.female, ...present.male]);
  for (const round of history?.played ?? []) for (const p of round.pairs) people.add(p.femaleID).add(p.maleID);
  const metBefore = pairsMetBefore(tx, event.id, [...people], now);
  const under = {
    ...present,
    seated: settings.seated,
    maxRounds: settings.maxRounds,
    metBefore,
    keepApart: keptApart(tx, event.id),
  };
  return {
    ...settings,
    ...(clock ?? NOT_STARTED),
    plan: planFor(history, under),
    plannedFor: [...present.female, ...present.male],
    plannedAt: now,
    metBefore,
    updatedAt: now,
  };
}

/**
 * newPlan at One group and Mixed (docs/decisions/037-formats-on-the-night.md): everyone present in
 * one list, by arrival, planned by planning/group-plan.ts; the same settings, history, earlier nights and
 * Keep apart as Women meet men, and twice its cap on one side as the cap on the room.
 */
function newGroupPlan(
  tx: DbOrTx,
  event: Event,
  row: EventRounds | undefined,
  clock: Clock | undefined,
  settings: RoundsSettings,
  attendees: Attendee[],
  now: number,
) {
  const present = presentInOrder(attendees);
  const cap = LIMITS.presentPerSide * 2;
  if (present.length > cap) {
    const bySide = presentBySide(attendees);
    throw Conflict(
      `The rounds can be planned for up to ${cap} people present; ${present.length} are here. Mark those who left, or run this night's rounds by hand.`,
      "room_too_large",
      { present: { female: bySide.female.length, male: bySide.male.length }, limit: cap },
    );
  }
  const started = clock?.current ?? 0;
  const history = row && started > 0 ? { played: row.plan.slice(0, started), planned: row.plan.slice(started) } : null;
  const people = new Set(present.map((p) => p.userID));
  for (const round of history?.played ?? []) for (const p of round.pairs) people.add(p.femaleID).add(p.maleID);
  const metBefore = pairsMetBefore(tx, event.id, [...people], now);
  let plan: Round[];
  try {
    plan = planGroupNight({
      format: event.format === "mixed" ? "mixed" : "one_group",
      guests: present.map((p) => ({ id: p.userID, gender: p.gender, wantsToMeet: p.wantsToMeet })),
      maxRounds: settings.maxRounds,
      keepApart: keptApart(tx, event.id),
      metBefore,
      history,
    });
  } catch (error) {
    if (error instanceof RangeError) throw Conflict("too many people present to plan the rounds", "wrong_state");
    throw error;
  }
  return {
    ...settings,
    ...(clock ?? NOT_STARTED),
    plan,
    plannedFor: present.map((p) => p.userID),
    plannedAt: now,
    metBefore,
    updatedAt: now,
  };
}

/** A verified number as bookings store it (E.164); an erased row says `erased`, which matches nobody. */
const VERIFIED_NUMBER = /^\+\d{6,15}$/;

/**
 * Which of `people` (this event's user ids) met at an earlier night: seated together in a started
 * round of another event, the people matched by their verified numbers (a guest is a new users row
 * at every booking; the number is what stays). Read from the other events' stored rounds, so it
 * needs no table of its own, and lasts as long as the numbers do (RETENTION_DAYS after a night,
 * api/ops/retention.ts). Pairs of this event's user ids, in no particular order.
 */
export function pairsMetBefore(
  db: DbOrTx,
  eventId: number,
  people: readonly number[],
  now: number,
): [number, number][] {
  if (people.length < 2) return [];
  const ours = db
    .select({ id: users.id, phone: users.phone })
    .from(users)
    .where(inArray(users.id, [...people]))
    .all();
  const byPhone = new Map<string, number[]>();
  for (const { id, phone } of ours) {
    if (!VERIFIED_NUMBER.test(phone)) continue;
    byPhone.set(phone, [...(byPhone.get(phone) ?? []), id]);
  }
  if (byPhone.size < 2) return [];
  // The same numbers' bookings at other events that have rounds: their user ids, by event.
  const elsewhere = db
    .select({ userId: users.id, phone: users.phone, eventId: bookings.eventId })
    .from(users)
    .innerJoin(bookings, eq(bookings.userId, users.id))
    .innerJoin(eventRounds, eq(eventRounds.eventId, bookings.eventId))
    .where(and(inArray(users.phone, [...byPhone.keys()]), ne(bookings.eventId, eventId)))
    .all();
  const oursFor = new Map<number, number[]>();
  const nights = new Set<number>();
  for (const { userId, phone, eventId: other } of elsewhere) {
    oursFor.set(userId, byPhone.get(phone) ?? []);
    nights.add(other);
  }
  if (nights.size === 0) return [];
  const stored = db
    .select({ row: eventRounds, event: events })
    .from(eventRounds)
    .innerJoin(events, eq(events.id, eventRounds.eventId))
    .where(inArray(eventRounds.eventId, [...nights]))
    .all();
  const found = new Map<string, [number, number]>();
  for (const { row, event } of stored) {
    const started = clockAt(row, event, now).current ?? 0;
    for (const round of row.plan.slice(0, started))
      for (const p of round.pairs)
        for (const a of oursFor.get(p.femaleID) ?? [])
          for (const b of oursFor.get(p.maleID) ?? [])
            if (a !== b) found.set(a < b ? `${a}:${b}` : `${b}:${a}`, [a, b]);
  }
  return [...found.values()];
}

/** The round and phase the host's console showed when a control was pressed; a field left out is not checked. */
export type ShownClock = { current?: number | null; phase?: RoundsPhase | null };

/**
 * Start, Pause, Resume, +1 min, Next and Finish rounds (rounds-clock.ts says what each does). When
 * the console says which round and phase it showed and the clock is no longer there, nothing
 * changes: 409 `stale_state`. So four Next pressed at once on one screen move the night once, and
 * a Next retried after the round ended by itself does not skip the next one.
 */
export function runRounds(
  db: Db,
  input: { eventId: number; action: ClockAction; shown?: ShownClock },
  now: number,
): RoundsView {
  return db.transaction(
    (tx) => {
      const { event, row, at } = plannedNight(tx, input.eventId, now, "plan the rounds first");
      const shown = input.shown ?? {};
      if (
        (shown.current !== undefined && shown.current !== at.current) ||
        (shown.phase !== undefined && shown.phase !== at.phase)
      ) {
        throw Conflict("the rounds have moved on since this screen was shown; here they are now", "stale_state");
      }
      const clock = applyAction(at, timingOf(row), input.action, now);
      tx.update(eventRounds)
        .set({ ...clock, updatedAt: now })
        .where(eq(eventRounds.eventId, input.eventId))
        .run();
      return view(tx, event, findRounds(tx, input.eventId), now);
    },
    { behavior: "immediate" },
  );
}

/**
 * **Left**: the attendee went home (or, with `left: false`, is back). Someone who left is not present,
 * so the next re-plan leaves them out; the rounds they already played stay as they were. Only someone
 * checked in can leave.
 */
export function markLeft(
  db: Db,
  input: { eventId: number; userId: number; left: boolean },
  now: number,
): RoundsView & { changed: boolean } {
  return db.transaction(
    (tx) => {
      const event = findEvent(tx, input.eventId);
      assertStarted(event);
      const booking = tx
        .select()
        .from(bookings)
        .where(and(eq(bookings.eventId, input.eventId), eq(bookings.userId, input.userId)))
        .get();
      if (!booking) throw NotFound("no such booking");
      if (booking.status === "refunded") throw Conflict("this booking was refunded", "refunded");
      if (booking.status !== "paid") throw Conflict("this booking is not paid", "not_paid");
      if (input.left && booking.checkedInAt === null) {
        throw Conflict("only someone checked in at the door can leave", "not_checked_in");
      }
      const leftAt = input.left ? (booking.leftAt ?? now) : null;
      tx.update(bookings).set({ leftAt }).where(eq(bookings.id, booking.id)).run();
      // `changed` tells the route whether to log it: marking someone left twice changes nothing.
      return { ...view(tx, event, findRounds(tx, input.eventId), now), changed: leftAt !== booking.leftAt };
    },
    { behavior: "immediate" },
  );
}

/** The plan and the clock at `now` for the guest's phone; undefined when the event has no plan. */
export function roundsAt(
  db: DbOrTx,
  eventId: number,
  now: number,
): { rounds: Round[]; clock: Clock; announcement: string | null } | undefined {
  const row = findRounds(db, eventId);
  if (!row) return undefined;
  const clock = clockAt(row, findEvent(db, eventId), now);
  return { rounds: row.plan, clock, announcement: announcementAt(row, clock) };
}

/**
 * Whom `userId` has met in the rounds started so far, newest first, or null when the event has no
 * plan (the partner rule then falls back to the door's list, see feedback.ts).
 */
export function metInStartedRounds(db: DbOrTx, eventId: number, userId: number, now: number): number[] | null {
  const night = roundsAt(db, eventId, now);
  if (!night) return null;
  const met: number[] = [];
  for (const round of night.rounds.slice(0, night.clock.current ?? 0).reverse()) {
    for (const pair of round.pairs) {
      const other = pair.femaleID === userId ? pair.maleID : pair.maleID === userId ? pair.femaleID : null;
      if (other !== null && !met.includes(other)) met.push(other);
    }
  }
  return met;
}

/**
 * A first plan, or a re-plan that keeps the started rounds and as much of the rest as still fits. The
 * re-plan's exact matching, and the flow that chooses pairs around earlier nights, have size limits
 * far past any room the cap lets through (decisions 018 and 030); past them, 409.
 */
function planFor(history: { played: Round[]; planned: Round[] } | null, under: Parameters<typeof planRounds>[0]) {
  try {
    return history ? replanRounds({ ...under, ...history }) : planRounds(under);
  } catch (error) {
    if (error instanceof RangeError) throw Conflict("too many people present to plan the rounds", "wrong_state");
    throw error;
  }
}
