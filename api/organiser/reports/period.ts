import { sql } from "drizzle-orm";
import { wallClockToUtc } from "../../../common/venue-time-input.ts";

// The months a report covers (issue 51): `from` and `to` as `YYYY-MM`, both included, on the business's
// clock (EVENT_TIME_ZONE), so a month is the organiser's month and not UTC's.

/** `YYYY-MM` with a real month. */
export const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The longest period a report covers: ten years of months. */
export const MAX_MONTHS = 120;

export type Bucket = {
  /** `2026-07` for a month; a quarter is named by its first month. */
  key: string;
  /** Epoch ms of its first instant and of the first instant after it, on the business's clock. */
  startMs: number;
  endMs: number;
};

export type Period = { from: string; to: string; zone: string; months: Bucket[] };

const monthIndex = (month: string) => {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return y * 12 + (m - 1);
};
// A month index to its first day through the calendar (Date.UTC carries a 13th month into the next
// year; counted from 2000, as Date.UTC reads a year below 100 as 19xx).
const firstDay = (index: number) => Date.UTC(2000, index - 2000 * 12, 1);
const monthOf = (index: number) => new Date(firstDay(index)).toISOString().slice(0, 7);
const startOf = (index: number, zone: string) =>
  wallClockToUtc({ date: `${monthOf(index)}-01`, hour: 0, minute: 0 }, zone);

/** Why `from`..`to` is not a period, or null when it is (both `YYYY-MM`, in order, at most 120 months). */
export function periodProblem(from: string, to: string): string | null {
  if (!MONTH.test(from) || !MONTH.test(to)) return "from and to must be months, YYYY-MM";
  const span = monthIndex(to) - monthIndex(from) + 1;
  if (span < 1) return "to must not be before from";
  if (span > MAX_MONTHS) return `a report covers at most ${MAX_MONTHS} months`;
  return null;
}

/** The months from `from` to `to`, each with its bounds on `zone`'s clock. Check periodProblem first. */
export function periodOf(from: string, to: string, zone: string): Period {
  const months: Bucket[] = [];
  for (let i = monthIndex(from); i <= monthIndex(to); i++)
    months.push({ key: monthOf(i), startMs: startOf(i, zone), endMs: startOf(i + 1, zone) });
  return { from, to, zone, months };
}

/**
 * The Australian financial year's quarters (July–September, October–December, January–March,
 * April–June) that the period touches, each whole: a BAS is lodged for a whole quarter.
 */
export function quartersOf(period: Period): Bucket[] {
  const first = monthIndex(period.from);
  const last = monthIndex(period.to);
  // Quarters start in January, April, July and October: month indexes divisible by 3.
  const quarters: Bucket[] = [];
  for (let q = first - (first % 3); q <= last; q += 3)
    quarters.push({ key: monthOf(q), startMs: startOf(q, period.zone), endMs: startOf(q + 3, period.zone) });
  return quarters;
}

const monthName = new Intl.DateTimeFormat("en-AU", { month: "long", timeZone: "UTC" });

/** `July–September 2026`: a quarter as a BAS names it, from its first month (the year of its first month). */
export function quarterLabel(firstMonth: string): string {
  const i = monthIndex(firstMonth);
  const name = (index: number) => monthName.format(firstDay(index));
  return `${name(i)}–${name(i + 2)} ${firstMonth.slice(0, 4)}`;
}

/** The buckets as a SQL `values` list, for a query that joins each row to the bucket it falls in. */
export const bucketRows = (buckets: Bucket[]) =>
  sql.join(
    buckets.map((b) => sql`(${b.key}, ${b.startMs}, ${b.endMs})`),
    sql`, `,
  );

/** What a count of fewer than 3 guests shows instead (issue 51): no cell may point at one person. */
export const FEWER_THAN_3 = "fewer than 3";

/** A count of guests as a report shows it: 0, 3 and more as they are; 1 and 2 as `fewer than 3`. */
export const guests = (n: number): number | typeof FEWER_THAN_3 => (n > 0 && n < 3 ? FEWER_THAN_3 : n);

/** The period's first instant and the first instant after it (epoch ms). */
export const boundsOf = (period: Period) => ({ first: period.months[0]!.startMs, end: period.months.at(-1)!.endMs });
