import type { PersonPair } from "./rounds-plan.ts";

// The rounds of a One group or a Mixed night, as pure functions of who is there: no database, no
// clock. The rules, and why, are in docs/decisions/035-planners-for-every-format.md; Women meet men
// keeps its own planner (api/night/planning/rounds-plan.ts, docs/decisions/018-rounds.md).
// Why one file: it is one planner, its first plan and its re-plan built from the same steps (the
// rotation, the cap, keep apart and earlier nights), proven together by group-plan.test.ts.

/** Two people at one table; `a` is the lower id. Within a table the two seats are alike. */
export type GroupPair = { table: number; a: number; b: number };
/** `sitOut` lists the people present that round who have no partner in it, in the order given. */
export type GroupRound = { round: number; pairs: GroupPair[]; sitOut: number[] };

export type Gender = "female" | "male" | "nonbinary";
export type Meets = "female" | "male" | "everyone";
export type MixedPerson = { id: number; gender: Gender; meets: Meets };

type Constraints = {
  /** At most this many rounds in the night; null or absent for no cap. */
  maxRounds?: number | null;
  /** Pairs never seated together. */
  keepApart?: readonly PersonPair[];
  /** Pairs who met at an earlier night: with a cap, seated only where a round would otherwise seat fewer. */
  metBefore?: readonly PersonPair[];
};
export type OneGroupInput = Constraints & { people: readonly number[] };
export type MixedInput = Constraints & { people: readonly MixedPerson[] };
export type GroupReplan = {
  /** The rounds already started, numbered from 1: returned unchanged, first. */
  played: readonly GroupRound[];
  /** The current plan's rounds not yet started, when there is one: kept wherever they still fit. */
  planned?: readonly GroupRound[];
};

/** Each would like to meet the other: whom one meets is everyone, or the other's gender. */
export function wantToMeet(x: MixedPerson, y: MixedPerson): boolean {
  return (x.meets === "everyone" || x.meets === y.gender) && (y.meets === "everyone" || y.meets === x.gender);
}

/**
 * Everyone may meet everyone: the circle method. With n people (n even) n − 1 rounds, every pair
 * once; with n odd a ghost makes it even, n rounds, and whoever faces the ghost sits that round out
 * (each person once, so never twice running). The first person keeps table 1 all night (with n odd
 * the ghost keeps the place and there is no table for it); everyone else moves one seat a round
 * round a loop of seats: along one side of the tables 1 → T, across table T, back along the other
 * side T → 1 and across to the start, so nobody walks further than the next table.
 *
 * `maxRounds` plays the first rounds of the circle. A pair kept apart is never seated: uncapped,
 * its two sit out the circle's round that would seat them; capped, or with pairs who met at an
 * earlier night, the rounds are made one at a time as a re-plan makes them (`makeRounds`).
 */
export function planOneGroup(input: OneGroupInput): GroupRound[] {
  const ids = checkIds(input.people);
  const cap = roundCap(input.maxRounds);
  const n = ids.length;
  const index = new Map(ids.map((id, i) => [id, i]));
  const apart = pairGrid(input.keepApart, index, n);
  const before = pairGrid(input.metBefore, index, n);
  const full = n % 2 === 0 ? n - 1 : n;
  const rounds = circle(ids, Math.min(cap, Math.max(0, full)));
  if (!apart && !before) return rounds;
  const among = (p: GroupPair, grid: Uint8Array | null) => grid?.[index.get(p.a)! * n + index.get(p.b)!] === 1;
  const seats = (grid: Uint8Array | null) => rounds.some((r) => r.pairs.some((p) => among(p, grid)));
  // Uncapped, everyone meets everyone they may: there is no other set of pairs to choose.
  if (cap >= full || !(seats(apart) || seats(before)))
    return apart
      ? rounds.map((r) =>
          finish(
            r.round,
            r.pairs.filter((p) => !among(p, apart)),
            ids,
          ),
        )
      : rounds;
  const allowed = new Uint8Array(n * n).fill(1);
  for (let i = 0; i < n; i++) allowed[i * n + i] = 0;
  if (apart) for (let c = 0; c < n * n; c++) if (apart[c]) allowed[c] = 0;
  return makeRounds({ ids, allowed, before, first: 1, last: cap, satOut: [], lastTable: new Map(), planned: [] });
}

/**
 * A pair is seated only when each would like to meet the other (`wantToMeet`) and they are not kept
 * apart. The valid pairs are packed into rounds one round at a time, each round a largest matching
 * of the pairs still to meet (`makeRounds`), so uncapped every valid pair meets exactly once.
 */
export function planMixed(input: MixedInput): GroupRound[] {
  const ids = checkIds(input.people.map((p) => p.id));
  const cap = roundCap(input.maxRounds);
  const n = ids.length;
  const index = new Map(ids.map((id, i) => [id, i]));
  const allowed = mixedGrid(input.people, pairGrid(input.keepApart, index, n));
  const before = Number.isFinite(cap) ? pairGrid(input.metBefore, index, n) : null;
  return makeRounds({ ids, allowed, before, first: 1, last: cap, satOut: [], lastTable: new Map(), planned: [] });
}

/**
 * Rebuilds a One group night's rounds not yet started from the people present now; see replan.
 * Before any round has started it is simply `planOneGroup`.
 */
export function replanOneGroup(input: OneGroupInput & GroupReplan): GroupRound[] {
  if (input.played.length === 0) return planOneGroup(input);
  const ids = checkIds(input.people);
  const n = ids.length;
  const allowed = new Uint8Array(n * n).fill(1);
  for (let i = 0; i < n; i++) allowed[i * n + i] = 0;
  return replan(ids, allowed, input);
}

/** The same for a Mixed night; before any round has started it is simply `planMixed`. */
export function replanMixed(input: MixedInput & GroupReplan): GroupRound[] {
  if (input.played.length === 0) return planMixed(input);
  const ids = checkIds(input.people.map((p) => p.id));
  return replan(ids, mixedGrid(input.people, null), input);
}

/**
 * The started rounds come back unchanged, first. When the planned rounds still fit the room
 * (`plannedStillFits`) they follow as they were; otherwise the rest of the night is made afresh
 * from the people present now (`makeRounds`), never seating a pair who met in a started round or
 * are kept apart, starting each round from its planned pairs that still fit, preferring whoever sat
 * out the last started round, and keeping each person at the table they last played at where free.
 */
function replan(ids: number[], valid: Uint8Array, input: Constraints & GroupReplan): GroupRound[] {
  const { played, planned = [] } = input;
  const cap = roundCap(input.maxRounds);
  const n = ids.length;
  const index = new Map(ids.map((id, i) => [id, i]));
  const allowed = valid;
  const apart = pairGrid(input.keepApart, index, n);
  if (apart) for (let c = 0; c < n * n; c++) if (apart[c]) allowed[c] = 0;
  for (const round of played)
    for (const p of round.pairs) {
      const i = index.get(p.a);
      const j = index.get(p.b);
      if (i !== undefined && j !== undefined) allowed[i * n + j] = allowed[j * n + i] = 0;
    }
  if (plannedStillFits(ids, index, allowed, played.length, cap, planned)) return [...played, ...planned];

  const last = played.at(-1)!;
  const lastTable = new Map<number, number>();
  for (const p of last.pairs) lastTable.set(p.a, p.table).set(p.b, p.table);
  const plannedPairs = planned.map((r) => ({
    round: r.round,
    pairs: r.pairs
      .map((p) => ({ i: index.get(p.a), j: index.get(p.b), table: p.table }))
      .filter((p): p is { i: number; j: number; table: number } => p.i !== undefined && p.j !== undefined),
  }));
  const rest = makeRounds({
    ids,
    allowed,
    before: Number.isFinite(cap) ? pairGrid(input.metBefore, index, n) : null,
    first: played.length + 1,
    last: cap,
    satOut: last.sitOut,
    lastTable,
    planned: plannedPairs,
  });
  return [...played, ...rest];
}

/**
 * Whether the planned rounds can simply go on, as a re-plan with nobody arriving or leaving should
 * leave them: numbered on from the started ones, each seating someone and listing exactly the people
 * present, no pair seated twice, met in a started round, kept apart or not wanting to meet, within
 * the cap, and either every pair still to meet meeting or the cap reached.
 */
function plannedStillFits(
  ids: readonly number[],
  index: ReadonlyMap<number, number>,
  allowed: Uint8Array,
  played: number,
  cap: number,
  planned: readonly GroupRound[],
): boolean {
  if (planned.length === 0 || played + planned.length > cap) return false;
  const n = ids.length;
  const met = allowed.slice();
  for (const [k, round] of planned.entries()) {
    if (round.round !== played + k + 1 || round.pairs.length === 0) return false;
    const listed = [...round.pairs.flatMap((p) => [p.a, p.b]), ...round.sitOut];
    if (listed.length !== n || new Set(listed).size !== n || !listed.every((id) => index.has(id))) return false;
    for (const p of round.pairs) {
      const c = index.get(p.a)! * n + index.get(p.b)!;
      if (!met[c]) return false;
      met[c] = 0;
      met[index.get(p.b)! * n + index.get(p.a)!] = 0;
    }
  }
  return played + planned.length === cap || met.every((x) => !x);
}

type RoundsToMake = {
  ids: readonly number[];
  /** n × n, 1 where the two may meet in the rounds being made; written to as they are made. */
  allowed: Uint8Array;
  /** n × n, 1 where the two met at an earlier night: seated only where a round needs them. */
  before: Uint8Array | null;
  first: number;
  /** The number of the last round the night may have. */
  last: number;
  /** Who sat out the round before `first`. */
  satOut: readonly number[];
  /** The table each person played at in the round before `first`. */
  lastTable: ReadonlyMap<number, number>;
  planned: readonly { round: number; pairs: readonly { i: number; j: number; table: number }[] }[];
};

/**
 * Rounds one at a time until every allowed pair has met or the cap is reached. Each round is a
 * largest matching of the allowed pairs (`priorityMatching`): among all largest matchings, the one
 * that seats the people first in this order, each above everyone after it:
 * 1. whoever sat out the round before (so nobody sits out twice running where a largest matching
 *    avoids it);
 * 2. whoever has the most partners left to meet (each round then lowers the busiest count, so the
 *    night is as short as the rounds can make it, most of the time);
 * 3. whoever has a planned pair this round that still fits (so a re-plan moves nobody it need not);
 * 4. more partners left before fewer, then the order given.
 * With `before`, the round is first matched without those pairs, and then only as many are added
 * as make it larger. A round starts from its planned pairs that still fit.
 */
function makeRounds(input: RoundsToMake): GroupRound[] {
  const { ids, allowed, before, first, last } = input;
  const n = ids.length;
  const indexOf = new Map(ids.map((id, i) => [id, i]));
  let satOut = new Uint8Array(n);
  for (const id of input.satOut) {
    const i = indexOf.get(id);
    if (i !== undefined) satOut[i] = 1;
  }
  const lastTable = new Int32Array(n);
  for (const [id, t] of input.lastTable) {
    const i = indexOf.get(id);
    if (i !== undefined) lastTable[i] = t;
  }
  const plannedFor = new Map(input.planned.map((r) => [r.round, r.pairs]));
  const degree = new Int32Array(n);
  for (let c = 0; c < n * n; c++) if (allowed[c]) degree[Math.floor(c / n)]!++;

  const rounds: GroupRound[] = [];
  for (let r = first; r <= last; r++) {
    let busiest = 0;
    for (let i = 0; i < n; i++) busiest = Math.max(busiest, degree[i]!);
    if (busiest === 0) break;
    const fresh = before ? allowed.map((x, c) => (x && !before[c] ? 1 : 0)) : allowed;
    const seeds = new Int32Array(n).fill(-1);
    const plannedTable = new Map<number, number>();
    for (const { i, j, table } of plannedFor.get(r) ?? [])
      if (fresh[i * n + j] && seeds[i] === -1 && seeds[j] === -1) {
        seeds[i] = j;
        seeds[j] = i;
        plannedTable.set(Math.min(i, j) * n + Math.max(i, j), table);
      }
    const order = Array.from({ length: n }, (_, i) => i).sort(
      (x, y) =>
        satOut[y]! - satOut[x]! ||
        Number(degree[y] === busiest) - Number(degree[x] === busiest) ||
        Number(seeds[y] !== -1) - Number(seeds[x] !== -1) ||
        degree[y]! - degree[x]! ||
        x - y,
    );
    const rank = new Int32Array(n);
    order.forEach((i, k) => {
      rank[i] = k;
    });
    let mate = priorityMatching(n, fresh, rank, seeds, true);
    if (before) mate = priorityMatching(n, allowed, rank, mate, false);

    const pairs: { i: number; j: number }[] = [];
    for (let i = 0; i < n; i++) if (mate[i]! > i) pairs.push({ i, j: mate[i]! });
    // Tables: a planned pair keeps its planned table, else someone keeps the table they last played
    // at, else the lowest free number. So a table stays numbered as it was when someone leaves, and
    // the numbers never pass the largest room of the night's ⌊people / 2⌋.
    const table = new Int32Array(pairs.length);
    const taken = new Set<number>();
    const claim = (k: number, t: number | undefined) => {
      if (t === undefined || t < 1 || taken.has(t) || table[k]) return;
      table[k] = t;
      taken.add(t);
    };
    for (const [k, { i, j }] of pairs.entries()) claim(k, plannedTable.get(i * n + j));
    for (const [k, { i, j }] of pairs.entries()) claim(k, lastTable[i] || lastTable[j] || undefined);
    for (const [k, { j }] of pairs.entries()) claim(k, lastTable[j] || undefined);
    let free = 1;
    pairs.forEach((_, k) => {
      while (taken.has(free)) free++;
      claim(k, free);
    });

    satOut = new Uint8Array(n).fill(1);
    const groupPairs: GroupPair[] = pairs.map(({ i, j }, k) => {
      allowed[i * n + j] = allowed[j * n + i] = 0;
      degree[i]!--;
      degree[j]!--;
      satOut[i] = satOut[j] = 0;
      lastTable[i] = lastTable[j] = table[k]!;
      return ordered(ids[i]!, ids[j]!, table[k]!);
    });
    rounds.push(finish(r, groupPairs, ids));
  }
  return rounds;
}

/**
 * A largest matching of the graph `edges` (n × n, 1 for an edge) that, among all largest matchings,
 * seats the people best by `rank` (0 first): lexicographically, it seats the first-ranked person if
 * any largest matching can, then the next-ranked as well if any can with them, and so on. (The sets
 * of people a matching can seat form a matroid, so taking them greedily in rank order is exact.)
 *
 * Starts from `start` (mate or -1 for each; its pairs must be edges); with `greedy`, free people are
 * first paired greedily in rank order. Then each person still free, in rank order, is searched from
 * (Edmonds' blossoms): an augmenting path seats them and their far end; failing that, an even
 * alternating path to a lower-ranked seated person swaps them in. About O(n³) a call for n ≤ a few
 * hundred.
 */
export function priorityMatching(
  n: number,
  edges: Uint8Array,
  rank: Int32Array,
  start: Int32Array,
  greedy: boolean,
): Int32Array {
  const mate = Int32Array.from(start);
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => rank[x]! - rank[y]!);
  const adjacent: number[][] = order.map(() => []);
  for (const i of order) for (const j of order) if (edges[i * n + j]) adjacent[i]!.push(j);
  if (greedy)
    for (const i of order) {
      if (mate[i] !== -1) continue;
      const j = adjacent[i]!.find((j) => mate[j] === -1);
      if (j !== undefined) {
        mate[i] = j;
        mate[j] = i;
      }
    }

  const parent = new Int32Array(n);
  const base = new Int32Array(n);
  const outer = new Uint8Array(n);
  const inBlossom = new Uint8Array(n);
  const onPath = new Uint8Array(n);
  const queue = new Int32Array(n);

  const commonBase = (x: number, y: number) => {
    onPath.fill(0);
    for (;;) {
      x = base[x]!;
      onPath[x] = 1;
      if (mate[x] === -1) break;
      x = parent[mate[x]!]!;
    }
    for (;;) {
      y = base[y]!;
      if (onPath[y]) return y;
      y = parent[mate[y]!]!;
    }
  };
  const markPath = (v: number, b: number, child: number) => {
    while (base[v] !== b) {
      inBlossom[base[v]!] = inBlossom[base[mate[v]!]!] = 1;
      parent[v] = child;
      child = mate[v]!;
      v = parent[mate[v]!]!;
    }
  };
  /** Grows the alternating tree from `root`: a free person it reaches, or -1 with `outer` marking the tree's even people. */
  const search = (root: number): number => {
    parent.fill(-1);
    outer.fill(0);
    for (let i = 0; i < n; i++) base[i] = i;
    outer[root] = 1;
    let head = 0;
    let tail = 0;
    queue[tail++] = root;
    while (head < tail) {
      const v = queue[head++]!;
      for (const to of adjacent[v]!) {
        if (base[v] === base[to] || mate[v] === to) continue;
        if (to === root || (mate[to] !== -1 && parent[mate[to]!] !== -1)) {
          const b = commonBase(v, to);
          inBlossom.fill(0);
          markPath(v, b, to);
          markPath(to, b, v);
          for (let i = 0; i < n; i++)
            if (inBlossom[base[i]!]) {
              base[i] = b;
              if (!outer[i]) {
                outer[i] = 1;
                queue[tail++] = i;
              }
            }
        } else if (parent[to] === -1) {
          parent[to] = v;
          if (mate[to] === -1) return to;
          outer[mate[to]!] = 1;
          queue[tail++] = mate[to]!;
        }
      }
    }
    return -1;
  };
  /** Flips the tree path ending at `v`, an odd person to be paired with their parent. */
  const flip = (v: number) => {
    while (v !== -1) {
      const pv = parent[v]!;
      const next = mate[pv]!;
      mate[v] = pv;
      mate[pv] = v;
      v = next;
    }
  };

  for (const root of order) {
    if (mate[root] !== -1 || adjacent[root]!.length === 0) continue;
    const end = search(root);
    if (end !== -1) {
      flip(end);
      continue;
    }
    // No larger matching seats `root`; one as large does if the tree reaches a seated person ranked
    // below them: the even path from the root to that person, flipped, frees them instead.
    let worst = -1;
    for (let i = 0; i < n; i++) if (outer[i] && i !== root && (worst === -1 || rank[i]! > rank[worst]!)) worst = i;
    if (worst === -1 || rank[worst]! < rank[root]!) continue;
    const next = mate[worst]!;
    mate[worst] = -1;
    flip(next);
  }
  return mate;
}

function circle(ids: readonly number[], count: number): GroupRound[] {
  const n = ids.length;
  if (n < 2) return [];
  const odd = n % 2 === 1;
  // Seat 0 is held all night (by the first person, or the ghost); seats 1…L are a loop the others
  // go round, one seat a round. Seat i faces seat S − 1 − i at table i + 1 (table i with a ghost).
  const seats = odd ? n + 1 : n;
  const movers = odd ? ids : ids.slice(1);
  const loop = seats - 1;
  const rounds: GroupRound[] = [];
  for (let r = 0; r < count; r++) {
    const at = (k: number) => (k === 0 ? (odd ? undefined : ids[0]) : movers[(((k - 1 - r) % loop) + loop) % loop]);
    const pairs: GroupPair[] = [];
    for (let i = 0; i < seats / 2; i++) {
      const x = at(i);
      const y = at(seats - 1 - i)!;
      if (x !== undefined) pairs.push(ordered(x, y, odd ? i : i + 1));
    }
    rounds.push(finish(r + 1, pairs, ids));
  }
  return rounds;
}

function mixedGrid(people: readonly MixedPerson[], apart: Uint8Array | null): Uint8Array {
  const n = people.length;
  const grid = new Uint8Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++)
      if (i !== j && wantToMeet(people[i]!, people[j]!) && !apart?.[i * n + j]) grid[i * n + j] = 1;
  return grid;
}

/** The pairs among the people present as an n × n grid, both ways round; null when none is present. */
function pairGrid(
  pairs: readonly PersonPair[] | undefined,
  index: ReadonlyMap<number, number>,
  n: number,
): Uint8Array | null {
  let grid: Uint8Array | null = null;
  for (const [a, b] of pairs ?? []) {
    const i = index.get(a);
    const j = index.get(b);
    if (i === undefined || j === undefined || i === j) continue;
    grid ??= new Uint8Array(n * n);
    grid[i * n + j] = grid[j * n + i] = 1;
  }
  return grid;
}

function checkIds(people: readonly number[]): number[] {
  const seen = new Set<number>();
  for (const id of people) {
    if (!Number.isSafeInteger(id)) throw new RangeError(`not a person's id: ${id}`);
    if (seen.has(id)) throw new RangeError(`person ${id} is listed twice`);
    seen.add(id);
  }
  return [...people];
}

function roundCap(maxRounds: number | null | undefined): number {
  if (maxRounds === null || maxRounds === undefined) return Number.POSITIVE_INFINITY;
  if (!Number.isSafeInteger(maxRounds) || maxRounds < 0) throw new RangeError(`maxRounds must be a whole number ≥ 0`);
  return maxRounds;
}

const ordered = (x: number, y: number, table: number): GroupPair =>
  x < y ? { table, a: x, b: y } : { table, a: y, b: x };

/** Pairs in table order; everyone present and unpaired sits out, in the order given. */
function finish(round: number, pairs: GroupPair[], ids: readonly number[]): GroupRound {
  pairs.sort((x, y) => x.table - y.table);
  const paired = new Set(pairs.flatMap((p) => [p.a, p.b]));
  return { round, pairs, sitOut: ids.filter((id) => !paired.has(id)) };
}
