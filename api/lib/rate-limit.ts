import { and, count, eq, gt, lt, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import { preparedPerDb } from "../../db/prepared.ts";
import { rateLimitHits } from "../../db/schema.ts";
import { TooManyRequests } from "./errors.ts";

export type Limit = { bucket: string; max: number; windowMs: number };

/** The limits' questions, asked on most calls a guest makes, built once per database (db/prepared.ts). */
const queries = preparedPerDb((db) => ({
  hits: db
    .select({ n: count() })
    .from(rateLimitHits)
    .where(
      and(
        eq(rateLimitHits.bucket, sql.placeholder("bucket")),
        eq(rateLimitHits.key, sql.placeholder("key")),
        gt(rateLimitHits.at, sql.placeholder("since")),
      ),
    )
    .prepare(),
  record: db
    .insert(rateLimitHits)
    .values({ bucket: sql.placeholder("bucket"), key: sql.placeholder("key"), at: sql.placeholder("at") })
    .prepare(),
  trim: db
    .delete(rateLimitHits)
    .where(and(eq(rateLimitHits.bucket, sql.placeholder("bucket")), lt(rateLimitHits.at, sql.placeholder("before"))))
    .prepare(),
}));

/** How many hits `key` has in the window. */
export function hitsInWindow(db: Db, limit: Limit, key: string, now: number): number {
  const row = queries(db).hits.get({ bucket: limit.bucket, key, since: now - limit.windowMs });
  return row?.n ?? 0;
}

/** Whether `key` already used its `max` hits in the window. */
export function isOverLimit(db: Db, limit: Limit, key: string, now: number): boolean {
  return hitsInWindow(db, limit, key, now) >= limit.max;
}

/** Throws 429 when `key` already used its `max` hits in the window. Counting is kept in SQLite, so a restart forgets nothing. */
export function assertUnderLimit(db: Db, limit: Limit, key: string, now: number) {
  if (isOverLimit(db, limit, key, now)) throw TooManyRequests();
}

export function recordHit(db: Db, limit: Limit, key: string, now: number) {
  queries(db).record.run({ bucket: limit.bucket, key, at: now });
  // Old hits are useless; trimming here keeps the table small without a scheduler.
  queries(db).trim.run({ bucket: limit.bucket, before: now - limit.windowMs * 2 });
}

/** Takes back one hit counted at `at`: a try counted up front that turned out not to count. */
export function releaseHit(db: Db, limit: Limit, key: string, at: number) {
  const hit = db
    .select({ id: rateLimitHits.id })
    .from(rateLimitHits)
    .where(and(eq(rateLimitHits.bucket, limit.bucket), eq(rateLimitHits.key, key), eq(rateLimitHits.at, at)))
    .limit(1)
    .get();
  if (hit) db.delete(rateLimitHits).where(eq(rateLimitHits.id, hit.id)).run();
}

/** Check and count in one step, for limits where every attempt counts (sending a code). */
export function takeHit(db: Db, limit: Limit, key: string, now: number) {
  assertUnderLimit(db, limit, key, now);
  recordHit(db, limit, key, now);
}

/** Forgets every hit of `key`: an account's failures once its person signs in. */
export function clearHits(db: Db, limit: Limit, key: string) {
  db.delete(rateLimitHits)
    .where(and(eq(rateLimitHits.bucket, limit.bucket), eq(rateLimitHits.key, key)))
    .run();
}
