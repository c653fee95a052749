import { and, desc, eq, isNull, or, sql } from "drizzle-orm";
import { activityLog } from "../../db/access-schema.ts";
import type { DbOrTx } from "../../db/client.ts";
import { events, users } from "../../db/schema.ts";
import { NotFound } from "../lib/errors.ts";
import { ERASED } from "./retention.ts";

// The activity log (docs/decisions/022-host-access.md): every change the organiser or a host makes.

/** Every action the log knows; a route records one of these, so the PWA and the docs can list them. */
export const ACTIVITY_ACTIONS = [
  "event created",
  "event edited",
  "event started",
  "event ended",
  "event cancelled",
  "refund",
  "check-in",
  "check-in undone",
  "doors opened",
  "rounds planned",
  "rounds controlled",
  "marked left",
  "results released",
  "paper card entered",
  "host link created",
  "host link revoked",
  "promo code created",
  "promo code disabled",
  "failed admin logins",
] as const;
export type ActivityAction = (typeof ACTIVITY_ACTIONS)[number];

/** `organiser`, or the label of the host link whose session made the change. */
export type Actor = string;
export const ORGANISER: Actor = "organiser";

export type ActivityInput = {
  actor: Actor;
  action: ActivityAction;
  eventId?: number | null;
  /** The person the change concerned (check-in, refund, marked left). */
  userId?: number | null;
  /** A short note: the rounds action, a host link's label. Never a name, email or phone. */
  detail?: string | null;
};

/** Records one change. Pass the transaction that made the change when there is one. */
export function recordActivity(db: DbOrTx, input: ActivityInput, now: number): void {
  db.insert(activityLog)
    .values({
      at: now,
      actor: input.actor,
      action: input.action,
      eventId: input.eventId ?? null,
      userId: input.userId ?? null,
      detail: input.detail ?? null,
    })
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
      action: "failed admin logins",
      windowKey: `failed-login:${windowStart}`,
    })
    .onConflictDoUpdate({ target: activityLog.windowKey, set: { count: sql`${activityLog.count} + 1` } })
    .run();
}

export type ActivityRow = {
  id: number;
  /** ISO 8601 UTC. */
  at: string;
  actor: Actor;
  action: string;
  eventID: number | null;
  /** The person concerned, or null; after erasure the id stays and `name` is null. */
  person: { userID: number; name: string | null } | null;
  detail: string | null;
  /** How many times: above 1 only for failed logins counted per 15 minutes. */
  count: number;
};

/** How many entries one read answers: a night's log is a few hundred rows at most. */
export const ACTIVITY_PAGE = 500;

/**
 * One event's log, newest first, with the failed admin logins (which belong to no event) among them,
 * so the organiser sees them on whatever event they open.
 */
export function eventActivity(db: DbOrTx, eventId: number): ActivityRow[] {
  if (!db.select({ id: events.id }).from(events).where(eq(events.id, eventId)).get()) throw NotFound("no such event");
  return db
    .select({ entry: activityLog, name: users.name })
    .from(activityLog)
    .leftJoin(users, eq(users.id, activityLog.userId))
    .where(
      or(
        eq(activityLog.eventId, eventId),
        and(isNull(activityLog.eventId), eq(activityLog.action, "failed admin logins")),
      ),
    )
    .orderBy(desc(activityLog.at), desc(activityLog.id))
    .limit(ACTIVITY_PAGE)
    .all()
    .map(({ entry, name }) => ({
      id: entry.id,
      at: new Date(entry.at).toISOString(),
      actor: entry.actor,
      action: entry.action,
      eventID: entry.eventId,
      person:
        entry.userId === null
          ? null
          : { userID: entry.userId, name: name === null || name === ERASED.name ? null : name },
      detail: entry.detail,
      count: entry.count,
    }));
}
