import { describe, expect, it } from "vitest";
import { pinClock } from "../test/clock.ts";
import { defaultResultsAt, resultsWhen } from "./results-time.ts";

// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(Date.UTC(2026, 11, 2));

const sydney = (startsAt: string, durationHours = 3) => ({
  startsAt: Date.parse(startsAt),
  durationHours,
  timeZone: "Australia/Sydney",
});
const iso = (ms: number) => new Date(ms).toISOString();

describe("the default results time", () => {
  it("is 12:00 PM in Sydney the day after, on either side of the spring change", () => {
    // Saturday 4 October 2031, 7 pm AEST (UTC+10); clocks go forward that night, so noon Sunday is AEDT (UTC+11).
    expect(iso(defaultResultsAt(sydney("2031-10-04T09:00:00Z")))).toBe("2031-10-05T01:00:00.000Z");
    // A week earlier, both days AEST.
    expect(iso(defaultResultsAt(sydney("2031-09-27T09:00:00Z")))).toBe("2031-09-28T02:00:00.000Z");
  });

  it("is 12:00 PM AEST after the autumn change", () => {
    // Saturday 5 April 2031, 7 pm AEDT; clocks go back that night.
    expect(iso(defaultResultsAt(sydney("2031-04-05T08:00:00Z")))).toBe("2031-04-06T02:00:00.000Z");
  });

  it("counts the day after from the start day for a night that ends after midnight", () => {
    // Saturday 9 pm AEDT for 5 hours, so until 2 am Sunday: the results are Sunday noon, not Monday.
    expect(iso(defaultResultsAt(sydney("2031-11-29T10:00:00Z", 5)))).toBe("2031-11-30T01:00:00.000Z");
  });

  it("waits for the day after the end of an event still running at noon the next day", () => {
    // 2 pm AEDT on Saturday for 24 hours: noon Sunday falls inside it, so Monday noon.
    expect(iso(defaultResultsAt(sydney("2031-11-29T03:00:00Z", 24)))).toBe("2031-12-01T01:00:00.000Z");
  });

  it("follows the venue's zone: noon in Perth is 04:00 UTC all year", () => {
    const perth = { startsAt: Date.parse("2031-10-04T11:00:00Z"), durationHours: 3, timeZone: "Australia/Perth" };
    expect(iso(defaultResultsAt(perth))).toBe("2031-10-05T04:00:00.000Z");
  });
});

describe("the results time in a text", () => {
  const noonSunday = Date.parse("2031-11-30T01:00:00Z");
  it("says today, tomorrow or the day, on the venue's clock with its zone", () => {
    expect(resultsWhen(noonSunday, "Australia/Sydney", Date.parse("2031-11-29T12:00:00Z"))).toBe(
      "12:00 PM AEDT tomorrow",
    );
    // Half past midnight on Sunday at the venue is still Saturday in UTC.
    expect(resultsWhen(noonSunday, "Australia/Sydney", Date.parse("2031-11-29T13:30:00Z"))).toBe("12:00 PM AEDT today");
    expect(resultsWhen(noonSunday, "Australia/Sydney", Date.parse("2031-11-27T12:00:00Z"))).toBe(
      "12:00 PM AEDT on Sun 2031-11-30",
    );
  });
});
