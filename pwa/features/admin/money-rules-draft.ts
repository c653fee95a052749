import { EVENT_LIMITS } from "../../../common/event-limits.ts";
import { type EventFormat, splitsByGender } from "../../../common/formats.ts";
import { utcToWallClock, type WallClock } from "../../../common/time-zone.ts";
import { wallClockToUtc } from "../../../common/venue-time-input.ts";
import type { AdminEventDetail } from "./admin-api.ts";

/**
 * The money rules of a night on the Add and Edit forms (issue 52): **Credit until**, **Go ahead only
 * with at least** and the no-match promise, as the forms hold them. A time left on its default is
 * null, so it keeps following the start (Credit until: the start; decided at: 48 hours before it).
 */
export type MoneyRulesDraft = {
  creditUntil: WallClock | null;
  minimum: { on: boolean; women: string; men: string; total: string; by: WallClock | null };
  noMatchPromise: boolean;
};

/** What the rules need of the rest of the draft: the start on the venue's clock, and the format. */
type Night = WallClock & { zone: string; format: EventFormat };

const HOUR = 3_600_000;
const MINIMUM_BY_BEFORE_MS = EVENT_LIMITS.minimumByHours.default * HOUR;

export const emptyMoneyRules = (): MoneyRulesDraft => ({
  creditUntil: null,
  minimum: { on: false, women: "", men: "", total: "", by: null },
  noMatchPromise: false,
});

const startMs = (night: Night): number | null =>
  night.date ? wallClockToUtc({ date: night.date, hour: night.hour, minute: night.minute }, night.zone) : null;

/** The Credit until the fields show: the organiser's, or the start. */
export const creditUntilShown = (rules: MoneyRulesDraft, night: Night): WallClock =>
  rules.creditUntil ?? { date: night.date, hour: night.hour, minute: night.minute };

/** When the numbers are decided, as the fields show it: the organiser's, or 48 hours before the start. */
export function minimumByShown(rules: MoneyRulesDraft, night: Night): WallClock {
  if (rules.minimum.by) return rules.minimum.by;
  const start = startMs(night);
  if (start === null) return { date: "", hour: night.hour, minute: night.minute };
  return utcToWallClock(start - MINIMUM_BY_BEFORE_MS, night.zone);
}

/** A stored event's rules, each time null when it is the default. */
export function moneyRulesOf(e: AdminEventDetail): MoneyRulesDraft {
  const start = Date.parse(e.startsAt);
  const on = e.minimumFemale !== null || e.minimumMale !== null || e.minimumTotal !== null;
  const by = e.minimumBy === null ? null : Date.parse(e.minimumBy);
  return {
    creditUntil: Date.parse(e.creditUntil) === start ? null : utcToWallClock(Date.parse(e.creditUntil), e.timeZone),
    minimum: {
      on,
      women: e.minimumFemale === null ? "" : String(e.minimumFemale),
      men: e.minimumMale === null ? "" : String(e.minimumMale),
      total: e.minimumTotal === null ? "" : String(e.minimumTotal),
      by: by === null || by === start - MINIMUM_BY_BEFORE_MS ? null : utcToWallClock(by, e.timeZone),
    },
    noMatchPromise: e.noMatchPromise,
  };
}

const isoOf = (clock: WallClock | null, zone: string): string | null =>
  clock ? new Date(wallClockToUtc(clock, zone)).toISOString() : null;

/** The counts that apply at the draft's format (women and men, or people), as typed; empty when off. */
function counts(rules: MoneyRulesDraft, night: Night) {
  const { on, women, men, total } = rules.minimum;
  const byGender = splitsByGender(night.format);
  return {
    female: on && byGender ? women.trim() : "",
    male: on && byGender ? men.trim() : "",
    total: on && !byGender ? total.trim() : "",
  };
}

/** What the browser's checks cannot see; null when the rules may be sent. */
export function moneyRulesProblem(rules: MoneyRulesDraft, night: Night): string | null {
  const start = startMs(night);
  if (start !== null && rules.creditUntil && wallClockToUtc(rules.creditUntil, night.zone) > start) {
    return "Credit until must be no later than the start.";
  }
  if (!rules.minimum.on) return null;
  const c = counts(rules, night);
  if (splitsByGender(night.format) ? c.female === "" || c.male === "" : c.total === "") {
    return splitsByGender(night.format)
      ? "Go ahead only with at least: give the number of women and of men, or turn it off."
      : "Go ahead only with at least: give the number of people, or turn it off.";
  }
  if (start !== null && wallClockToUtc(minimumByShown(rules, night), night.zone) > start) {
    return "Go ahead only with at least: the numbers are decided no later than the start.";
  }
  return null;
}

/** save-event's multipart fields: text, empty for none or the default. */
export function moneyRulesForNew(rules: MoneyRulesDraft, night: Night) {
  const c = counts(rules, night);
  return {
    creditUntil: isoOf(rules.creditUntil, night.zone) ?? "",
    minimumFemale: c.female,
    minimumMale: c.male,
    minimumTotal: c.total,
    minimumBy: (rules.minimum.on ? isoOf(rules.minimum.by, night.zone) : null) ?? "",
    noMatchPromise: rules.noMatchPromise ? "1" : "0",
  } as const;
}

const numberOrNull = (v: string) => (v === "" ? null : Number(v));

/** update-event's fields: numbers or null (off, or the default time). */
export function moneyRulesForUpdate(rules: MoneyRulesDraft, night: Night) {
  const c = counts(rules, night);
  return {
    creditUntil: isoOf(rules.creditUntil, night.zone),
    minimumFemale: numberOrNull(c.female),
    minimumMale: numberOrNull(c.male),
    minimumTotal: numberOrNull(c.total),
    minimumBy: rules.minimum.on ? isoOf(rules.minimum.by, night.zone) : null,
    noMatchPromise: rules.noMatchPromise,
  };
}
