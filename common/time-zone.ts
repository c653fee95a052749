// Pure time arithmetic shared by the API and the PWA (no Node imports): events are stored in UTC and
// read in their venue's zone. Daylight saving comes from the platform's time zone database through
// Intl; nothing here knows a rule of its own (docs/decisions/005-venue-time.md). Intl alone, without a
// library, because the home page's cards run this and its JavaScript has a budget
// (docs/decisions/007-scale.md).

export const DEFAULT_TIME_ZONE = "Australia/Sydney";

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

export type WallClock = { date: string; hour: number; minute: number };

const pad = (n: number) => String(n).padStart(2, "0");

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

const clockFormats = new Map<string, Intl.DateTimeFormat>();

/** The venue's clock at `ms`, to the second, read as if it were UTC: `Date.UTC` of what it shows. */
function clockAsUtc(ms: number, zone: string): number {
  let format = clockFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    clockFormats.set(zone, format);
  }
  const part: Record<string, number> = {};
  for (const { type, value } of format.formatToParts(ms)) part[type] = Number(value);
  return Date.UTC(
    part.year ?? 0,
    (part.month ?? 1) - 1,
    part.day ?? 1,
    (part.hour ?? 0) % 24,
    part.minute ?? 0,
    part.second ?? 0,
  );
}

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

/** What the venue's clock in `zone` shows at instant `ms`. */
export function utcToWallClock(ms: number, zone: string): WallClock {
  const t = new Date(clockAsUtc(ms, zone));
  return {
    date: t.toISOString().slice(0, 10),
    hour: t.getUTCHours(),
    minute: t.getUTCMinutes(),
  };
}

/** The zone's abbreviation at that instant: AEDT in a Sydney summer, AEST in winter, AWST in Perth. */
export function zoneAbbreviation(ms: number, zone: string): string {
  const parts = new Intl.DateTimeFormat("en-AU", { timeZone: zone, timeZoneName: "short" }).formatToParts(ms);
  return parts.find((p) => p.type === "timeZoneName")?.value ?? zone;
}

const clock12 = ({ date, hour, minute }: WallClock) =>
  `${date} ${pad(hour % 12 === 0 ? 12 : hour % 12)}:${pad(minute)} ${hour < 12 ? "AM" : "PM"}`;

/** `2026-11-29 07:00 PM AEDT`: the cards' `YYYY-MM-DD hh:mm A` on the venue's clock, with its zone. */
export function formatVenueTime(ms: number, zone: string): string {
  return `${clock12(utcToWallClock(ms, zone))} ${zoneAbbreviation(ms, zone)}`;
}

/** `2026-11-29 08:00 AM UTC`: the UTC form events were first shown in, kept as the secondary line. */
export function formatUtcTime(ms: number): string {
  return `${clock12(utcToWallClock(ms, "UTC"))} UTC`;
}

/** Tomorrow's date (YYYY-MM-DD) on the venue's clock: the earliest day an event may be put on. */
export function tomorrowIn(zone: string, now: number): string {
  const today = utcToWallClock(now, zone).date;
  const [y, m, d] = today.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"] as const;

/** The day of the week on the venue's clock (`Tue`): an evening out is planned by its weekday. */
export function venueWeekday(ms: number, zone: string): string {
  const date = utcToWallClock(ms, zone).date;
  return WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()] ?? "";
}
