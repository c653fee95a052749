import { describe, expect, it } from "vitest";
import { pinClock } from "../../test/clock.ts";
import { clockOffset, formatClock, remainingMs, serverTime, spokenTimeLeft, toMs } from "./round-clock.ts";

// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(Date.UTC(2026, 11, 2));

const at = (iso: string) => Date.parse(iso);

describe("the night's clock on a phone", () => {
  it("counts down the same seconds as the server on a phone whose clock is ten minutes slow", () => {
    // The phone says 19:50:00 when the server's answer (sent at 20:00:00) arrives.
    const receivedAt = at("2026-11-29T19:50:00.000Z");
    const reading = {
      serverNow: "2026-11-29T20:00:00.000Z",
      phaseEndsAt: "2026-11-29T20:04:30.000Z",
      receivedAt,
    };
    expect(clockOffset(reading)).toBe(10 * 60_000);
    expect(serverTime(reading, receivedAt + 1_000)).toBe(at("2026-11-29T20:00:01.000Z"));
    expect(formatClock(remainingMs(reading, receivedAt)!)).toBe("4:30");
    expect(formatClock(remainingMs(reading, receivedAt + 31_000)!)).toBe("3:59");
    // Long past the end, it stops at 0:00 rather than going negative.
    expect(remainingMs(reading, receivedAt + 3_600_000)).toBe(0);
  });

  it("reads epoch milliseconds as well as ISO times", () => {
    expect(toMs(1_700_000_000_000)).toBe(1_700_000_000_000);
    expect(toMs("2026-11-29T20:00:00.000Z")).toBe(at("2026-11-29T20:00:00.000Z"));
    expect(toMs(null)).toBeNull();
    expect(toMs("not a time")).toBeNull();
  });

  it("stands still while paused, at what was left when the server answered", () => {
    const reading = { serverNow: 1_000_000, phaseEndsAt: 1_090_000, receivedAt: 5, paused: true };
    expect(formatClock(remainingMs(reading, 5)!)).toBe("1:30");
    expect(formatClock(remainingMs(reading, 600_000)!)).toBe("1:30");
  });

  it("shows no countdown when no phase is timed", () => {
    expect(remainingMs({ serverNow: 1, phaseEndsAt: null, receivedAt: 1 })).toBeNull();
  });

  it("rounds up, so 0:00 means the time is really up", () => {
    expect(formatClock(0)).toBe("0:00");
    expect(formatClock(1)).toBe("0:01");
    expect(formatClock(59_001)).toBe("1:00");
    expect(formatClock(30 * 60_000)).toBe("30:00");
  });

  it("speaks the time left in minutes, not seconds", () => {
    expect(spokenTimeLeft(4 * 60_000 + 10_000)).toBe("5 minutes left");
    expect(spokenTimeLeft(4 * 60_000)).toBe("4 minutes left");
    expect(spokenTimeLeft(45_000)).toBe("Less than a minute left");
    expect(spokenTimeLeft(20_000)).toBe("Less than 30 seconds left");
    expect(spokenTimeLeft(0)).toBe("Time is up");
  });
});
