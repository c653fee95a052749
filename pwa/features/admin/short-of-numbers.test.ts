import { describe, expect, it } from "vitest";
import { moveTargets, shortfallWords } from "./short-of-numbers.ts";

describe("what the desk says a night is short of", () => {
  it("says each side as booked of needed, in the plural unless one is needed", () => {
    expect(
      shortfallWords([
        { side: "female", needed: 6, booked: 4 },
        { side: "male", needed: 6, booked: 3 },
      ]),
    ).toBe("4 of 6 women, 3 of 6 men");
    expect(shortfallWords([{ side: "total", needed: 12, booked: 7 }])).toBe("7 of 12 people");
    expect(shortfallWords([{ side: "male", needed: 1, booked: 0 }])).toBe("0 of 1 man");
  });
});

describe("the nights guests may be moved to", () => {
  const now = Date.UTC(2025, 5, 1);
  const at = (days: number) => new Date(now + days * 86_400_000).toISOString();
  const from = { id: 1, status: "upcoming", startsAt: at(2), format: "women_men" };
  it("offers later upcoming nights of the same format, never the night itself", () => {
    const events = [
      from,
      { id: 2, status: "upcoming", startsAt: at(9), format: "women_men" },
      { id: 3, status: "upcoming", startsAt: at(9), format: "one_group" },
      { id: 4, status: "cancelled", startsAt: at(9), format: "women_men" },
      { id: 5, status: "ended", startsAt: at(-9), format: "women_men" },
      { id: 6, status: "upcoming", startsAt: at(16) },
    ];
    expect(moveTargets(from, events, now).map((e) => e.id)).toEqual([2, 6]);
  });
});
