import { and, eq, inArray } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client.ts";
import { eventRounds, keepApart } from "../../db/rounds-schema.ts";
import { bookings, type Event, events, type PersonGender, users } from "../../db/schema.ts";
import { Conflict, NotFound } from "../lib/errors.ts";
import type { PersonPair } from "./planning/rounds-plan.ts";
import { clockAt, findRounds, newPlan } from "./rounds.ts";

// **Keep apart** (docs/decisions/030-nobody-across-the-table-twice.md): the organiser marks two guests
// of an event never to be seated together; the rounds planner reads the marks (keptApart, from
// rounds.ts), and a mark on a pair the plan seats together re-plans the rounds not yet started.

/** What the Keep apart card shows: the pairs marked, and the guests who may be marked. */
export type KeepApartView = {
  /** The pairs marked, oldest first, each lower id first, with their names. */
  pairs: { userIDs: [number, number]; names: [string, string] }[];
  /** The event's guests (paid bookings), by name: never an email, a phone or a photo. */
  guests: { userID: number; username: string; gender: PersonGender }[];
};

function findEvent(db: DbOrTx, eventId: number): Event {
  const event = db.select().from(events).where(eq(events.id, eventId)).get();
  if (!event) throw NotFound("no such event");
  return event;
}

const collator = new Intl.Collator("en", { sensitivity: "base" });
const byName = (a: { username: string; userID: number }, b: { username: string; userID: number }) =>
  collator.compare(a.username, b.username) || a.userID - b.userID;

function view(db: DbOrTx, eventId: number): KeepApartView {
  const guests = db
    .select({ userID: users.id, username: users.name, gender: users.gender })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .where(and(eq(bookings.eventId, eventId), eq(bookings.status, "paid")))
    .all()
    .sort(byName);
  const rows = db
    .select()
    .from(keepApart)
    .where(eq(keepApart.eventId, eventId))
    .orderBy(keepApart.createdAt, keepApart.userA, keepApart.userB)
    .all();
  const ids = [...new Set(rows.flatMap((r) => [r.userA, r.userB]))];
  const names = new Map(
    ids.length
      ? db
          .select({ id: users.id, name: users.name })
          .from(users)
          .where(inArray(users.id, ids))
          .all()
          .map((u) => [u.id, u.name])
      : [],
  );
  return {
    pairs: rows.map((r) => ({
      userIDs: [r.userA, r.userB],
      names: [names.get(r.userA) ?? "", names.get(r.userB) ?? ""],
    })),
    guests,
  };
}

/** The event's Keep apart marks and its guests. 404 for no such event. */
export function getKeepApart(db: Db, eventId: number): KeepApartView {
  findEvent(db, eventId);
  return view(db, eventId);
}

/**
 * Marks two guests of the event **Keep apart**, or (`apart: false`) takes the mark off. Both must hold
 * a paid seat at this event (404 otherwise, so another event's guest is refused like a made-up id);
 * a mark already taken off needs no seat. Marking a pair the plan seats together in a round not yet
 * started re-plans those rounds at once. 409 `wrong_state` once the night is over. `changed` says
 * whether anything changed (marking twice changes nothing).
 */
export function setKeepApart(
  db: Db,
  input: { eventId: number; userIds: [number, number]; apart: boolean },
  now: number,
): KeepApartView & { changed: boolean; replanned: boolean } {
  const [a, b] = [...input.userIds].sort((x, y) => x - y) as [number, number];
  return db.transaction(
    (tx) => {
      const event = findEvent(tx, input.eventId);
      if (event.status === "ended" || event.status === "cancelled") {
        throw Conflict(`the event is ${event.status}: there are no rounds left to plan`, "wrong_state");
      }
      const where = and(eq(keepApart.eventId, event.id), eq(keepApart.userA, a), eq(keepApart.userB, b));
      const marked = tx.select().from(keepApart).where(where).get() !== undefined;
      if (!input.apart && marked) {
        tx.delete(keepApart).where(where).run();
        return { ...view(tx, event.id), changed: true, replanned: false };
      }
      const seated = tx
        .select({ userId: bookings.userId })
        .from(bookings)
        .where(and(eq(bookings.eventId, event.id), eq(bookings.status, "paid"), inArray(bookings.userId, [a, b])))
        .all();
      if (seated.length !== 2) throw NotFound("both must be guests of this event");
      if (!input.apart || marked) return { ...view(tx, event.id), changed: false, replanned: false };
      tx.insert(keepApart).values({ eventId: event.id, userA: a, userB: b, createdAt: now }).run();
      const replanned = replanForKeepApart(tx, event.id, [a, b], now);
      return { ...view(tx, event.id), changed: true, replanned };
    },
    { behavior: "immediate" },
  );
}

/**
 * After a pair is marked **Keep apart**: if a round not yet started seats them together, the rounds not
 * yet started are re-planned at once (as Re-plan rounds with the settings as they are), so no plan on
 * show seats them. Returns whether it re-planned. Runs inside the caller's transaction.
 */
export function replanForKeepApart(tx: DbOrTx, eventId: number, pair: PersonPair, now: number): boolean {
  const row = findRounds(tx, eventId);
  const event = findEvent(tx, eventId);
  if (!row || event.status !== "started") return false;
  const clock = clockAt(row, event, now);
  if (clock.status === "finished") return false;
  const together = row.plan
    .slice(clock.current ?? 0)
    .some((r) => r.pairs.some((p) => pair.includes(p.femaleID) && pair.includes(p.maleID)));
  if (!together) return false;
  const values = newPlan(tx, event, row, {}, now);
  tx.update(eventRounds).set(values).where(eq(eventRounds.eventId, eventId)).run();
  return true;
}

/** The pairs of this event's guests marked **Keep apart**. */
export function keptApart(db: DbOrTx, eventId: number): PersonPair[] {
  return db
    .select({ a: keepApart.userA, b: keepApart.userB })
    .from(keepApart)
    .where(eq(keepApart.eventId, eventId))
    .all()
    .map(({ a, b }) => [a, b] as const);
}
