import { describe, expect, it } from "vitest";
import { random } from "../../../test/seeded-random.ts";
import {
  type GroupRound,
  type MixedPerson,
  planMixed,
  planOneGroup,
  priorityMatching,
  replanMixed,
  replanOneGroup,
  wantToMeet,
} from "./group-plan.ts";
import type { PersonPair } from "./rounds-plan.ts";

// Properties of the One group and Mixed planners (docs/decisions/035-planners-for-every-format.md),
// over seeded random groups so a failure replays exactly. Checks collect what they find and each test
// ends with one expect, as in rounds-plan.test.ts.

class Problems {
  readonly found: string[] = [];
  check(ok: boolean, message: () => string) {
    if (!ok && this.found.length < 20) this.found.push(message());
  }
}
type Rng = ReturnType<typeof random>;

const key = (x: number, y: number) => (x < y ? `${x}:${y}` : `${y}:${x}`);

function shuffled<T>(list: T[], rng: Rng): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
}

/** `count` distinct ids, not sorted, so nothing leans on their order. */
const someIds = (count: number, rng: Rng) =>
  shuffled(
    Array.from({ length: count }, (_, i) => 3 * i + rng.int(1, 2)),
    rng,
  );

/** Rounds numbered from `first`, each seating only people present, nobody twice, tables 1…`tables` once each, sitOut exactly the rest in the order given. */
function checkRounds(
  rounds: readonly GroupRound[],
  present: readonly number[],
  first: number,
  label: string,
  p: Problems,
  tables = Math.floor(present.length / 2),
) {
  const here = new Set(present);
  rounds.forEach((round, k) => {
    p.check(round.round === first + k, () => `${label}: round ${round.round} at place ${k}`);
    const seen = new Set<number>();
    const used = new Set<number>();
    for (const pair of round.pairs) {
      p.check(pair.a < pair.b, () => `${label} round ${round.round}: pair ${pair.a}/${pair.b} not lower id first`);
      for (const id of [pair.a, pair.b]) {
        p.check(here.has(id), () => `${label} round ${round.round}: ${id} is not present`);
        p.check(!seen.has(id), () => `${label} round ${round.round}: ${id} seated twice`);
        seen.add(id);
      }
      p.check(
        pair.table >= 1 && pair.table <= tables && !used.has(pair.table),
        () => `${label} round ${round.round}: table ${pair.table}`,
      );
      used.add(pair.table);
    }
    const rest = present.filter((id) => !seen.has(id));
    p.check(
      JSON.stringify(rest) === JSON.stringify(round.sitOut),
      () => `${label} round ${round.round}: sitOut ${round.sitOut} should be ${rest}`,
    );
  });
}

/** Every pair seated at most once (counting `alreadyMet`), and only pairs `may` allows. */
function checkPairs(
  rounds: readonly GroupRound[],
  may: (a: number, b: number) => boolean,
  label: string,
  p: Problems,
  alreadyMet = new Set<string>(),
) {
  const met = new Set(alreadyMet);
  for (const round of rounds)
    for (const { a, b } of round.pairs) {
      p.check(!met.has(key(a, b)), () => `${label}: ${a} and ${b} meet twice (round ${round.round})`);
      p.check(may(a, b), () => `${label}: ${a} and ${b} may not meet (round ${round.round})`);
      met.add(key(a, b));
    }
  return met;
}

function randomPairs(ids: readonly number[], count: number, rng: Rng): PersonPair[] {
  const pairs: PersonPair[] = [];
  if (ids.length < 2) return pairs;
  for (let k = 0; k < count; k++) {
    const a = ids[rng.int(0, ids.length - 1)]!;
    const b = ids[rng.int(0, ids.length - 1)]!;
    if (a !== b) pairs.push([a, b]);
  }
  return pairs;
}

/** A room's realistic mix: 40% women meeting men, 40% men meeting women, the rest anything. */
function randomMix(ids: readonly number[], rng: Rng): MixedPerson[] {
  const genders = ["female", "male", "nonbinary"] as const;
  const meets = ["female", "male", "everyone"] as const;
  return ids.map((id) => {
    const x = rng.next();
    if (x < 0.4) return { id, gender: "female", meets: "male" };
    if (x < 0.8) return { id, gender: "male", meets: "female" };
    return { id, gender: genders[rng.int(0, 2)]!, meets: meets[rng.int(0, 2)]! };
  });
}

/** Every matching of a small graph, exhaustively: `visit` gets the people it seats (a bit each) and its size. */
function eachMatching(n: number, edges: Uint8Array, visit: (seated: number, size: number) => void) {
  const walk = (i: number, seated: number, done: number, size: number) => {
    while (i < n && done & (1 << i)) i++;
    if (i >= n) return visit(seated, size);
    walk(i + 1, seated, done | (1 << i), size); // i sits out
    for (let j = i + 1; j < n; j++)
      if (edges[i * n + j] && !(done & (1 << j)))
        walk(i + 1, seated | (1 << i) | (1 << j), done | (1 << i) | (1 << j), size + 1);
  };
  walk(0, 0, 0, 0);
}

const bitCount = (m: number) => {
  let c = 0;
  for (; m; m &= m - 1) c++;
  return c;
};

describe("the matching each round is made of", () => {
  it("is a largest matching that seats people in rank order as far as any largest matching can (exhaustive, up to 10 people)", () => {
    const rng = random(35);
    const p = new Problems();
    for (let scenario = 0; scenario < 400; scenario++) {
      const n = rng.int(1, 10);
      const density = rng.next();
      const edges = new Uint8Array(n * n);
      for (let i = 0; i < n; i++)
        for (let j = i + 1; j < n; j++) if (rng.next() < density) edges[i * n + j] = edges[j * n + i] = 1;
      const rank = Int32Array.from(shuffled([...Array(n).keys()], rng));
      // Half start from nothing, half from a random matching (as a re-plan's planned pairs).
      const start = new Int32Array(n).fill(-1);
      if (scenario % 2)
        for (let i = 0; i < n; i++)
          for (let j = i + 1; j < n; j++)
            if (edges[i * n + j] && start[i] === -1 && start[j] === -1 && rng.next() < 0.5) {
              start[i] = j;
              start[j] = i;
            }
      const mate = priorityMatching(n, edges, rank, start, scenario % 4 < 2);
      let seats = 0;
      let size = 0;
      for (let i = 0; i < n; i++) {
        const j = mate[i]!;
        if (j === -1) continue;
        p.check(mate[j] === i && edges[i * n + j] === 1, () => `scenario ${scenario}: ${i}–${j} is not a pair`);
        seats |= 1 << i;
        if (j > i) size++;
      }
      // The best: the most pairs, then by rank (the sorted ranks seated, smallest list first).
      const byRank = (seated: number) =>
        [...Array(n).keys()]
          .filter((i) => seated & (1 << i))
          .map((i) => rank[i]!)
          .sort((x, y) => x - y);
      let best: number[] | undefined;
      let bestSize = 0;
      eachMatching(n, edges, (seated, count) => {
        if (count > bestSize || (count === bestSize && better(byRank(seated), best))) {
          bestSize = count;
          best = byRank(seated);
        }
      });
      p.check(size === bestSize, () => `scenario ${scenario}: ${size} pairs, ${bestSize} possible`);
      p.check(
        JSON.stringify(byRank(seats)) === JSON.stringify(best ?? []),
        () => `scenario ${scenario}: seats ranks ${byRank(seats)}, best ${best}`,
      );
    }
    expect(p.found).toEqual([]);
  });
});

/** Lexicographically smaller list of ranks (more of the first-ranked seated) is better. */
function better(x: number[], y: number[] | undefined): boolean {
  if (!y) return true;
  for (let k = 0; k < Math.min(x.length, y.length); k++) if (x[k] !== y[k]) return x[k]! < y[k]!;
  return false;
}

describe("One group: the circle method", () => {
  it("seats 6 people in 5 rounds, every pair once, nobody sitting out", () => {
    const people = [11, 12, 13, 14, 15, 16];
    const night = planOneGroup({ people });
    expect(night).toHaveLength(5);
    expect(night.every((r) => r.pairs.length === 3 && r.sitOut.length === 0)).toBe(true);
    expect(new Set(night.flatMap((r) => r.pairs.map((x) => key(x.a, x.b)))).size).toBe(15);
    // The first person keeps table 1 all night.
    expect(night.every((r) => r.pairs.some((x) => x.table === 1 && (x.a === 11 || x.b === 11)))).toBe(true);
  });

  it("seats 7 people in 7 rounds, three tables a round, each sitting out exactly once", () => {
    const people = [7, 1, 5, 3, 2, 6, 4];
    const night = planOneGroup({ people });
    expect(night).toHaveLength(7);
    expect(night.map((r) => r.sitOut.length)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(new Set(night.flatMap((r) => r.sitOut))).toEqual(new Set(people));
    expect(night.every((r) => r.pairs.map((x) => x.table).join() === "1,2,3")).toBe(true);
    expect(new Set(night.flatMap((r) => r.pairs.map((x) => key(x.a, x.b)))).size).toBe(21);
  });

  it("for every size up to 40: n − 1 rounds (n even) or n (n odd), every pair once, each sits out at most once, and nobody moves further than the next table", () => {
    const rng = random(36);
    const p = new Problems();
    for (let n = 0; n <= 40; n++) {
      const people = someIds(n, rng);
      const night = planOneGroup({ people });
      const label = `${n} people`;
      const best = n < 2 ? 0 : n % 2 === 0 ? n - 1 : n;
      p.check(night.length === best, () => `${label}: ${night.length} rounds, best ${best}`);
      checkRounds(night, people, 1, label, p);
      const met = checkPairs(night, () => true, label, p);
      p.check(met.size === (n * (n - 1)) / 2, () => `${label}: ${met.size} pairs met`);
      const outs = night.flatMap((r) => r.sitOut);
      p.check(
        outs.length === (n >= 2 ? n % 2 : 0) * n && new Set(outs).size === outs.length,
        () => `${label}: sit-outs ${outs}`,
      );
      for (let r = 1; r < night.length; r++) {
        const before = new Map(night[r - 1]!.pairs.flatMap((x) => [[x.a, x.table] as const, [x.b, x.table] as const]));
        for (const x of night[r]!.pairs)
          for (const id of [x.a, x.b]) {
            const was = before.get(id);
            p.check(
              was === undefined || Math.abs(was - x.table) <= 1,
              () => `${label}: ${id} from ${was} to ${x.table}`,
            );
          }
      }
    }
    expect(p.found).toEqual([]);
  });

  it("never has the same person sit out twice running, whatever the size", () => {
    const p = new Problems();
    for (let n = 1; n <= 61; n += 2) {
      const night = planOneGroup({ people: Array.from({ length: n }, (_, i) => 100 - i) });
      for (let r = 1; r < night.length; r++)
        p.check(!night[r]!.sitOut.some((id) => night[r - 1]!.sitOut.includes(id)), () => `${n} people, round ${r + 1}`);
    }
    expect(p.found).toEqual([]);
  });

  it("with maxRounds below the full circle, plays exactly that many of its rounds", () => {
    const rng = random(37);
    const p = new Problems();
    for (let scenario = 0; scenario < 60; scenario++) {
      const people = someIds(rng.int(2, 40), rng);
      const full = planOneGroup({ people });
      const maxRounds = rng.int(0, full.length + 2);
      const capped = planOneGroup({ people, maxRounds });
      p.check(
        JSON.stringify(capped) === JSON.stringify(full.slice(0, maxRounds)),
        () => `${people.length} people, cap ${maxRounds}`,
      );
    }
    expect(p.found).toEqual([]);
  });

  it("never seats a pair kept apart, and avoids pairs who met before in a capped night while every round stays as full", () => {
    const rng = random(38);
    const p = new Problems();
    for (let scenario = 0; scenario < 150; scenario++) {
      const people = someIds(rng.int(2, 30), rng);
      const n = people.length;
      const keepApart = randomPairs(people, rng.int(0, 3), rng);
      const metBefore = randomPairs(people, rng.int(0, n * 2), rng);
      const full = n % 2 === 0 ? n - 1 : n;
      const maxRounds = rng.next() < 0.5 ? null : rng.int(1, full);
      const night = planOneGroup({ people, keepApart, metBefore, maxRounds });
      const label = `scenario ${scenario}: ${n} people, cap ${maxRounds}`;
      const apart = new Set(keepApart.map(([a, b]) => key(a, b)));
      checkRounds(night, people, 1, label, p);
      const met = checkPairs(night, (a, b) => !apart.has(key(a, b)), label, p);
      if (maxRounds === null) {
        p.check(night.length === full, () => `${label}: ${night.length} rounds`);
        p.check(met.size + apart.size === (n * (n - 1)) / 2, () => `${label}: ${met.size} pairs met`);
      } else if (apart.size === 0) {
        // As many rounds and as many dates as the circle.
        p.check(night.length === maxRounds, () => `${label}: ${night.length} rounds`);
        p.check(
          night.every((r) => r.pairs.length === Math.floor(n / 2)),
          () => `${label}: ${night.map((r) => r.pairs.length)}`,
        );
      }
    }
    expect(p.found).toEqual([]);
  });

  it("in a capped night, seats no pair who met before when the circle on another order shows there is no need", () => {
    const rng = random(39);
    const p = new Problems();
    let repeatsInCircle = 0;
    for (let scenario = 0; scenario < 80; scenario++) {
      const people = someIds(rng.int(4, 30), rng);
      const maxRounds = rng.int(1, Math.floor(people.length / 3));
      // A witness: the circle on a shuffled order; every pair it does not seat met before.
      const witness = planOneGroup({ people: shuffled([...people], rng), maxRounds });
      const seated = new Set(witness.flatMap((r) => r.pairs.map((x) => key(x.a, x.b))));
      const metBefore: PersonPair[] = [];
      for (const a of people) for (const b of people) if (a < b && !seated.has(key(a, b))) metBefore.push([a, b]);
      const night = planOneGroup({ people, metBefore, maxRounds });
      repeatsInCircle += planOneGroup({ people, maxRounds }).flatMap((r) => r.pairs).length;
      const label = `scenario ${scenario}: ${people.length} people, cap ${maxRounds}`;
      const repeats = night.flatMap((r) => r.pairs).filter((x) => !seated.has(key(x.a, x.b))).length;
      p.check(night.length === maxRounds, () => `${label}: ${night.length} rounds`);
      p.check(
        night.every((r) => r.pairs.length === Math.floor(people.length / 2)),
        () => `${label}: fewer dates in a round`,
      );
      // Round by round, the planner cannot always find the witness; it must stay close to it.
      p.check(repeats <= Math.floor(people.length / 2), () => `${label}: ${repeats} pairs met before seated`);
    }
    expect(repeatsInCircle).toBeGreaterThan(0);
    expect(p.found).toEqual([]);
  });

  it("refuses a person listed twice and a maxRounds that is not a whole number ≥ 0", () => {
    expect(() => planOneGroup({ people: [1, 2, 1] })).toThrow(RangeError);
    expect(() => planOneGroup({ people: [1, 2], maxRounds: -1 })).toThrow(RangeError);
    expect(() => planOneGroup({ people: [1, 2], maxRounds: 1.5 })).toThrow(RangeError);
    expect(() => planMixed({ people: [{ id: Number.NaN, gender: "female", meets: "male" }] })).toThrow(RangeError);
  });
});

describe("Mixed: each pair only when both would like to meet", () => {
  it("seats a non-binary guest only with someone who meets everyone, and never two who don't want each other", () => {
    const people: MixedPerson[] = [
      { id: 1, gender: "nonbinary", meets: "everyone" },
      { id: 2, gender: "female", meets: "everyone" },
      { id: 3, gender: "male", meets: "female" },
      { id: 4, gender: "female", meets: "male" },
      { id: 5, gender: "male", meets: "everyone" },
    ];
    const met = new Set(planMixed({ people }).flatMap((r) => r.pairs.map((x) => key(x.a, x.b))));
    // 1–2, 1–5, 2–3, 2–5, 3–4 (4–5: 5 meets everyone and 4 meets men).
    expect([...met].sort()).toEqual(["1:2", "1:5", "2:3", "2:5", "4:5", "3:4"].sort());
  });

  it("over 300 random rooms: no pair twice, only pairs who both want it and are not kept apart, every such pair meets when uncapped, and no round wasted", () => {
    const rng = random(40);
    const p = new Problems();
    let rounds = 0;
    let lowerBound = 0;
    for (let scenario = 0; scenario < 300; scenario++) {
      const ids = someIds(rng.int(0, 40), rng);
      const people = randomMix(ids, rng);
      const keepApart = randomPairs(ids, rng.int(0, 3), rng);
      const maxRounds = scenario % 3 === 0 ? rng.int(0, 25) : null;
      const night = planMixed({ people, keepApart, maxRounds });
      const label = `scenario ${scenario}: ${ids.length} people, cap ${maxRounds}`;
      const byId = new Map(people.map((x) => [x.id, x]));
      const apart = new Set(keepApart.map(([a, b]) => key(a, b)));
      const may = (a: number, b: number) => wantToMeet(byId.get(a)!, byId.get(b)!) && !apart.has(key(a, b));
      checkRounds(night, ids, 1, label, p);
      const met = checkPairs(night, may, label, p);
      let valid = 0;
      const degree = new Map<number, number>();
      for (const a of ids)
        for (const b of ids)
          if (a < b && may(a, b)) {
            valid++;
            degree.set(a, (degree.get(a) ?? 0) + 1).set(b, (degree.get(b) ?? 0) + 1);
          }
      const busiest = Math.max(0, ...degree.values());
      if (maxRounds === null) {
        p.check(met.size === valid, () => `${label}: ${met.size} of ${valid} valid pairs met`);
        // Each round seats a pair or one of the two in every pair still to meet, so no pair waits
        // longer than 2·Δ − 1 rounds.
        p.check(night.length <= Math.max(0, 2 * busiest - 1), () => `${label}: ${night.length} rounds, Δ ${busiest}`);
        p.check(night.length >= busiest, () => `${label}: ${night.length} rounds, Δ ${busiest}`);
        rounds += night.length;
        lowerBound += busiest;
      } else p.check(night.length === Math.min(maxRounds, night.length), () => `${label}: over the cap`);
      // No round leaves two out who could still meet.
      const soFar = new Set<string>();
      for (const round of night) {
        for (const x of round.pairs) soFar.add(key(x.a, x.b));
        for (const a of round.sitOut)
          for (const b of round.sitOut)
            p.check(!(a < b && may(a, b) && !soFar.has(key(a, b))), () => `${label}: ${a} and ${b} both out`);
      }
    }
    // The packing: within a few percent of the lower bound (the busiest person's partners) overall.
    expect(rounds).toBeLessThanOrEqual(Math.ceil(lowerBound * 1.1));
    expect(p.found).toEqual([]);
  });

  it("each round is a largest matching of the pairs still to meet, seating as many of the round before's sit-outs as any matching can (exhaustive, up to 10 people)", () => {
    const rng = random(41);
    const p = new Problems();
    let twiceRunning = 0;
    for (let scenario = 0; scenario < 200; scenario++) {
      const ids = someIds(rng.int(2, 10), rng);
      const people = randomMix(ids, rng);
      const night = planMixed({ people });
      const n = ids.length;
      const index = new Map(ids.map((id, i) => [id, i]));
      const edges = new Uint8Array(n * n);
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++) if (i !== j && wantToMeet(people[i]!, people[j]!)) edges[i * n + j] = 1;
      let satOut = 0;
      for (const round of night) {
        const label = `scenario ${scenario}, round ${round.round}`;
        const seated = round.pairs.reduce((m, x) => m | (1 << index.get(x.a)!) | (1 << index.get(x.b)!), 0);
        let most = 0;
        let mostBack = 0;
        eachMatching(n, edges, (covered, size) => {
          most = Math.max(most, size);
          mostBack = Math.max(mostBack, bitCount(covered & satOut));
        });
        p.check(round.pairs.length === most, () => `${label}: ${round.pairs.length} pairs, ${most} possible`);
        p.check(
          bitCount(seated & satOut) === mostBack,
          () => `${label}: ${bitCount(seated & satOut)} of last round's sit-outs seated, ${mostBack} possible`,
        );
        twiceRunning += bitCount(satOut & ~seated);
        for (const x of round.pairs) {
          const i = index.get(x.a)!;
          const j = index.get(x.b)!;
          edges[i * n + j] = edges[j * n + i] = 0;
        }
        satOut = round.sitOut.reduce((m, id) => m | (1 << index.get(id)!), 0);
      }
    }
    // Small rooms of mismatched wishes often leave someone nobody else can meet that round.
    expect(twiceRunning).toBeGreaterThan(0);
    expect(p.found).toEqual([]);
  });

  it("packs 60 guests with a realistic mix in the fewest rounds the busiest guest needs, or one more", () => {
    const rng = random(42);
    for (let scenario = 0; scenario < 3; scenario++) {
      const ids = someIds(60, rng);
      const people = randomMix(ids, rng);
      const night = planMixed({ people });
      const degree = ids.map((_, i) => people.filter((y, j) => j !== i && wantToMeet(people[i]!, y)).length);
      expect(night.length).toBeLessThanOrEqual(Math.max(...degree) + 1);
    }
  });
});

type Format = "one group" | "mixed";

/** A plan or re-plan in either format, for the tests that run both. */
function planner(format: Format, mix: ReadonlyMap<number, MixedPerson>) {
  const mixed = (ids: readonly number[]) => ids.map((id) => mix.get(id)!);
  return {
    may: (a: number, b: number) => format === "one group" || wantToMeet(mix.get(a)!, mix.get(b)!),
    plan: (people: readonly number[], rest: { keepApart?: PersonPair[]; maxRounds?: number | null }) =>
      format === "one group" ? planOneGroup({ people, ...rest }) : planMixed({ people: mixed(people), ...rest }),
    replan: (
      people: readonly number[],
      rest: {
        keepApart?: PersonPair[];
        maxRounds?: number | null;
        played: readonly GroupRound[];
        planned?: readonly GroupRound[];
      },
    ) =>
      format === "one group" ? replanOneGroup({ people, ...rest }) : replanMixed({ people: mixed(people), ...rest }),
  };
}

describe("re-planning when people arrive and leave, in both formats", () => {
  for (const format of ["one group", "mixed"] as const) {
    it(`${format}: keeps its promises over 150 seeded nights of arrivals, departures and returns between rounds`, () => {
      const rng = random(format === "mixed" ? 43 : 44);
      const p = new Problems();
      for (let scenario = 0; scenario < 150; scenario++) {
        const pool = someIds(rng.int(2, 30), rng);
        const mix = new Map(randomMix(pool, rng).map((x) => [x.id, x]));
        const { may, plan, replan } = planner(format, mix);
        const keepApart = randomPairs(pool, rng.int(0, 2), rng);
        const apart = new Set(keepApart.map(([a, b]) => key(a, b)));
        const maxRounds = rng.next() < 0.3 ? rng.int(1, 30) : null;
        let present = pool.filter(() => rng.next() < 0.8);
        let night = plan(present, { keepApart, maxRounds });
        for (let step = 0; step < 4 && night.length > 0; step++) {
          const started = rng.int(1, night.length);
          const played = night.slice(0, started);
          // Some leave, some arrive (a few come back after leaving).
          present = pool.filter((id) => (present.includes(id) ? rng.next() < 0.9 : rng.next() < 0.3));
          const label = `scenario ${scenario} step ${step}: ${present.length} present after ${started} rounds, cap ${maxRounds}`;
          const again = replan(present, { keepApart, maxRounds, played, planned: night.slice(started) });
          p.check(
            played.every((r, k) => again[k] === r),
            () => `${label}: the started rounds changed`,
          );
          const rest = again.slice(started);
          checkRounds(rest, present, started + 1, label, p, Math.floor(pool.length / 2));
          const metTonight = checkPairs(played, () => true, label, p);
          const met = checkPairs(rest, (a, b) => may(a, b) && !apart.has(key(a, b)), label, p, metTonight);
          if (maxRounds === null) {
            for (const a of present)
              for (const b of present)
                p.check(
                  !(a < b && may(a, b) && !apart.has(key(a, b)) && !met.has(key(a, b))),
                  () => `${label}: ${a} and ${b} never meet`,
                );
          } else p.check(again.length <= Math.max(maxRounds, started), () => `${label}: ${again.length} rounds`);
          night = again;
        }
      }
      expect(p.found).toEqual([]);
    });

    it(`${format}: with nobody arriving or leaving, gives back the plan it was given`, () => {
      const rng = random(format === "mixed" ? 45 : 46);
      const p = new Problems();
      for (let scenario = 0; scenario < 80; scenario++) {
        const people = someIds(rng.int(2, 30), rng);
        const { plan, replan } = planner(format, new Map(randomMix(people, rng).map((x) => [x.id, x])));
        const maxRounds = rng.next() < 0.3 ? rng.int(1, 30) : null;
        const keepApart = randomPairs(people, rng.int(0, 2), rng);
        const night = plan(people, { maxRounds, keepApart });
        if (night.length === 0) continue;
        const started = rng.int(1, night.length);
        const again = replan(people, {
          maxRounds,
          keepApart,
          played: night.slice(0, started),
          planned: night.slice(started),
        });
        p.check(JSON.stringify(again) === JSON.stringify(night), () => `scenario ${scenario} after ${started} rounds`);
      }
      expect(p.found).toEqual([]);
    });
  }

  it("before any round has started, is simply a fresh plan", () => {
    const people = [4, 8, 15, 16, 23];
    expect(replanOneGroup({ people, played: [] })).toEqual(planOneGroup({ people }));
    const mixed = randomMix(people, random(47));
    expect(replanMixed({ people: mixed, played: [] })).toEqual(planMixed({ people: mixed }));
  });

  it("when one person leaves an even One group night, keeps everyone else's planned pairs and tables", () => {
    const rng = random(48);
    const p = new Problems();
    for (let scenario = 0; scenario < 60; scenario++) {
      const people = someIds(2 * rng.int(2, 15), rng);
      const night = planOneGroup({ people });
      const started = rng.int(1, night.length - 1);
      const leaver = people[rng.int(0, people.length - 1)]!;
      const present = people.filter((id) => id !== leaver);
      const again = replanOneGroup({ people: present, played: night.slice(0, started), planned: night.slice(started) });
      const label = `scenario ${scenario}: ${people.length} people, ${leaver} leaves after ${started}`;
      p.check(again.length === night.length, () => `${label}: ${again.length} rounds, was ${night.length}`);
      for (let r = started; r < night.length; r++) {
        const kept = night[r]!.pairs.filter((x) => x.a !== leaver && x.b !== leaver);
        p.check(
          JSON.stringify(kept) === JSON.stringify(again[r]?.pairs),
          () => `${label}, round ${r + 1}: ${JSON.stringify(again[r]?.pairs)}`,
        );
      }
    }
    expect(p.found).toEqual([]);
  });

  it("never seats again a pair who met before the re-plan, even someone who left and came back", () => {
    const people = [1, 2, 3, 4, 5, 6];
    const night = planOneGroup({ people });
    const played = night.slice(0, 2);
    const without = replanOneGroup({ people: [1, 2, 3, 4, 5], played, planned: night.slice(2) });
    const back = replanOneGroup({ people, played: without.slice(0, 3), planned: without.slice(3) });
    const met = new Set<string>();
    for (const r of back)
      for (const x of r.pairs) {
        expect(met.has(key(x.a, x.b))).toBe(false);
        met.add(key(x.a, x.b));
      }
    expect(met.size).toBe(15);
  });
});
