import { afterEach, beforeEach, vi } from "vitest";

/**
 * Dates for tests that must lie in the future, whatever year the suite runs in.
 *
 * `yearLike(2031)` is the first year after the current one whose calendar is 2031's: same weekday on
 * every date, same leap day. A test written with dates in 2031 keeps its meaning in that year: the
 * same weekdays in labels, and the same daylight-saving changes, which zones set by weekday rules
 * ("first Sunday in April"). So a test keeps its season and weekday, and never becomes a test of the past.
 */
export function yearLike(year: number, now = Date.now()): number {
  const calendar = (y: number) => `${new Date(Date.UTC(y, 0, 1)).getUTCDay()}:${isLeap(y)}`;
  for (let y = new Date(now).getUTCFullYear() + 1; ; y++) if (calendar(y) === calendar(year)) return y;
}

const isLeap = (y: number) => new Date(Date.UTC(y, 1, 29)).getUTCMonth() === 1;

/**
 * Pins the clock for every test of the file that calls it: `Date.now()` and `new Date()` read `at`,
 * whatever year the suite runs in, so a fixed date in the file is judged against `at`, never against
 * the real clock. For tests of code that reads no server: the clock stands still (timers still run).
 */
export function pinClock(at: number): void {
  beforeEach(() => {
    vi.setSystemTime(at);
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}
