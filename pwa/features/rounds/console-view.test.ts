import { describe, expect, it } from "vitest";
import { pinClock } from "../../../test/clock.ts";
import {
  draftOf,
  metBeforeLine,
  peopleLists,
  planGrid,
  presentLine,
  projectClock,
  readDraft,
  sparseAddedRounds,
} from "./console-view.ts";
import type { RoundsPerson, RoundsState } from "./rounds-api.ts";

// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(Date.UTC(2026, 11, 2));

const person = (userID: number, username: string, gender: "male" | "female", left = false): RoundsPerson => ({
  userID,
  username,
  gender,
  image_name: `${username}.jpg`,
  left,
  arrivedAt: "2026-11-29T19:30:00.000Z",
  age: 30,
});
const people = [
  person(1, "Anika", "female"),
  person(2, "Priya", "female"),
  person(3, "Meera", "female", true),
  person(11, "Dev", "male"),
  person(12, "Arjun", "male"),
];
const rounds: RoundsState["rounds"] = [
  {
    round: 1,
    pairs: [
      { table: 1, femaleID: 1, maleID: 11 },
      { table: 2, femaleID: 2, maleID: 12 },
    ],
    sitOut: [],
  },
  { round: 2, pairs: [{ table: 2, femaleID: 2, maleID: 11 }], sitOut: [1, 12] },
];

describe("what the host's console shows", () => {
  it("says who is present in the host's own words", () => {
    expect(presentLine({ female: 3, male: 4 })).toBe("Present: 3 women, 4 men");
  });

  it("counts everyone together at One group and Mixed, one pool whatever their gender", () => {
    expect(presentLine({ female: 0, male: 0 }, { format: "one_group", total: 7 })).toBe("Present: 7");
    expect(presentLine({ female: 3, male: 2 }, { format: "mixed", total: 6 })).toBe("Present: 6");
    expect(presentLine({ female: 3, male: 4 }, { format: "women_men", total: 7 })).toBe("Present: 3 women, 4 men");
  });

  it("lays the plan out as round × table with names, an empty table left blank, and who sits out", () => {
    expect(planGrid({ rounds, people, metBefore: [{ round: 2, table: 2 }] })).toEqual({
      tables: [1, 2],
      rows: [
        {
          round: 1,
          cells: [
            { table: 1, female: "Anika", male: "Dev", metBefore: false },
            { table: 2, female: "Priya", male: "Arjun", metBefore: false },
          ],
          sitOut: [],
        },
        {
          round: 2,
          cells: [null, { table: 2, female: "Priya", male: "Dev", metBefore: true }],
          sitOut: ["Anika", "Arjun"],
        },
      ],
    });
    expect(planGrid({ rounds: [], people })).toEqual({ tables: [], rows: [] });
  });

  it("says how many pairs met at an earlier night, in the issue's words", () => {
    expect(metBeforeLine(2)).toBe("2 pairs met at an earlier night");
    expect(metBeforeLine(1)).toBe("1 pair met at an earlier night");
  });

  it("lists women then men by name, marks new arrivals, and keeps those who went home apart", () => {
    const lists = peopleLists({ people, arrivals: [12, 3] });
    expect(lists.present.map((p) => [p.username, p.isNew])).toEqual([
      ["Anika", false],
      ["Priya", false],
      ["Arjun", true],
      ["Dev", false],
    ]);
    expect(lists.left.map((p) => [p.username, p.isNew])).toEqual([["Meera", false]]);
  });
});

describe("the console's timer without the network", () => {
  const start = Date.parse("2026-11-29T20:00:00.000Z");
  const min = 60_000;
  const night = {
    status: "running" as const,
    current: 1,
    phase: "round" as const,
    phaseEndsAt: new Date(start + 5 * min).toISOString(),
    rounds: [...rounds, { round: 3, pairs: [], sitOut: [] }],
    settings: { roundMinutes: 5, breakMinutes: 1 },
  };

  it("plays on as the server would: round, changeover, next round, and finished after the last", () => {
    expect(projectClock(night, start + 4 * min)).toEqual({
      status: "running",
      current: 1,
      phase: "round",
      endsAt: start + 5 * min,
    });
    expect(projectClock(night, start + 5 * min + 10_000)).toEqual({
      status: "running",
      current: 1,
      phase: "break",
      endsAt: start + 6 * min,
    });
    expect(projectClock(night, start + 6 * min)).toEqual({
      status: "running",
      current: 2,
      phase: "round",
      endsAt: start + 11 * min,
    });
    // Rounds 2 and 3 and the changeover between them: no changeover after the last round.
    expect(projectClock(night, start + 17 * min - 1)).toMatchObject({ current: 3, phase: "round" });
    expect(projectClock(night, start + 17 * min)).toEqual({
      status: "finished",
      current: 3,
      phase: null,
      endsAt: null,
    });
  });

  it("goes straight to the next round when the changeover lasts 0 minutes", () => {
    const noBreak = { ...night, settings: { roundMinutes: 5, breakMinutes: 0 } };
    expect(projectClock(noBreak, start + 5 * min)).toMatchObject({
      current: 2,
      phase: "round",
      endsAt: start + 10 * min,
    });
  });

  it("leaves a paused clock where it stands", () => {
    expect(projectClock({ ...night, status: "paused" }, start + 60 * min)).toMatchObject({
      status: "paused",
      current: 1,
      endsAt: start + 5 * min,
    });
  });
});

describe("the settings form", () => {
  const saved = { roundMinutes: 5, breakMinutes: 1, maxRounds: null, seated: "female" as const };

  it("sends whole numbers in range, an empty Max rounds meaning no limit", () => {
    expect(draftOf(saved)).toEqual({ roundMinutes: "5", breakMinutes: "1", maxRounds: "", seated: "female" });
    expect(readDraft({ roundMinutes: "7", breakMinutes: "0", maxRounds: "6", seated: "male" })).toEqual({
      ok: true,
      settings: { roundMinutes: 7, breakMinutes: 0, maxRounds: 6, seated: "male" },
    });
    expect(readDraft(draftOf(saved))).toEqual({ ok: true, settings: saved });
  });

  it("names each field that is out of range", () => {
    expect(readDraft({ roundMinutes: "31", breakMinutes: "11", maxRounds: "0", seated: "female" })).toEqual({
      ok: false,
      errors: {
        roundMinutes: "From 1 to 30 minutes.",
        breakMinutes: "From 0 to 10 minutes.",
        maxRounds: "A whole number of rounds up to 200, or empty for no limit.",
      },
    });
    // The server's cap on rounds (common/rounds-settings.ts) holds in the form too.
    expect(readDraft({ roundMinutes: "5", breakMinutes: "1", maxRounds: "201", seated: "female" })).toEqual({
      ok: false,
      errors: { maxRounds: "A whole number of rounds up to 200, or empty for no limit." },
    });
    expect(readDraft({ roundMinutes: "2.5", breakMinutes: "", maxRounds: "", seated: "female" })).toMatchObject({
      ok: false,
      errors: { roundMinutes: "From 1 to 30 minutes.", breakMinutes: "From 0 to 10 minutes." },
    });
  });
});

describe("sparseAddedRounds", () => {
  const round = (n: number, pairs: number) => ({
    round: n,
    pairs: Array.from({ length: pairs }, (_, t) => ({ table: t + 1, femaleID: 100 + t, maleID: 200 + t + n })),
    sitOut: [],
  });
  const before = { rounds: [round(1, 4), round(2, 4), round(3, 4), round(4, 4)] };

  it("finds added rounds where fewer than half of those present meet, and suggests Max rounds before them", () => {
    // 4 women and 5 men: a late man needs 4 more rounds, where only he and one woman meet.
    const after = {
      present: { female: 4, male: 5 },
      rounds: [round(1, 4), round(2, 4), round(3, 4), round(4, 4), round(5, 4), round(6, 1), round(7, 1)],
    };
    expect(sparseAddedRounds(before, after)).toEqual({ from: 6, to: 7, present: 9, suggestMax: 5 });
  });

  it("says nothing when the added rounds pair at least half, or nothing is added", () => {
    const after = { present: { female: 4, male: 4 }, rounds: [...before.rounds, round(5, 2)] };
    expect(sparseAddedRounds(before, after)).toBeNull();
    // Sparse rounds already in the plan were accepted before: only added ones warn.
    const same = { present: { female: 8, male: 8 }, rounds: before.rounds };
    expect(sparseAddedRounds(before, same)).toBeNull();
  });
});
