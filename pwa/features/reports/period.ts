import { utcToWallClock } from "../../../common/time-zone.ts";

// The Reports tab's periods (issue 51): whole months on the business's clock (EVENT_TIME_ZONE), as
// the server reads `from` and `to` (docs/decisions/056-reports.md). Today's month comes from Intl
// through the zone; months are counted as indexes (year × 12 + month − 1), and a month's name is
// Intl's, never a table of ours.

export const PERIOD_KINDS = ["This month", "Last quarter", "This financial year", "Any two months"] as const;
export type PeriodKind = (typeof PERIOD_KINDS)[number];

/** `from` and `to` as `YYYY-MM`, both included: what every report call takes. */
export type Months = { from: string; to: string };

/** The longest period the server reports on: ten years of months. */
export const MAX_MONTHS = 120;

const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;

const indexOf = (month: string) => {
  const [y, m] = month.split("-").map(Number) as [number, number];
  return y * 12 + (m - 1);
};
// A month index to its first day through the calendar (Date.UTC carries a 13th month into the next
// year; counted from 2000, as Date.UTC reads a year below 100 as 19xx).
const firstDay = (index: number) => Date.UTC(2000, index - 2000 * 12, 1);
const monthOf = (index: number) => new Date(firstDay(index)).toISOString().slice(0, 7);

/** The month it is now on `zone`'s clock: `2025-10` from 00:00 on 1 October there, whatever UTC says. */
export const currentMonth = (zone: string, now = Date.now()) => utcToWallClock(now, zone).date.slice(0, 7);

/**
 * The months a kind of period covers, on `zone`'s clock at `now`: **This month**; **Last quarter**, the
 * whole calendar quarter before this one (January–March, April–June, July–September,
 * October–December); **This financial year**, from 1 July (Australia's) to this month. Null for
 * **Any two months**, which the organiser picks.
 */
export function monthsFor(kind: PeriodKind, zone: string, now = Date.now()): Months | null {
  const month = currentMonth(zone, now);
  const i = indexOf(month);
  if (kind === "This month") return { from: month, to: month };
  if (kind === "Last quarter") {
    // Quarters start at month indexes divisible by 3 (January is index 0 of its year, and 12 is too).
    const thisQuarter = i - (i % 3);
    return { from: monthOf(thisQuarter - 3), to: monthOf(thisQuarter - 1) };
  }
  if (kind === "This financial year") {
    // The year began in July of this calendar year from July on, of the one before until June.
    const year = Number(month.slice(0, 4));
    return { from: `${Number(month.slice(5)) >= 7 ? year : year - 1}-07`, to: month };
  }
  return null;
}

/** Why the two months picked are not a period, or null when they are. */
export function monthsProblem({ from, to }: Months): string | null {
  if (!MONTH.test(from) || !MONTH.test(to)) return "Pick the first and the last month.";
  const span = indexOf(to) - indexOf(from) + 1;
  if (span < 1) return "The last month must not be before the first.";
  if (span > MAX_MONTHS) return `A report covers at most ${MAX_MONTHS} months.`;
  return null;
}

const monthName = new Intl.DateTimeFormat("en-AU", { month: "long", year: "numeric", timeZone: "UTC" });
const shortName = new Intl.DateTimeFormat("en-AU", { month: "short", year: "2-digit", timeZone: "UTC" });

/** `October 2025`: a `YYYY-MM` month as people say it. */
export const monthLabel = (month: string) => monthName.format(firstDay(indexOf(month)));

/** `Oct 25`: a month on a chart's axis, where space is short. */
export const shortMonthLabel = (month: string) => shortName.format(firstDay(indexOf(month)));

/** `July 2025 to September 2025`, or `October 2025` for one month. */
export const periodLabel = ({ from, to }: Months) =>
  from === to ? monthLabel(from) : `${monthLabel(from)} to ${monthLabel(to)}`;
