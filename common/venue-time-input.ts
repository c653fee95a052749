// The venue's clock the other way round: what an organiser types (a date and a time at the venue, a
// zone name) turned into instants and checked. The server and the admin forms use it; the home page's
// cards only read times, so this lives apart from common/time-zone.ts and stays out of the home
// page's JavaScript (docs/decisions/007-scale.md, docs/decisions/005-venue-time.md).
import { clockAsUtc, utcToWallClock, type WallClock } from "./time-zone.ts";

/** The zones the admin form offers: every Australian state and territory capital's. */
export const AUSTRALIAN_TIME_ZONES = [
  { zone: "Australia/Sydney", label: "Sydney, Canberra (NSW, ACT)" },
  { zone: "Australia/Melbourne", label: "Melbourne (VIC)" },
  { zone: "Australia/Brisbane", label: "Brisbane (QLD, no daylight saving)" },
  { zone: "Australia/Adelaide", label: "Adelaide (SA)" },
  { zone: "Australia/Perth", label: "Perth (WA, no daylight saving)" },
  { zone: "Australia/Hobart", label: "Hobart (TAS)" },
  { zone: "Australia/Darwin", label: "Darwin (NT, no daylight saving)" },
] as const;

/** The canonical IANA name of `name` (Intl accepts any letter case), or null when it is no real zone. */
export function canonicalTimeZone(name: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return null;
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

export const isTimeZone = (name: string) => canonicalTimeZone(name) !== null;

/** How far the zone's clock is ahead of UTC at instant `ms`. */
const offsetAt = (ms: number, zone: string) => clockAsUtc(ms, zone) - (ms - (((ms % 1000) + 1000) % 1000));

const HALF_DAY = 12 * 3_600_000;

/** The instant (epoch ms) at which the venue's clock in `zone` shows `date` `hour`:`minute`. */
export function wallClockToUtc(clock: WallClock, zone: string): number {
  const [y, m, d] = clock.date.split("-").map(Number) as [number, number, number];
  const shown = Date.UTC(y, m - 1, d, clock.hour, clock.minute);
  // The offsets in force half a day either side: the same, or the two around a daylight-saving change.
  const before = offsetAt(shown - HALF_DAY, zone);
  const after = offsetAt(shown + HALF_DAY, zone);
  const fits = [shown - before, shown - after].filter((t) => clockAsUtc(t, zone) === shown);
  // One repeated in autumn is read as the later of the two; a time skipped by the spring change
  // (02:30 on the first Sunday of October in Sydney) moves forward an hour, as the clock did.
  return fits.length > 0 ? Math.max(...fits) : shown - before;
}

/** Tomorrow's date (YYYY-MM-DD) on the venue's clock: the earliest day an event may be put on. */
export function tomorrowIn(zone: string, now: number): string {
  const today = utcToWallClock(now, zone).date;
  const [y, m, d] = today.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}
