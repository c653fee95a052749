// @vitest-environment happy-dom
import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { pinClock } from "../../../../test/clock.ts";
import type { RoundsPerson, RoundsState } from "../rounds-api.ts";
import { PlanTable } from "./plan-table.tsx";

// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(Date.UTC(2026, 11, 2));

const person = (userID: number, username: string): RoundsPerson => ({
  userID,
  username,
  gender: "female",
  image_name: `${username}.jpg`,
  left: false,
  arrivedAt: "2026-11-29T19:30:00.000Z",
  age: null,
});

// A Mixed night of five: someone keeps the table they last played at, so a round can leave a table
// number free between two used ones (round 2 uses tables 1 and 3).
const mixed = {
  status: "planned",
  current: null,
  format: "mixed",
  settings: { roundMinutes: 5, breakMinutes: 1, maxRounds: null, seated: "female" },
  metBefore: [],
  people: [person(1, "Asha"), person(2, "Bea"), person(3, "Chen"), person(4, "Dani"), person(5, "Eli")],
  rounds: [
    {
      round: 1,
      pairs: [
        { table: 1, femaleID: 1, maleID: 2 },
        { table: 2, femaleID: 3, maleID: 4 },
      ],
      sitOut: [5],
    },
    {
      round: 2,
      pairs: [
        { table: 1, femaleID: 1, maleID: 5 },
        { table: 3, femaleID: 2, maleID: 3 },
      ],
      sitOut: [4],
    },
  ],
} as unknown as RoundsState;

afterEach(cleanup);

describe("the plan table", () => {
  // Issue 46, item 14: the Mixed plan listed `Empty` tables.
  it("lists no Empty tables at a Mixed night, only the tables people sit at", () => {
    render(<PlanTable rounds={mixed} />);
    const table = screen.getByRole("table", { name: "Plan: rounds by table" });
    expect(within(table).queryByText("Empty")).toBeNull();
    expect(table.textContent).not.toContain("Empty");
    const round2 = within(table).getByRole("row", { name: /^2/ });
    expect(within(round2).getByText("Eli")).toBeTruthy();
    expect(within(round2).getByText("Chen")).toBeTruthy();
    expect(within(round2).getByText("Dani")).toBeTruthy();
  });
});
