import { sql } from "drizzle-orm";
import type { Db } from "../../../db/client.ts";
import { bucketRows, type FEWER_THAN_3, guests, type Period } from "./period.ts";

type Count = number | typeof FEWER_THAN_3;

/**
 * **Guests who come back**, by month (issue 51): of the bookings paid in each month, how many were
 * made by a number that had paid for a night before, and how many were a guest's 2nd, 3rd, 4th, or
 * 5th or later night; and how many guests chose **Keep my details for next time** that month.
 * Numbers are known by their guest key (api/lib/guest-key.ts), so a guest is recognised after
 * RETENTION_DAYS erased the number; a booking without a key counts as a first night. Counts of 1 or 2
 * guests show `fewer than 3`.
 */
export type ReturningRow = {
  month: string;
  bookings: number;
  byReturningGuests: Count;
  /** Whole percent of the month's bookings made by numbers that booked before. */
  returningPercent: number;
  secondNight: Count;
  thirdNight: Count;
  fourthNight: Count;
  fifthNightOrLater: Count;
  keptDetails: Count;
};

export function returningReport(db: Db, period: Period): ReturningRow[] {
  // Each booking paid in the period, and its number's paid nights before it (bookings_guest_key, read
  // from the index alone), rather than ranking every booking ever paid and matching each to a month:
  // the same count, about five times faster over five years (bench/README.md, "Reports").
  const rows = db.all<{
    month: string;
    bookings: number;
    returners: number;
    second: number;
    third: number;
    fourth: number;
    fifth: number;
    kept: number;
  }>(sql`
    with bucket(key, start_ms, end_ms) as (values ${bucketRows(period.months)}),
    ranked as (
      select bucket.key, b.id,
        case when b.guest_key is null then 1 else 1 + (
          select count(*) from bookings before
          where before.guest_key = b.guest_key and before.status = 'paid' and before.paid_at <= b.paid_at
            and (before.paid_at < b.paid_at or before.id < b.id)) end as nth
      from bucket join bookings b on b.paid_at >= bucket.start_ms and b.paid_at < bucket.end_ms
      where b.status = 'paid'),
    kept as (
      select bucket.key, count(*) as n
      from bucket join kept_details k on k.kept_at >= bucket.start_ms and k.kept_at < bucket.end_ms
      group by bucket.key)
    select bucket.key as month, count(r.id) as bookings,
      coalesce(sum(case when r.nth > 1 then 1 else 0 end), 0) as returners,
      coalesce(sum(case when r.nth = 2 then 1 else 0 end), 0) as second,
      coalesce(sum(case when r.nth = 3 then 1 else 0 end), 0) as third,
      coalesce(sum(case when r.nth = 4 then 1 else 0 end), 0) as fourth,
      coalesce(sum(case when r.nth >= 5 then 1 else 0 end), 0) as fifth,
      coalesce(kept.n, 0) as kept
    from bucket
      left join ranked r on r.key = bucket.key
      left join kept on kept.key = bucket.key
    group by bucket.key order by bucket.key`);
  return rows.map((r) => ({
    month: r.month,
    bookings: r.bookings,
    byReturningGuests: guests(r.returners),
    returningPercent: r.bookings > 0 ? Math.round((100 * r.returners) / r.bookings) : 0,
    secondNight: guests(r.second),
    thirdNight: guests(r.third),
    fourthNight: guests(r.fourth),
    fifthNightOrLater: guests(r.fifth),
    keptDetails: guests(r.kept),
  }));
}
