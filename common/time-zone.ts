// Pure time arithmetic shared by the API and the PWA (no Node imports): events are stored in UTC and
// read in their venue's zone. Daylight saving comes from the platform's time zone database through
// Intl; nothing here knows a rule of its own (docs/decisions/005-venue-time.md). Intl alone, without a
// library, because the home page's cards run this and its JavaScript has a budget
// (docs/decisions/007-scale.md): for the same reason, what only the server and the organiser's forms
// need (a typed venue time to an instant, zone names) is in common/venue-time-input.ts.

export const DEFAULT_TIME_ZONE = "Australia/Sydney";

export type WallClock = { date: string; hour: number; minute: number };

const clockFormats = new Map<string, Intl.DateTimeFormat>();

/** The venue's clock at `ms`, to the second, read as if it were UTC: `Date.UTC` of what it shows. */
export function clockAsUtc(ms: number, zone: string): number {
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

const partFormats = new Map<string, Intl.DateTimeFormat>();

/** The parts Intl gives for `ms` on the venue's clock, in English, with the options asked. */
function venueParts(ms: number, zone: string, options: Intl.DateTimeFormatOptions): Record<string, string> {
  const key = `${zone}|${JSON.stringify(options)}`;
  let format = partFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone: zone, ...options });
    partFormats.set(key, format);
  }
  const part: Record<string, string> = {};
  for (const { type, value } of format.formatToParts(ms)) part[type] = value;
  return part;
}

/** `7:45 PM` (or `07:45 PM` with `twoDigitHour`) on the venue's clock, without its zone. */
export function venueClock(ms: number, zone: string, options: { twoDigitHour?: boolean } = {}): string {
  const p = venueParts(ms, zone, {
    hour: options.twoDigitHour ? "2-digit" : "numeric",
    minute: "2-digit",
    hour12: true,
  });
  return `${p.hour}:${p.minute} ${p.dayPeriod}`;
}

/** `2026-11-29 07:00 PM`: the cards' `YYYY-MM-DD hh:mm A` on the venue's clock. */
export function venueDateAndClock(ms: number, zone: string): string {
  return `${utcToWallClock(ms, zone).date} ${venueClock(ms, zone, { twoDigitHour: true })}`;
}

/** `2026-11-29 07:00 PM AEDT`: the cards' `YYYY-MM-DD hh:mm A` on the venue's clock, with its zone. */
export function formatVenueTime(ms: number, zone: string): string {
  return `${venueDateAndClock(ms, zone)} ${zoneAbbreviation(ms, zone)}`;
}

/** `2026-11-29 08:00 AM UTC`: the UTC form events were first shown in, kept as the secondary line. */
export function formatUtcTime(ms: number): string {
  return `${venueDateAndClock(ms, "UTC")} UTC`;
}

/** The day of the week on the venue's clock (`Tue`, or `Tuesday` when long): an evening out is planned by its weekday. */
export function venueWeekday(ms: number, zone: string, width: "short" | "long" = "short"): string {
  return venueParts(ms, zone, { weekday: width }).weekday ?? "";
}

/** `20 Dec` (short) or `15 December` (long): the day and month on the venue's clock. */
export function venueDayMonth(ms: number, zone: string, width: "short" | "long"): string {
  const p = venueParts(ms, zone, { day: "numeric", month: width });
  return `${p.day} ${p.month}`;
}
