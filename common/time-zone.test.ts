import { describe, expect, it, vi } from "vitest";
import { pinClock } from "../test/clock.ts";
import { formatUtcTime, formatVenueTime, utcToWallClock } from "./time-zone.ts";
import { canonicalTimeZone, tomorrowIn, wallClockToUtc } from "./venue-time-input.ts";

// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(Date.UTC(2026, 11, 2));

const utc = (clock: { date: string; hour: number; minute: number }, zone: string) =>
  new Date(wallClockToUtc(clock, zone)).toISOString();

describe("venue time", () => {
  it("puts 7 pm in Sydney at 08:00 UTC in summer and 09:00 UTC in winter", () => {
    expect(utc({ date: "2026-11-29", hour: 19, minute: 0 }, "Australia/Sydney")).toBe("2026-11-29T08:00:00.000Z");
    expect(utc({ date: "2026-06-29", hour: 19, minute: 0 }, "Australia/Sydney")).toBe("2026-06-29T09:00:00.000Z");
  });

  it("follows Sydney across both daylight-saving changes of 2026", () => {
    // Clocks go back at 3 am on 5 April and forward at 2 am on 4 October.
    expect(utc({ date: "2026-04-04", hour: 19, minute: 0 }, "Australia/Sydney")).toBe("2026-04-04T08:00:00.000Z");
    expect(utc({ date: "2026-04-05", hour: 19, minute: 0 }, "Australia/Sydney")).toBe("2026-04-05T09:00:00.000Z");
    expect(utc({ date: "2026-10-03", hour: 19, minute: 0 }, "Australia/Sydney")).toBe("2026-10-03T09:00:00.000Z");
    expect(utc({ date: "2026-10-04", hour: 19, minute: 0 }, "Australia/Sydney")).toBe("2026-10-04T08:00:00.000Z");
    expect(formatVenueTime(Date.parse("2026-04-04T08:00:00.000Z"), "Australia/Sydney")).toBe(
      "2026-04-04 07:00 PM AEDT",
    );
    expect(formatVenueTime(Date.parse("2026-04-05T09:00:00.000Z"), "Australia/Sydney")).toBe(
      "2026-04-05 07:00 PM AEST",
    );
  });

  it("follows Adelaide's half-hour zone across its daylight-saving changes", () => {
    expect(utc({ date: "2026-04-04", hour: 18, minute: 30 }, "Australia/Adelaide")).toBe("2026-04-04T08:00:00.000Z");
    expect(utc({ date: "2026-04-05", hour: 18, minute: 30 }, "Australia/Adelaide")).toBe("2026-04-05T09:00:00.000Z");
    expect(utc({ date: "2026-10-04", hour: 18, minute: 30 }, "Australia/Adelaide")).toBe("2026-10-04T08:00:00.000Z");
    expect(formatVenueTime(Date.parse("2026-10-04T08:00:00.000Z"), "Australia/Adelaide")).toBe(
      "2026-10-04 06:30 PM ACDT",
    );
    expect(formatVenueTime(Date.parse("2026-06-01T09:00:00.000Z"), "Australia/Adelaide")).toBe(
      "2026-06-01 06:30 PM ACST",
    );
  });

  it("keeps Brisbane and Perth on one offset all year", () => {
    for (const date of ["2026-01-15", "2026-07-15"]) {
      expect(utc({ date, hour: 19, minute: 0 }, "Australia/Brisbane")).toBe(`${date}T09:00:00.000Z`);
      expect(utc({ date, hour: 19, minute: 0 }, "Australia/Perth")).toBe(`${date}T11:00:00.000Z`);
    }
    expect(formatVenueTime(Date.parse("2026-01-15T09:00:00.000Z"), "Australia/Brisbane")).toBe(
      "2026-01-15 07:00 PM AEST",
    );
    expect(formatVenueTime(Date.parse("2026-01-15T11:00:00.000Z"), "Australia/Perth")).toBe("2026-01-15 07:00 PM AWST");
  });

  it("reads a stored instant back as the wall clock it was typed as", () => {
    const ms = wallClockToUtc({ date: "2026-12-31", hour: 23, minute: 45 }, "Australia/Melbourne");
    expect(utcToWallClock(ms, "Australia/Melbourne")).toEqual({ date: "2026-12-31", hour: 23, minute: 45 });
    expect(utcToWallClock(ms, "UTC")).toEqual({ date: "2026-12-31", hour: 12, minute: 45 });
    expect(formatUtcTime(ms)).toBe("2026-12-31 12:45 PM UTC");
  });

  it("knows tomorrow by the venue's calendar, not UTC's", () => {
    // 20:00 UTC on 28 November is already 07:00 on the 29th in Sydney.
    const now = Date.parse("2026-11-28T20:00:00.000Z");
    expect(tomorrowIn("Australia/Sydney", now)).toBe("2026-11-30");
    expect(tomorrowIn("UTC", now)).toBe("2026-11-29");
  });

  it("accepts real IANA zones in any letter case and nothing else", () => {
    expect(canonicalTimeZone("Australia/Perth")).toBe("Australia/Perth");
    expect(canonicalTimeZone("australia/perth")).toBe("Australia/Perth");
    for (const bad of ["Mars/Olympus", "", "AEDT+1", "Australia/../etc", "../../etc/passwd", "Australia/Sydney "]) {
      expect(canonicalTimeZone(bad)).toBeNull();
    }
  });

  it("builds each formatter once: a hundred cards in five zones need two a zone and one for UTC", async () => {
    // A card's line, weekday and UTC line, as the home page writes them (pwa/features/events/format.ts).
    // Building a formatter costs far more than using one (bench/README.md, "The first load's main thread").
    const zones = [
      "Australia/Sydney",
      "Australia/Melbourne",
      "Australia/Brisbane",
      "Australia/Perth",
      "Australia/Adelaide",
    ];
    const cards = Array.from({ length: 100 }, (_, i) => ({
      ms: Date.UTC(2026, 11, 3 + i, 8, 30),
      zone: zones[i % zones.length] ?? "UTC",
    }));
    const lines = cards.map(({ ms, zone }) => formatVenueTime(ms, zone));
    const Real = Intl.DateTimeFormat;
    let built = 0;
    Intl.DateTimeFormat = new Proxy(Real, {
      construct(target, args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
        built++;
        return new target(...args);
      },
    });
    try {
      vi.resetModules();
      const fresh = await import("./time-zone.ts");
      expect(
        cards.map(({ ms, zone }) => {
          fresh.venueWeekday(ms, zone);
          fresh.formatUtcTime(ms);
          return fresh.formatVenueTime(ms, zone);
        }),
      ).toEqual(lines);
      expect(built).toBeLessThanOrEqual(2 * 5 + 1);
    } finally {
      Intl.DateTimeFormat = Real;
    }
  });
});
