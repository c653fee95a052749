import { and, eq, isNull, ne } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { bookings } from "../../../db/schema.ts";
import type { Env } from "../../env.ts";
import { guestKeyOf } from "../../lib/guest-key.ts";
import { recordMissingAttendance } from "../../night/attendance.ts";
import { ERASED } from "../../ops/retention.ts";

/**
 * What the reports read that older rows lack (issue 51), written by the scheduler: who came to
 * nights that ended before it was written at the end, and the guest key of paid bookings made before
 * keys were (while their number is still there). Each row is written once; a run with nothing left
 * reads two indexes and stops.
 */
export function prepareReports(deps: { db: Db; env: Pick<Env, "SESSION_SECRET"> }, now: number): number {
  const nights = recordMissingAttendance(deps.db, now);
  const unkeyed = deps.db
    .select({ id: bookings.id, phone: bookings.phone })
    .from(bookings)
    .where(and(isNull(bookings.guestKey), ne(bookings.phone, ERASED.phone), ne(bookings.status, "held")))
    .limit(5000)
    .all();
  deps.db.transaction((tx) => {
    for (const b of unkeyed)
      tx.update(bookings)
        .set({ guestKey: guestKeyOf(deps.env, b.phone) })
        .where(eq(bookings.id, b.id))
        .run();
  });
  return nights + unkeyed.length;
}
