import { and, eq, inArray, isNotNull, isNull } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client.ts";
import { bookings, events } from "../../db/schema.ts";
import { metInStartedRounds, roundsAt } from "./rounds.ts";

/**
 * Who came to a night: the one definition every text, count and page uses
 * (docs/decisions/021-results.md). A paid guest came when the door checked them in, or when they were
 * seated with a partner in a round that has started (a host who skipped the door still knows who sat
 * down). Anyone else with a paid seat is a no-show.
 *
 * A night that left no record at all (nobody checked in, no round started: run on paper, or the
 * door's list lost) counts every paid guest as came, as the partner rule does (feedback.ts): telling
 * a whole room "sorry we missed you" would be worse than thanking a no-show.
 */
export function whoCame(db: DbOrTx, eventId: number, now: number): Set<number> {
  const came = new Set<number>(
    db
      .select({ userId: bookings.userId })
      .from(bookings)
      .where(and(eq(bookings.eventId, eventId), eq(bookings.status, "paid"), isNotNull(bookings.checkedInAt)))
      .all()
      .map((row) => row.userId),
  );
  const night = roundsAt(db, eventId, now);
  if (night) {
    for (const round of night.rounds.slice(0, night.clock.current ?? 0)) {
      for (const pair of round.pairs) {
        came.add(pair.femaleID);
        came.add(pair.maleID);
      }
    }
  }
  // A seat in a round never outlives a refund: only paid guests count.
  const paid = new Set(
    db
      .select({ userId: bookings.userId })
      .from(bookings)
      .where(and(eq(bookings.eventId, eventId), eq(bookings.status, "paid")))
      .all()
      .map((row) => row.userId),
  );
  if (came.size === 0) return paid;
  return new Set([...came].filter((id) => paid.has(id)));
}

/**
 * Writes down, once the night has ended, who came and how many partners each met (`bookings.came`,
 * `bookings.dates`), by whoCame's rule and the rounds that started: the reports (issue 51) count
 * nights in one query from these, and they agree with what the desk showed at the end. Written
 * again, it writes the same. A refunded or cancelled booking did not come.
 */
export function recordAttendance(tx: DbOrTx, eventId: number, now: number): void {
  const came = whoCame(tx, eventId, now);
  const paid = tx
    .select({ id: bookings.id, userId: bookings.userId })
    .from(bookings)
    .where(and(eq(bookings.eventId, eventId), eq(bookings.status, "paid")))
    .all();
  for (const booking of paid) {
    const met = came.has(booking.userId) ? metInStartedRounds(tx, eventId, booking.userId, now) : null;
    tx.update(bookings)
      .set({ came: came.has(booking.userId), dates: came.has(booking.userId) ? (met?.length ?? null) : 0 })
      .where(eq(bookings.id, booking.id))
      .run();
  }
  tx.update(bookings)
    .set({ came: false, dates: 0 })
    .where(and(eq(bookings.eventId, eventId), inArray(bookings.status, ["refunded", "cancelled"])))
    .run();
}

/**
 * Nights that ended before attendance was written down (or whose end was interrupted): written now,
 * by the same rule. The scheduler runs it; a night already written is not read again.
 */
export function recordMissingAttendance(db: Db, now: number): number {
  const missing = db
    .selectDistinct({ eventId: bookings.eventId })
    .from(bookings)
    .innerJoin(events, eq(events.id, bookings.eventId))
    .where(and(eq(events.status, "ended"), eq(bookings.status, "paid"), isNull(bookings.came)))
    .all();
  for (const { eventId } of missing)
    db.transaction((tx) => recordAttendance(tx, eventId, now), { behavior: "immediate" });
  return missing.length;
}
