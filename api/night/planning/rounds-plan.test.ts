import { describe, expect, it } from "vitest";
import { random } from "../../../test/seeded-random.ts";
import { checkNoRepeats, checkReplan, checkWellFormed, ids, Problems } from "../../../test/suites/rounds-checks.ts";
import { planRounds, type Round, replanRounds, type Seated, spreadGaps } from "./rounds-plan.ts";

// Properties of the night's plan (docs/decisions/018-rounds.md): the rotation over every size, and
// re-plans over seeded nights of arrivals and departures, so a failure replays exactly.

const bothSeated: Seated[] = ["female", "male"];

type Planned = {
  seated: Seated;
  F: number;
  M: number;
  female: number[];
  male: number[];
  night: Round[];
  label: string;
};
let grid: Planned[] | undefined;

/**
 * Every size from 0 × 0 to 30 × 30 with each side seated, planned once and shared by the tests below.
 * Women are 1…F and men 101…100+M, each side in a seeded shuffled order, so a planner that sorted the
 * ids or leaned on their order would fail.
 */
function everySize(): Planned[] {
  if (grid) return grid;
  const rng = random(1);
  const shuffled = (list: number[]) => {
    for (let i = list.length - 1; i > 0; i--) {
      const j = rng.int(0, i);
      [list[i], list[j]] = [list[j]!, list[i]!];
    }
    return list;
  };
  grid = [];
  for (const seated of bothSeated)
    for (let F = 0; F <= 30; F++)
      for (let M = 0; M <= 30; M++) {
        const female = shuffled(Array.from({ length: F }, (_, i) => 1 + i));
        const male = shuffled(Array.from({ length: M }, (_, i) => 101 + i));
        const label = `${seated} seated, ${F} women × ${M} men`;
        grid.push({ seated, F, M, female, male, night: planRounds({ female, male, seated }), label });
      }
  return grid;
}

describe("the rotation, when nobody arrives or leaves", () => {
  it("spreads gaps so that no two touch when there are at most half as many, and any run holds its fair share", () => {
    const p = new Problems();
    for (let n = 1; n <= 60; n++)
      for (let k = 0; k <= n; k++) {
        const gaps = spreadGaps(n, k);
        const before = [0];
        for (let x = 0; x < 2 * n; x++) before.push(before.at(-1)! + (gaps[x % n] ? 1 : 0));
        p.check(before[n] === k, () => `n=${n} k=${k}: ${before[n]} gaps`);
        for (let start = 0; start < n; start++)
          for (let w = 1; w <= n; w++) {
            const inRun = before[start + w]! - before[start]!;
            const fair = (w * k) / n;
            if (inRun < Math.floor(fair) || inRun > Math.ceil(fair))
              p.check(false, () => `n=${n} k=${k}: run ${start}+${w}`);
          }
      }
    expect(p.found).toEqual([]);
  });

  it("meets every woman with every man exactly once, in max(F, M) rounds, for every size up to 30 × 30", () => {
    const p = new Problems();
    for (const { F, M, female, male, night, label } of everySize()) {
      // Nobody can meet anybody when a side is empty, so such a night has no rounds at all.
      const rounds = F === 0 || M === 0 ? 0 : Math.max(F, M);
      p.check(night.length === rounds, () => `${label}: ${night.length} rounds`);
      checkNoRepeats(night, label, p);
      for (const round of night) checkWellFormed(round, female, male, `${label}, round ${round.round}`, p);
      const pairs = night.reduce((n, r) => n + r.pairs.length, 0);
      p.check(pairs === F * M, () => `${label}: ${pairs} meetings`);
    }
    expect(p.found).toEqual([]);
  });

  it("keeps each seated person at one table, 1…T in the order given, and moves each mover to the next table", () => {
    const p = new Problems();
    for (const { seated, female, male, night, label } of everySize()) {
      const [sitters, movers] = seated === "female" ? [female, male] : [male, female];
      const T = sitters.length;
      const tablesOf = new Map<number, number[]>(movers.map((id) => [id, []]));
      for (const round of night)
        for (const pair of round.pairs) {
          const [sitter, mover] = seated === "female" ? [pair.femaleID, pair.maleID] : [pair.maleID, pair.femaleID];
          p.check(pair.table === sitters.indexOf(sitter) + 1, () => `${label}: ${sitter} at table ${pair.table}`);
          tablesOf.get(mover)!.push(pair.table);
        }
      // Between two rounds a mover plays, whether or not they sat out in between, the table goes up
      // by one, from the last back to 1.
      for (const [mover, tables] of tablesOf)
        for (let x = 1; x < tables.length; x++)
          p.check(tables[x] === (tables[x - 1]! % T) + 1, () => `${label}: mover ${mover} goes ${tables.join(" ")}`);
    }
    expect(p.found).toEqual([]);
  });

  it("has the larger side sit out |F − M| rounds each, spread out, and never twice running when |F − M| ≤ min(F, M)", () => {
    const p = new Problems();
    for (const { F, M, female, male, night, label } of everySize()) {
      if (F === 0 || M === 0) continue;
      const N = Math.max(F, M);
      const k = Math.abs(F - M);
      const outs = night.map((r) => new Set(r.sitOut));
      for (const id of [...female, ...male]) {
        const out = outs.map((o) => o.has(id));
        const larger = (F > M && id <= 100) || (M > F && id > 100);
        const count = out.filter(Boolean).length;
        p.check(count === (larger ? k : 0), () => `${label}: ${id} sits out ${count} rounds`);
        if (k <= Math.min(F, M))
          for (let r = 1; r < N; r++)
            p.check(!(out[r - 1] && out[r]), () => `${label}: ${id} out in ${r} and ${r + 1}`);
        // Spread: any w rounds in a row hold ⌊w·k/N⌋ or ⌈w·k/N⌉ of a person's sit-outs.
        if (!larger) continue;
        const before = new Int32Array(N + 1);
        for (let r = 0; r < N; r++) before[r + 1] = before[r]! + (out[r] ? 1 : 0);
        for (let w = 1; w <= N; w++) {
          const least = Math.floor((w * k) / N);
          const most = Math.ceil((w * k) / N);
          for (let s = 0; s + w <= N; s++) {
            const inRun = before[s + w]! - before[s]!;
            if (inRun < least || inRun > most)
              p.check(false, () => `${label}: ${id} sits out ${inRun} of rounds ${s + 1}…${s + w}`);
          }
        }
      }
    }
    expect(p.found).toEqual([]);
  });

  it("with maxRounds, plays the first maxRounds rounds of the full rotation", () => {
    const rng = random(2);
    const p = new Problems();
    for (const { seated, F, M, female, male, night: full } of everySize()) {
      const maxRounds = rng.int(0, Math.max(F, M) + 2);
      const capped = planRounds({ female, male, seated, maxRounds });
      const label = `${seated} seated, ${F}×${M} capped at ${maxRounds}`;
      p.check(capped.length <= maxRounds, () => `${label}: ${capped.length} rounds`);
      p.check(JSON.stringify(capped) === JSON.stringify(full.slice(0, maxRounds)), () => `${label}: not a prefix`);
      checkNoRepeats(capped, label, p);
    }
    expect(p.found).toEqual([]);
  });

  it("refuses a person listed twice and a maxRounds that is not a whole number ≥ 0", () => {
    expect(() => planRounds({ female: [1, 2], male: [2] })).toThrow(RangeError);
    expect(() => planRounds({ female: [1, 1], male: [3] })).toThrow(RangeError);
    expect(() => planRounds({ female: [1], male: [3], maxRounds: -1 })).toThrow(RangeError);
    expect(() => planRounds({ female: [1], male: [3], maxRounds: 1.5 })).toThrow(RangeError);
  });
});

describe("re-planning when people arrive and leave", () => {
  it("before any round has started, is the rotation for whoever is there", () => {
    const female = [4, 8, 15];
    const male = [16, 23, 42, 7, 9];
    for (const seated of bothSeated)
      expect(replanRounds({ played: [], female, male, seated })).toEqual(planRounds({ female, male, seated }));
  });

  it("refuses a room too big for its preferences to add up exactly, rather than plan it wrong", () => {
    const female = Array.from({ length: 300 }, (_, i) => 1 + i);
    const male = Array.from({ length: 300 }, (_, i) => 1001 + i);
    const played = planRounds({ female, male, maxRounds: 1 });
    expect(() => replanRounds({ played, female, male })).toThrow(RangeError);
  });

  it("with nobody arriving or leaving, gives back the plan it was given", () => {
    const rng = random(3);
    const p = new Problems();
    for (let scenario = 0; scenario < 120; scenario++) {
      const seated = bothSeated[scenario % 2]!;
      const F = rng.int(1, 30);
      const M = rng.int(1, 30);
      const female = Array.from({ length: F }, (_, i) => 1 + i);
      const male = Array.from({ length: M }, (_, i) => 101 + i);
      const maxRounds = rng.next() < 0.3 ? rng.int(1, Math.max(F, M)) : null;
      const plan = planRounds({ female, male, seated, maxRounds });
      const started = rng.int(1, plan.length);
      const again = replanRounds({
        played: plan.slice(0, started),
        planned: plan.slice(started),
        female,
        male,
        seated,
        maxRounds,
      });
      p.check(JSON.stringify(again) === JSON.stringify(plan), () => `${seated} ${F}×${M} after ${started} rounds`);
    }
    expect(p.found).toEqual([]);
  });

  it("when one person leaves an even night, keeps everyone else's planned pairs and tables", () => {
    const rng = random(4);
    const p = new Problems();
    for (const seated of bothSeated)
      for (let n = 2; n <= 30; n++) {
        const female = Array.from({ length: n }, (_, i) => 1 + i);
        const male = Array.from({ length: n }, (_, i) => 101 + i);
        const plan = planRounds({ female, male, seated });
        const started = rng.int(1, n - 1);
        const leaver = rng.next() < 0.5 ? female[rng.int(0, n - 1)]! : male[rng.int(0, n - 1)]!;
        const night = replanRounds({
          played: plan.slice(0, started),
          planned: plan.slice(started),
          female: female.filter((id) => id !== leaver),
          male: male.filter((id) => id !== leaver),
          seated,
        });
        // The leaver's partners sit those rounds out; every other pair stays where the plan had it.
        const expected = plan.map((round, r) =>
          r < started ? round.pairs : round.pairs.filter((x) => x.femaleID !== leaver && x.maleID !== leaver),
        );
        const label = `${seated} seated, ${n} × ${n}, ${leaver} leaves after ${started}`;
        for (let r = 0; r < n; r++)
          p.check(
            JSON.stringify(night[r]?.pairs) === JSON.stringify(expected[r]),
            () => `${label}: round ${r + 1} changed`,
          );
        p.check(night.length === n, () => `${label}: ${night.length} rounds`);
      }
    expect(p.found).toEqual([]);
  });

  it("keeps its promises over 300 seeded nights of arrivals, departures and returns between rounds", () => {
    const p = new Problems();
    for (let seed = 1; seed <= 300; seed++) {
      const rng = random(1000 + seed);
      const counter = { next: 0 };
      const seated = bothSeated[rng.int(0, 1)]!;
      const maxRounds = rng.next() < 0.25 ? rng.int(0, 20) : null;
      const room = {
        female: ids(rng.int(0, 14), rng, counter),
        male: ids(rng.int(0, 14), rng, counter),
        seated,
        maxRounds,
      };
      // People who left, by side: some come back later, having met some of the room already.
      const gone = { female: [] as number[], male: [] as number[] };
      let night = planRounds(room);
      let played: Round[] = [];
      const changes = rng.int(1, 3);
      for (let change = 1; change <= changes; change++) {
        played = night.slice(0, rng.int(played.length, night.length));
        for (const side of ["female", "male"] as const) {
          const back = gone[side].filter(() => rng.next() < 0.3);
          const leaving = room[side].filter(() => rng.next() < 0.15);
          gone[side] = [...gone[side].filter((id) => !back.includes(id)), ...leaving];
          room[side] = [
            ...room[side].filter((id) => !leaving.includes(id)),
            ...back,
            ...ids(rng.int(0, 3), rng, counter),
          ];
        }
        const planned = rng.next() < 0.5 ? night.slice(played.length) : undefined;
        const before = structuredClone(played);
        night = replanRounds({ ...room, played, planned });
        checkReplan(before, played, night, room, `seed ${1000 + seed}, change ${change}`, p);
        // Pressing re-plan again later with nobody changed keeps the re-planned night as it is.
        const later = rng.int(played.length, night.length);
        const again = replanRounds({ ...room, played: night.slice(0, later), planned: night.slice(later) });
        p.check(JSON.stringify(again) === JSON.stringify(night), () => `seed ${1000 + seed}, change ${change}: moved`);
      }
    }
    expect(p.found).toEqual([]);
  });
});
