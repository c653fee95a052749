import { describe, expect, it } from "vitest";
import { canBook, formatEventDateTime, seatsLabel } from "./format.ts";

describe("formatEventDateTime", () => {
  it.each([
    ["2026-12-05T19:30:00.000Z", "2026-12-05 07:30 PM"],
    ["2026-01-09T00:05:00.000Z", "2026-01-09 12:05 AM"],
    ["2026-07-01T12:00:00.000Z", "2026-07-01 12:00 PM"],
    ["2026-03-15T09:45:00.000Z", "2026-03-15 09:45 AM"],
  ])("shows %s in UTC as %s", (iso, shown) => {
    expect(formatEventDateTime(iso)).toBe(shown);
  });

  it("shows nothing rather than NaN for a broken date", () => {
    expect(formatEventDateTime("not a date")).toBe("");
  });
});

describe("seatsLabel", () => {
  it("warns at 40% and below, says Sold Out at 0, and stays quiet above 40%", () => {
    expect(seatsLabel(41)).toBeNull();
    expect(seatsLabel(40)).toBe("Only 40% seats left!");
    expect(seatsLabel(1)).toBe("Only 1% seats left!");
    expect(seatsLabel(0)).toBe("Sold Out");
  });
});

describe("canBook", () => {
  it("allows only upcoming events with seats left", () => {
    expect(canBook({ event_status: "upcoming", SeatAvailabilityPer: 5 })).toBe(true);
    expect(canBook({ event_status: "upcoming", SeatAvailabilityPer: 0 })).toBe(false);
    expect(canBook({ event_status: "started", SeatAvailabilityPer: 50 })).toBe(false);
    expect(canBook({ event_status: "ended", SeatAvailabilityPer: 50 })).toBe(false);
  });
});
