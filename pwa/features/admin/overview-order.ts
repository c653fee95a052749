import type { AdminEventSummary } from "./admin-api.ts";

const finished = (status: string) => status === "ended" || status === "cancelled";

/**
 * The Overview's rows: events still to run (upcoming, started) soonest first, then the finished
 * ones (ended, cancelled), the most recent first: last week's night matters more than last year's.
 */
export function overviewOrder<T extends Pick<AdminEventSummary, "id" | "startsAt" | "status">>(events: T[]): T[] {
  const at = (e: T) => Date.parse(e.startsAt) || 0;
  const live = events.filter((e) => !finished(e.status)).sort((a, b) => at(a) - at(b) || a.id - b.id);
  const past = events.filter((e) => finished(e.status)).sort((a, b) => at(b) - at(a) || b.id - a.id);
  return [...live, ...past];
}
