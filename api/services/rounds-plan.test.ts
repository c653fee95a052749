import { describe, expect, it } from "vitest";
import { planRounds, type Round, type Seated, spreadGaps } from "./rounds-plan.ts";

// Properties of the night's plan over every size (docs/decisions/018-rounds.md), from seeded ids, so
// a failure replays exactly.

/** A small seeded generator (mulberry32): the same seed gives the same scenarios on every run. */
function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  /** A whole number from lo to hi, both included. */
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  return { next, int };
}

/** `count` distinct ids from a shared counter, in a shuffled order, so no test leans on ids being sorted. */
function ids(count: number, rng: ReturnType<typeof random>, counter: { next: number }): number[] {
  const list = Array.from({ length: count }, () => (counter.next += rng.int(1, 5)));
  for (let i = list.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
}

// Test ids stay below a million, so this numbers each pair uniquely.
const key = (f: number, m: number) => f * 1_000_000 + m;

/**
 * Checks collect what they find instead of calling expect millions of times: a message is built only
 * for a failure, and each test ends with one `expect(problems).toEqual([])` that lists the first few.
 */
class Problems {
  readonly found: string[] = [];
  check(ok: boolean, message: () => string) {
    if (!ok && this.found.length < 20) this.found.push(message());
  }
}

/** One round on its own: only people present, nobody twice, distinct tables, and sitOut is exactly the rest. */
function checkWellFormed(round: Round, female: readonly number[], male: readonly number[], label: string, p: Problems) {
  const women = new Set(female);
  const men = new Set(male);
  const seen = new Set<number>();
  const tables = new Set<number>();
  for (const pair of round.pairs) {
    const { femaleID: f, maleID: m, table } = pair;
    p.check(women.has(f), () => `${label}: woman ${f} is not present`);
    p.check(men.has(m), () => `${label}: man ${m} is not present`);
    p.check(!seen.has(f) && !seen.has(m), () => `${label}: ${f} or ${m} is in two pairs`);
    seen.add(f).add(m);
    p.check(Number.isInteger(table) && table >= 1 && !tables.has(table), () => `${label}: table ${table}`);
    tables.add(table);
  }
  const rest = [...female, ...male].filter((id) => !seen.has(id)).sort((a, b) => a - b);
  const out = [...round.sitOut].sort((a, b) => a - b);
  p.check(rest.join() === out.join(), () => `${label}: sitOut ${out} should be ${rest}`);
}

/** No pair meets twice anywhere in the night, and rounds are numbered 1, 2, 3… */
function checkNoRepeats(night: readonly Round[], label: string, p: Problems) {
  const met = new Set<number>();
  night.forEach((round, r) => {
    p.check(round.round === r + 1, () => `${label}: round ${r + 1} is numbered ${round.round}`);
    for (const { femaleID: f, maleID: m } of round.pairs) {
      p.check(!met.has(key(f, m)), () => `${label}: ${f} and ${m} meet twice`);
      met.add(key(f, m));
    }
  });
}

const sizes = Array.from({ length: 31 }, (_, i) => i);
const bothSeated: Seated[] = ["female", "male"];

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
    const rng = random(1);
    const p = new Problems();
    for (const seated of bothSeated)
      for (const F of sizes)
        for (const M of sizes) {
          const label = `${seated} seated, ${F} women × ${M} men`;
          const counter = { next: 0 };
          const female = ids(F, rng, counter);
          const male = ids(M, rng, counter);
          const night = planRounds({ female, male, seated });
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
    for (const seated of bothSeated)
      for (const F of sizes)
        for (const M of sizes) {
          const label = `${seated} seated, ${F} women × ${M} men`;
          const female = Array.from({ length: F }, (_, i) => 500 + i);
          const male = Array.from({ length: M }, (_, i) => 900 - i);
          const [sitters, movers] = seated === "female" ? [female, male] : [male, female];
          const T = sitters.length;
          const tablesOf = new Map<number, number[]>(movers.map((id) => [id, []]));
          for (const round of planRounds({ female, male, seated }))
            for (const pair of round.pairs) {
              const [sitter, mover] = seated === "female" ? [pair.femaleID, pair.maleID] : [pair.maleID, pair.femaleID];
              p.check(pair.table === sitters.indexOf(sitter) + 1, () => `${label}: ${sitter} at table ${pair.table}`);
              tablesOf.get(mover)!.push(pair.table);
            }
          // Between two rounds a mover plays, whether or not they sat out in between, the table goes up
          // by one, from the last back to 1.
          for (const [mover, tables] of tablesOf)
            for (let x = 1; x < tables.length; x++)
              p.check(
                tables[x] === (tables[x - 1]! % T) + 1,
                () => `${label}: mover ${mover} goes ${tables.join(" ")}`,
              );
        }
    expect(p.found).toEqual([]);
  });

  it("has the larger side sit out |F − M| rounds each, spread out, and never twice running when |F − M| ≤ min(F, M)", () => {
    const p = new Problems();
    for (const seated of bothSeated)
      for (const F of sizes)
        for (const M of sizes) {
          if (F === 0 || M === 0) continue;
          const label = `${seated} seated, ${F} women × ${M} men`;
          const female = Array.from({ length: F }, (_, i) => 1 + i);
          const male = Array.from({ length: M }, (_, i) => 101 + i);
          const night = planRounds({ female, male, seated });
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
            const before = [0];
            for (const o of out) before.push(before.at(-1)! + (o ? 1 : 0));
            for (let w = 1; w <= N; w++)
              for (let s = 0; s + w <= N; s++) {
                const inRun = before[s + w]! - before[s]!;
                const fair = larger ? (w * k) / N : 0;
                if (inRun < Math.floor(fair) || inRun > Math.ceil(fair))
                  p.check(false, () => `${label}: ${id} sits out ${inRun} of rounds ${s + 1}…${s + w}`);
              }
          }
        }
    expect(p.found).toEqual([]);
  });

  it("with maxRounds, plays the first maxRounds rounds of the full rotation", () => {
    const rng = random(2);
    const p = new Problems();
    for (const seated of bothSeated)
      for (const F of sizes)
        for (const M of sizes) {
          const female = Array.from({ length: F }, (_, i) => 1 + i);
          const male = Array.from({ length: M }, (_, i) => 101 + i);
          const maxRounds = rng.int(0, Math.max(F, M) + 2);
          const capped = planRounds({ female, male, seated, maxRounds });
          const full = planRounds({ female, male, seated });
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
