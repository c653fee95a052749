import { EVENT_LIMITS } from "./event-limits.ts";

/**
 * Go ahead only with at least (issue 52): a night may name how many women and men (Women meet men) or
 * people (one pool) it needs, decided at `minimumBy`, by default 48 hours before the start. Off when
 * no count is set. One reading of it for the server's check, the desk and the Add and Edit forms.
 */
export type MinimumNumbers = {
  minimumFemale: number | null;
  minimumMale: number | null;
  minimumTotal: number | null;
  minimumBy: number | null;
};

/** Whether the night goes ahead only with enough bookings. */
export const hasMinimum = (e: MinimumNumbers): boolean =>
  e.minimumFemale !== null || e.minimumMale !== null || e.minimumTotal !== null;

/** When the numbers are decided (epoch ms): the organiser's time, else 48 hours before the start. */
export const minimumByOf = (e: MinimumNumbers & { startsAt: number }): number =>
  e.minimumBy ?? e.startsAt - EVENT_LIMITS.minimumByHours.default * 3_600_000;

/** What the night is short of, by side, given its paid bookings; empty when it has enough. */
export function shortfall(
  e: MinimumNumbers,
  paid: { total: number; male: number; female: number },
): { side: "female" | "male" | "total"; needed: number; booked: number }[] {
  const short: { side: "female" | "male" | "total"; needed: number; booked: number }[] = [];
  if (e.minimumFemale !== null && paid.female < e.minimumFemale) {
    short.push({ side: "female", needed: e.minimumFemale, booked: paid.female });
  }
  if (e.minimumMale !== null && paid.male < e.minimumMale) {
    short.push({ side: "male", needed: e.minimumMale, booked: paid.male });
  }
  if (e.minimumTotal !== null && paid.total < e.minimumTotal) {
    short.push({ side: "total", needed: e.minimumTotal, booked: paid.total });
  }
  return short;
}
