import { describe, expect, it } from "vitest";
import { wallClockToUtc } from "../../../common/venue-time-input.ts";
import { pinClock } from "../../../test/clock.ts";
import { earlyStartWarning, nationalPhone, plural, seatsLeftLabel, statusLabel } from "./format.ts";

// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(Date.UTC(2026, 11, 2));

describe("nationalPhone", () => {
  it.each([
    ["+61412345678", "0412 345 678"],
    ["+61498765432", "0498 765 432"],
    ["+61298765432", "02 9876 5432"],
    ["+61812345678", "08 1234 5678"],
  ])("shows %s as %s", (e164, shown) => {
    expect(nationalPhone(e164)).toBe(shown);
  });

  it("leaves a number it does not know as it is", () => {
    for (const other of ["+6441234567", "+614123", "0412 345 678", ""]) expect(nationalPhone(other)).toBe(other);
  });
});

describe("statusLabel and plural", () => {
  it("names every status, cancelled included, and counts with the right noun", () => {
    expect(["upcoming", "started", "ended", "cancelled", "paid", "refunded"].map(statusLabel)).toEqual([
      "Upcoming",
      "Started",
      "Ended",
      "Cancelled",
      "Paid",
      "Refunded",
    ]);
    expect(plural(1, "participant")).toBe("1 participant");
    expect(plural(18, "participant")).toBe("18 participants");
    expect(plural(0, "payment")).toBe("0 payments");
  });
});

describe("earlyStartWarning", () => {
  // 7 pm on Tuesday 1 December 2026 in Sydney (AEDT, UTC+11) is 08:00 UTC.
  const start = "2026-12-01T08:00:00.000Z";
  const sydney = (date: string, hour: number, minute = 0) => wallClockToUtc({ date, hour, minute }, "Australia/Sydney");

  it("warns with the day and time when Start is pressed before the event's day at the venue", () => {
    expect(earlyStartWarning(start, "Australia/Sydney", sydney("2026-11-29", 12))).toBe(
      "This event is planned for Tue 2026-12-01 07:00 PM AEDT; starting now texts everyone today.",
    );
    // 11:30 pm the night before, at the venue, is still the day before.
    expect(earlyStartWarning(start, "Australia/Sydney", sydney("2026-11-30", 23, 30))).not.toBeNull();
  });

  it("says nothing on the day itself, however early, or after it", () => {
    expect(earlyStartWarning(start, "Australia/Sydney", sydney("2026-12-01", 0, 15))).toBeNull();
    expect(earlyStartWarning(start, "Australia/Sydney", sydney("2026-12-01", 21))).toBeNull();
    expect(earlyStartWarning(start, "Australia/Sydney", Date.UTC(2026, 11, 5))).toBeNull();
  });

  it("reads the day on the venue's calendar, not the organiser's or UTC's", () => {
    // 08:00 UTC on 1 December is 4 pm that day in Perth; at 10 pm UTC on 30 November it is already
    // 6 am on the 1st in Perth (no warning) but still the 30th in UTC.
    expect(earlyStartWarning(start, "Australia/Perth", Date.UTC(2026, 10, 30, 22))).toBeNull();
    expect(earlyStartWarning(start, "Australia/Perth", Date.UTC(2026, 10, 30, 15))).toBe(
      "This event is planned for Tue 2026-12-01 04:00 PM AWST; starting now texts everyone today.",
    );
  });
});

describe("seatsLeftLabel", () => {
  // Issue 46, item 14: the Edit tab said `0% seats left` for a full event; the product names it Sold Out.
  it("says Sold Out when no seat is left, as the cards do", () => {
    expect(seatsLeftLabel({ SeatAvailabilityPer: 0, SeatsLeft: null })).toBe("Sold Out");
    expect(seatsLeftLabel({ SeatAvailabilityPer: 0, SeatsLeft: { male: 0, female: 0 } })).toBe("Sold Out");
  });

  it("gives the percentage left otherwise, never 0% while a seat is left", () => {
    expect(seatsLeftLabel({ SeatAvailabilityPer: 35, SeatsLeft: null })).toBe("35% seats left");
    expect(seatsLeftLabel({ SeatAvailabilityPer: 0, SeatsLeft: { male: 1, female: 0 } })).toBe("1% seats left");
  });
});
