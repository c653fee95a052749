// Pure time arithmetic shared by the API and the PWA (no Node imports): events are stored in UTC and
// read in their venue's zone. Daylight saving comes from the platform's time zone database through
// Intl; nothing here knows a rule of its own (docs/decisions/005-venue-time.md). Intl alone, without a
// library, because the home page's cards run this and its JavaScript has a budget
// (docs/decisions/007-scale.md): for the same reason, what only the server and the organiser's forms
// need (a typed venue time to an instant, zone names) is in common/venue-time-input.ts.

export const DEFAULT_TIME_ZONE = "Australia/Sydney";

export type WallClock = { date: string; hour: number; minute: number };

// Formatters are kept, one per locale, zone and options: building one costs far more than using it
// (the first Intl formatter of a page costs tens of milliseconds in Chromium, each new pattern a few
// more), and a page showing many events asks the same few for each. The home page's cards build none:
// the server writes their times (`startsAtText`, bench/README.md, "What holds `/` under 98").
const formats = new Map<string, Intl.DateTimeFormat>();

/** The parts Intl gives for `ms` on the venue's clock, in English (`en-US` unless asked), with the options asked. */
function venueParts(
  ms: number,
  zone: string,
  options: Intl.DateTimeFormatOptions,
  locale = "en-US",
): Record<string, string> {
  const key = `${locale}|${zone}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { timeZone: zone, ...options });
    formats.set(key, format);
  }
  const part: Record<string, string> = {};
  for (const { type, value } of format.formatToParts(ms)) part[type] = value;
  return part;
}

/** The venue's clock at `ms`, to the second, read as if it were UTC: `Date.UTC` of what it shows. */
export function clockAsUtc(ms: number, zone: string): number {
  const part = venueParts(ms, zone, {
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  });
  const n = (type: string) => Number(part[type]);
  return Date.UTC(n("year"), n("month") - 1, n("day"), n("hour") % 24, n("minute"), n("second"));
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
  return venueParts(ms, zone, { timeZoneName: "short" }, "en-AU").timeZoneName ?? zone;
}

/**
 * The day, date and `hh:mm AM` of a card, from one formatter: a card's line and its weekday are read
 * together, so a zone costs one formatter here instead of three.
 */
const DAY_DATE_AND_CLOCK: Intl.DateTimeFormatOptions = {
  weekday: "short",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  hour12: true,
};

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
  const p = venueParts(ms, zone, DAY_DATE_AND_CLOCK);
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute} ${p.dayPeriod}`;
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
  return venueParts(ms, zone, width === "short" ? DAY_DATE_AND_CLOCK : { weekday: width }).weekday ?? "";
}

/** `20 Dec` (short) or `15 December` (long): the day and month on the venue's clock. */
export function venueDayMonth(ms: number, zone: string, width: "short" | "long"): string {
  const p = venueParts(ms, zone, { day: "numeric", month: width });
  return `${p.day} ${p.month}`;
}
