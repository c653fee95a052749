import { describe, expect, it } from "vitest";
import { nationalPhone, plural, statusLabel } from "./format.ts";

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
    expect(["upcoming", "started", "ended", "cancelled"].map(statusLabel)).toEqual([
      "Upcoming",
      "Started",
      "Ended",
      "Cancelled",
    ]);
    expect(plural(1, "participant")).toBe("1 participant");
    expect(plural(18, "participant")).toBe("18 participants");
    expect(plural(0, "payment")).toBe("0 payments");
  });
});
