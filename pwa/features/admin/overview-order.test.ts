import { describe, expect, it } from "vitest";
import { pinClock } from "../../../test/clock.ts";
import { overviewOrder } from "./overview-order.ts";

// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(Date.UTC(2026, 11, 2));

const event = (id: number, day: number, status: "upcoming" | "started" | "ended" | "cancelled") => ({
  id,
  status,
  startsAt: new Date(Date.UTC(2031, 0, day, 9)).toISOString(),
});

describe("overviewOrder", () => {
  it("puts the events still to run first, soonest first, and the ended and cancelled ones below, latest first", () => {
    const rows = overviewOrder([
      event(1, 20, "upcoming"),
      event(2, 3, "ended"),
      event(3, 10, "started"),
      event(4, 15, "cancelled"),
      event(5, 12, "upcoming"),
      event(6, 5, "ended"),
    ]);
    expect(rows.map((r) => r.id)).toEqual([3, 5, 1, 4, 6, 2]);
  });
});
