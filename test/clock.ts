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
