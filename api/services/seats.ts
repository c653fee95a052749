import { and, eq, gt, or, type SQL, sql } from "drizzle-orm";
import { bookings } from "../../db/schema.ts";

/**
 * The one definition of a seat that counts against an event: a paid booking, a hold that has not
 * expired, or a refund that kept its seat (refunded after the event started). Expired holds stop
 * counting the moment they expire, with no sweeper needed.
 */
export function seatCounts(now: number): SQL {
  return or(
    eq(bookings.status, "paid"),
    and(eq(bookings.status, "held"), gt(bookings.holdExpiresAt, now)),
    and(eq(bookings.status, "refunded"), eq(bookings.seatReleased, false)),
  ) as SQL;
}

/** `count(*)` of the seats taken per event, for a subquery or a grouped select. */
export const takenSeats = (now: number) =>
  sql<number>`coalesce(sum(case when ${seatCounts(now)} then 1 else 0 end), 0)`;
