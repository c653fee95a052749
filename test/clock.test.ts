import { describe, expect, it } from "vitest";
import { pinClock, yearLike } from "./clock.ts";

// Each call below is given its `now`; the file's clock is pinned all the same, as the rule asks
// (test/fixed-dates.test.ts).
pinClock(Date.UTC(2026, 11, 2));

describe("yearLike", () => {
  it("is a later year with the same weekday on every date", () => {
    const at = (iso: string) => Date.parse(iso);
    expect(yearLike(2031, at("2026-11-25T00:00:00Z"))).toBe(2031);
    expect(yearLike(2031, at("2031-01-01T00:00:00Z"))).toBe(2042);
    expect(yearLike(2031, at("2032-06-01T10:00:00Z"))).toBe(2042);
    // A leap year only matches a leap year: 29 February must exist.
    expect(yearLike(2028, at("2028-03-01T00:00:00Z"))).toBe(2056);
    const y = yearLike(2031, at("2032-06-01T10:00:00Z"));
    expect(new Date(Date.UTC(y, 10, 29)).getUTCDay()).toBe(new Date(Date.UTC(2031, 10, 29)).getUTCDay());
  });
});

describe("pinClock", () => {
  it("holds Date.now() and new Date() at the pinned moment for every test of the file", () => {
    expect(Date.now()).toBe(Date.UTC(2026, 11, 2));
    expect(new Date().toISOString()).toBe("2026-12-02T00:00:00.000Z");
  });
});
