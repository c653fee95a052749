import { and, eq, isNotNull } from "drizzle-orm";
import type { DbOrTx } from "../../db/client.ts";
import { bookings } from "../../db/schema.ts";
import { roundsAt } from "./rounds.ts";

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
