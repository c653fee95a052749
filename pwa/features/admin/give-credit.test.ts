import { describe, expect, it } from "vitest";
import { dollarsToCents } from "./give-credit.ts";

// Give credit's amount (issue 52): typed in dollars, sent as whole cents, $0.01 to $1,000.

describe("dollarsToCents", () => {
  it.each([
    ["45", 4500],
    ["45.5", 4550],
    ["45.50", 4550],
    ["$45.05", 4505],
    [" 0.01 ", 1],
    ["1,000", 100_000],
    ["1000.00", 100_000],
  ])("reads %j as %i cents", (text, cents) => {
    expect(dollarsToCents(text)).toBe(cents);
  });

  it.each(["", "abc", "0", "0.00", "-5", "45.505", "1000.01", "1e3", "4,50", "45.", "NaN"])("refuses %j", (text) => {
    expect(dollarsToCents(text)).toBeNull();
  });
});
