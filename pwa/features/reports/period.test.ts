import { describe, expect, it } from "vitest";
import { wallClockToUtc } from "../../../common/venue-time-input.ts";
import { currentMonth, monthLabel, monthsFor, monthsProblem, periodLabel } from "./period.ts";

// The Reports tab's periods on Sydney's clock (the business's EVENT_TIME_ZONE), around the edges of
// months, quarters and the financial year. Every date is in 2025, in the past and fixed.

const ZONE = "Australia/Sydney";
const sydney = (date: string, hour = 12, minute = 0) => wallClockToUtc({ date, hour, minute }, ZONE);

describe("the month it is now", () => {
  it("is the business's month, not UTC's, either side of midnight on the 1st", () => {
    // 00:30 on 1 October in Sydney is still 30 September in UTC.
    expect(new Date(sydney("2025-10-01", 0, 30)).toISOString().slice(0, 7)).toBe("2025-09");
    expect(currentMonth(ZONE, sydney("2025-10-01", 0, 30))).toBe("2025-10");
    expect(currentMonth(ZONE, sydney("2025-09-30", 23, 59))).toBe("2025-09");
  });
});

describe("This month", () => {
  it("is the one month on the business's clock", () => {
    expect(monthsFor("This month", ZONE, sydney("2025-10-01", 0, 30))).toEqual({ from: "2025-10", to: "2025-10" });
    expect(monthsFor("This month", ZONE, sydney("2025-02-28", 23, 59))).toEqual({ from: "2025-02", to: "2025-02" });
  });
});

describe("Last quarter", () => {
  it("is the whole calendar quarter before this one", () => {
    expect(monthsFor("Last quarter", ZONE, sydney("2025-10-01", 0, 30))).toEqual({ from: "2025-07", to: "2025-09" });
    expect(monthsFor("Last quarter", ZONE, sydney("2025-09-30", 23, 59))).toEqual({ from: "2025-04", to: "2025-06" });
    expect(monthsFor("Last quarter", ZONE, sydney("2025-12-31", 23, 59))).toEqual({ from: "2025-07", to: "2025-09" });
    expect(monthsFor("Last quarter", ZONE, sydney("2025-06-15"))).toEqual({ from: "2025-01", to: "2025-03" });
  });

  it("in January to March, is the last quarter of the year before", () => {
    expect(monthsFor("Last quarter", ZONE, sydney("2025-01-01", 0, 5))).toEqual({ from: "2024-10", to: "2024-12" });
    expect(monthsFor("Last quarter", ZONE, sydney("2025-03-31", 23, 59))).toEqual({ from: "2024-10", to: "2024-12" });
  });
});

describe("This financial year", () => {
  it("runs from the July before (Australia's financial year) to this month", () => {
    expect(monthsFor("This financial year", ZONE, sydney("2025-07-01", 0, 30))).toEqual({
      from: "2025-07",
      to: "2025-07",
    });
    expect(monthsFor("This financial year", ZONE, sydney("2025-06-30", 23, 59))).toEqual({
      from: "2024-07",
      to: "2025-06",
    });
    expect(monthsFor("This financial year", ZONE, sydney("2025-12-31", 23, 59))).toEqual({
      from: "2025-07",
      to: "2025-12",
    });
    expect(monthsFor("This financial year", ZONE, sydney("2025-01-01", 0, 5))).toEqual({
      from: "2024-07",
      to: "2025-01",
    });
  });
});

describe("Any two months", () => {
  it("is the organiser's to pick, and says what is wrong with a pick", () => {
    expect(monthsFor("Any two months", ZONE, sydney("2025-05-05"))).toBeNull();
    expect(monthsProblem({ from: "2025-07", to: "2025-09" })).toBeNull();
    expect(monthsProblem({ from: "2025-07", to: "2025-07" })).toBeNull();
    expect(monthsProblem({ from: "2025-09", to: "2025-07" })).toBe("The last month must not be before the first.");
    expect(monthsProblem({ from: "", to: "2025-07" })).toBe("Pick the first and the last month.");
    expect(monthsProblem({ from: "2015-01", to: "2024-12" })).toBeNull();
    expect(monthsProblem({ from: "2014-12", to: "2024-12" })).toBe("A report covers at most 120 months.");
  });
});

describe("a period's words", () => {
  it("names months as people say them", () => {
    expect(monthLabel("2025-07")).toBe("July 2025");
    expect(periodLabel({ from: "2025-07", to: "2025-09" })).toBe("July 2025 to September 2025");
    expect(periodLabel({ from: "2025-12", to: "2025-12" })).toBe("December 2025");
  });
});
