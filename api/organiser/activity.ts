import { createHash } from "node:crypto";
import { and, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { activityLog } from "../../db/access-schema.ts";
import type { DbOrTx } from "../../db/client.ts";
import { events, users } from "../../db/schema.ts";
import { NotFound } from "../lib/errors.ts";
import { ERASED } from "../ops/retention.ts";
import type { ActivityPerson, ActivityRow } from "./admin-schemas.ts";

// The activity log (docs/decisions/022-host-access.md): every change the organiser or a host makes.

/** Every action the log knows; a route records one of these, so the PWA and the docs can list them. */
export const ACTIVITY_ACTIONS = [
  "event created",
  "event edited",
  "event started",
  "event ended",
  "event cancelled",
  "refund",
  "credit given",
  "check-in",
  "check-in undone",
  "doors opened",
  "rounds planned",
  "rounds controlled",
  "marked left",
  "kept apart",
  "keep apart undone",
  "guests messaged",
  "room announcement",
  "results released",
  "paper card entered",
  "host link created",
  "host link revoked",
  "promo code created",
  "promo code disabled",
  "failed admin logins",
  "booking cancelled",
  "ticket given to a friend",
  "email undeliverable",
  "announcement sent",
  "short of numbers",
  "guests moved",
  "guest chose",
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** `organiser`, or the label of the host link whose session made the change. */
export type Actor = string;
export const ORGANISER: Actor = "organiser";

/**
 * Who made a change, beside the label: the organiser (the owner), a team member (`actor` is then
 * `Priya (Finance)`, docs/decisions/050-the-team.md), a host (through a link whose label is `actor`),
 * the server itself (failed logins), or a guest acting on their own booking (a cancel; the actor is
 * then `guest`, never their number). A host label can never be `organiser` (host-access routes), and
 * the kind tells them apart even for rows logged before that rule.
 */
export const ACTOR_KINDS = ["organiser", "host", "system", "guest", "member"] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

export type ActivityInput = {
  actor: Actor;
  /** Left out: `organiser` for the organiser's actor name, otherwise `host`. */
  actorKind?: ActorKind;
  action: ActivityAction;
  eventId?: number | null;
  /** The person the change concerned (check-in, refund, marked left). */
  userId?: number | null;
  /** A second person the change concerned: the partner a paper card rates. */
  otherUserId?: number | null;
  /** A short note: the rounds action, a host link's label, a message's text. Never a name, email or phone. */
  detail?: string | null;
};

/**
 * Repeats of one change (same actor, action, event, people and note) within this window share one
 * entry, counted, so a host tapping the same thing over and over cannot push older entries out of
 * view (docs/decisions/022-host-access.md).
 */
export const REPEAT_WINDOW_MS = 15 * 60_000;

/**
 * Records one change. Pass the transaction that made the change when there is one, and call it only
 * for a call that changed something: an idempotent repeat logs nothing. Repeats inside
 * REPEAT_WINDOW_MS add to the count of the entry they repeat, which moves to their time.
 */
export function recordActivity(db: DbOrTx, input: ActivityInput, now: number): void {
  const actorKind = input.actorKind ?? (input.actor === ORGANISER ? "organiser" : "host");
  const values = {
    actor: input.actor,
    actorKind,
    action: input.action,
    eventId: input.eventId ?? null,
    userId: input.userId ?? null,
    otherUserId: input.otherUserId ?? null,
    detail: input.detail ?? null,
  };
  const windowStart = now - (now % REPEAT_WINDOW_MS);
  // Hashed: the note can be long (a message's text), and the key only has to tell repeats apart.
  const same = createHash("sha256").update(JSON.stringify(values)).digest("base64url");
  db.insert(activityLog)
    .values({ at: now, ...values, windowKey: `repeat:${windowStart}:${same}` })
    .onConflictDoUpdate({ target: activityLog.windowKey, set: { count: sql`${activityLog.count} + 1`, at: now } })
    .run();
}

export const FAILED_LOGIN_WINDOW_MS = 15 * 60_000;

/** One row per 15-minute window, counting the wrong passwords in it: a guesser cannot flood the log. */
export function recordFailedLogin(db: DbOrTx, now: number): void {
  const windowStart = now - (now % FAILED_LOGIN_WINDOW_MS);
  db.insert(activityLog)
    .values({
      at: windowStart,
      actor: "unknown",
      actorKind: "system",
      action: "failed admin logins",
      windowKey: `failed-login:${windowStart}`,
    })
    .onConflictDoUpdate({ target: activityLog.windowKey, set: { count: sql`${activityLog.count} + 1` } })
    .run();
}

/** How many entries one read answers by default, and at most; older ones are read with `before`. */
export const ACTIVITY_PAGE = 500;

const otherUsers = alias(users, "other_users");

const personOf = (userId: number | null, name: string | null): ActivityPerson | null =>
  userId === null ? null : { userID: userId, name: name === null || name === ERASED.name ? null : name };

/** The kind of an entry logged before kinds were stored: the failed logins are the server's. */
const kindOf = (entry: { actorKind: string | null; actor: string; action: string }): ActorKind => {
  if ((ACTOR_KINDS as readonly (string | null)[]).includes(entry.actorKind)) {
    return entry.actorKind as ActorKind;
  }
  if (entry.action === "failed admin logins") return "system";
  return entry.actor === ORGANISER ? "organiser" : "host";
};

/**
 * One page of an event's log, newest first, with the failed admin logins (which belong to no event)
 * among them, so the organiser sees them on whatever event they open. `before` (an entry's id from
 * the previous page) reads the entries older than that one.
 */
export function eventActivity(
  db: DbOrTx,
  eventId: number,
  page: { before?: number; limit?: number } = {},
): ActivityRow[] {
  if (!db.select({ id: events.id }).from(events).where(eq(events.id, eventId)).get()) throw NotFound("no such event");
  const ofEvent = or(
    eq(activityLog.eventId, eventId),
    and(isNull(activityLog.eventId), eq(activityLog.action, "failed admin logins")),
  );
  let older: ReturnType<typeof or> | undefined;
  if (page.before !== undefined) {
    const cursor = db.select({ at: activityLog.at }).from(activityLog).where(eq(activityLog.id, page.before)).get();
    // An entry gone meanwhile (retention) leaves its id: everything below it is still older.
    older = cursor
      ? or(lt(activityLog.at, cursor.at), and(eq(activityLog.at, cursor.at), lt(activityLog.id, page.before)))
      : lt(activityLog.id, page.before);
  }
  return db
    .select({ entry: activityLog, name: users.name, otherName: otherUsers.name })
    .from(activityLog)
    .leftJoin(users, eq(users.id, activityLog.userId))
    .leftJoin(otherUsers, eq(otherUsers.id, activityLog.otherUserId))
    .where(older ? and(ofEvent, older) : ofEvent)
    .orderBy(desc(activityLog.at), desc(activityLog.id))
    .limit(Math.min(page.limit ?? ACTIVITY_PAGE, ACTIVITY_PAGE))
    .all()
    .map(({ entry, name, otherName }) => ({
      id: entry.id,
      at: new Date(entry.at).toISOString(),
      actor: entry.actor,
      actorKind: kindOf(entry),
      action: entry.action,
      eventID: entry.eventId,
      person: personOf(entry.userId, name),
      otherPerson: personOf(entry.otherUserId, otherName),
      detail: entry.detail,
      count: entry.count,
    }));
}
