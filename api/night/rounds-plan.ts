import { bestAssignment } from "./best-assignment.ts";

// The night's rounds, as a pure function of who is there: no database, no clock. The rotation, how
// sit-outs are spread and how a re-plan decides are in docs/decisions/018-rounds.md.

/** Which side keeps its table all night; the other side moves. */
export type Seated = "female" | "male";
export type TablePair = { table: number; femaleID: number; maleID: number };
/** `sitOut` lists the people present that round who have no partner in it. */
export type Round = { round: number; pairs: TablePair[]; sitOut: number[] };

export type PlanInput = {
  female: readonly number[];
  male: readonly number[];
  seated?: Seated;
  /** At most this many rounds in the night; null or absent for no cap. */
  maxRounds?: number | null;
};

export type ReplanInput = PlanInput & {
  /** The rounds already started, numbered from 1: returned unchanged, first. */
  played: readonly Round[];
  /** The current plan's rounds not yet started, when there is one: kept wherever they still fit. */
  planned?: readonly Round[];
};

/** The two sides of the room, and how a pair's woman and man map to sitter and mover. */
type Sides = {
  seated: readonly number[];
  moving: readonly number[];
  pair: (sitter: number, mover: number, table: number) => TablePair;
  sitterOf: (p: TablePair) => number;
  moverOf: (p: TablePair) => number;
};

function sides({ female, male, seated = "female" }: PlanInput): Sides {
  const seen = new Set<number>();
  for (const id of [...female, ...male]) {
    if (!Number.isSafeInteger(id)) throw new RangeError(`not a person's id: ${id}`);
    if (seen.has(id)) throw new RangeError(`person ${id} is listed twice`);
    seen.add(id);
  }
  return seated === "female"
    ? {
        seated: female,
        moving: male,
        pair: (f, m, table) => ({ table, femaleID: f, maleID: m }),
        sitterOf: (p) => p.femaleID,
        moverOf: (p) => p.maleID,
      }
    : {
        seated: male,
        moving: female,
        pair: (m, f, table) => ({ table, femaleID: f, maleID: m }),
        sitterOf: (p) => p.maleID,
        moverOf: (p) => p.femaleID,
      };
}

function roundCap(maxRounds: number | null | undefined): number {
  if (maxRounds === null || maxRounds === undefined) return Number.POSITIVE_INFINITY;
  if (!Number.isSafeInteger(maxRounds) || maxRounds < 0) throw new RangeError(`maxRounds must be a whole number ≥ 0`);
  return maxRounds;
}

/** Pairs in table order; everyone present and unpaired sits out, women first, each side in its given order. */
function finishRound(round: number, pairs: TablePair[], { female, male }: PlanInput): Round {
  pairs.sort((a, b) => a.table - b.table);
  const paired = new Set<number>();
  for (const p of pairs) paired.add(p.femaleID).add(p.maleID);
  return { round, pairs, sitOut: [...female, ...male].filter((id) => !paired.has(id)) };
}

/**
 * Which of `n` places around the circle are gaps (`k` of them), spread as evenly as whole places allow:
 * gap i at n − 1 − ⌊i·n/k⌋. Two gaps are never next to each other (the last and first included) when
 * k ≤ n/2, and any run of w places holds ⌊w·k/n⌋ or ⌈w·k/n⌉ gaps, so nobody waits in bunches.
 */
export function spreadGaps(n: number, k: number): boolean[] {
  const gap = new Array<boolean>(n).fill(false);
  for (let i = 0; i < k; i++) gap[n - 1 - Math.floor((i * n) / k)] = true;
  return gap;
}

/**
 * The rotation for a night nobody joins or leaves. The seated side keeps tables 1…T in the order
 * given (T = the number seated); the movers go round a circle of max(F, M) places, one place a
 * round, so a playing mover's next table is always the next number, from T back to 1.
 * - More movers than tables: the circle has T tables and, between them, evenly spread places with no
 *   table where a mover sits a round out.
 * - More seated than movers: the circle is the T tables, and evenly spread empty places travel round
 *   it with the movers; the person at the table an empty place reaches sits that round out.
 * Either way every present woman meets every present man once in max(F, M) rounds, and the larger
 * side sits out |F − M| rounds each.
 */
export function planRounds(input: PlanInput): Round[] {
  const { seated, moving, pair } = sides(input);
  const cap = roundCap(input.maxRounds);
  if (seated.length === 0 || moving.length === 0) return [];
  const places = Math.max(seated.length, moving.length);
  const gaps = spreadGaps(places, places - Math.min(seated.length, moving.length));
  const count = Math.min(places, cap);
  const rounds: Round[] = [];

  if (seated.length >= moving.length) {
    // Place i around the circle is table i + 1; the movers fill the places that are not gaps.
    const moverAt: (number | undefined)[] = [];
    let next = 0;
    for (const gap of gaps) moverAt.push(gap ? undefined : moving[next++]);
    for (let r = 0; r < count; r++) {
      const pairs: TablePair[] = [];
      seated.forEach((sitter, i) => {
        const mover = moverAt[(i - r + places) % places];
        if (mover !== undefined) pairs.push(pair(sitter, mover, i + 1));
      });
      rounds.push(finishRound(r + 1, pairs, input));
    }
  } else {
    // Places that are not gaps hold the tables, numbered in order round the circle; mover j starts at place j.
    const tableAt: (number | undefined)[] = [];
    let next = 0;
    for (const gap of gaps) tableAt.push(gap ? undefined : next++);
    for (let r = 0; r < count; r++) {
      const pairs: TablePair[] = [];
      moving.forEach((mover, j) => {
        const t = tableAt[(j + r) % places];
        if (t !== undefined) pairs.push(pair(seated[t]!, mover, t + 1));
      });
      rounds.push(finishRound(r + 1, pairs, input));
    }
  }
  return rounds;
}

/**
 * Rebuilds the rounds not yet started from the people present now; the started ones come back
 * unchanged, first. Each new round is the best matching over the pairs present who have not met:
 * the most pairs, with everyone who has the most partners left to meet among them (so the night
 * needs no more rounds than the busiest person's unmet count), then the planned pair wherever it
 * still fits, then whoever sat out the round before, then each mover at the next table from the
 * last one they played at. Before any round has started it is simply a fresh rotation.
 */
export function replanRounds(input: ReplanInput): Round[] {
  const { played, planned = [] } = input;
  const { seated, moving, pair, sitterOf, moverOf } = sides(input);
  const cap = roundCap(input.maxRounds);
  if (played.length === 0) return planRounds(input);

  const S = seated.length;
  const V = moving.length;
  const seatIndex = new Map(seated.map((id, i) => [id, i]));
  const moveIndex = new Map(moving.map((id, j) => [id, j]));
  const cell = (p: TablePair) => {
    const i = seatIndex.get(sitterOf(p));
    const j = moveIndex.get(moverOf(p));
    return i === undefined || j === undefined ? undefined : i * V + j;
  };

  const met = new Uint8Array(S * V);
  const lastTable: (number | undefined)[] = new Array(V).fill(undefined);
  for (const round of played)
    for (const p of round.pairs) {
      const c = cell(p);
      if (c !== undefined) met[c] = 1;
      const j = moveIndex.get(moverOf(p));
      if (j !== undefined) lastTable[j] = p.table;
    }
  let playedLast = new Set(played.at(-1)!.pairs.flatMap((p) => [p.femaleID, p.maleID]));
  const keep = new Map<number, Set<number>>();
  for (const round of planned) {
    const cells = new Set<number>();
    for (const p of round.pairs) {
      const c = cell(p);
      if (c !== undefined) cells.add(c);
    }
    keep.set(round.round, cells);
  }

  const table = seatTables(seated, sitterOf, played, planned);
  const tables = [...table].sort((a, b) => a - b);
  const L = tables.length;
  const tablePlace = table.map((t) => tables.indexOf(t));
  const n = Math.min(S, V);
  // Each preference outweighs everything below it summed over a whole round, so the best total
  // honours them in order; the sums must stay exact in floating point.
  const wRest = n * L + 1;
  const wKeep = wRest * (2 * n + 1);
  const wDegree = wKeep * (n + 1);
  if (n * (wDegree * 2 * Math.max(S, V) + wKeep + 2 * wRest + L) > Number.MAX_SAFE_INTEGER / 4)
    throw new RangeError("too many people to plan one night's rounds");

  const rounds = [...played];
  for (let r = played.length + 1; r <= cap; r++) {
    const degSeated = new Array<number>(S).fill(0);
    const degMoving = new Array<number>(V).fill(0);
    for (let i = 0; i < S; i++)
      for (let j = 0; j < V; j++)
        if (!met[i * V + j]) {
          degSeated[i]!++;
          degMoving[j]!++;
        }
    if (Math.max(0, ...degSeated, ...degMoving) === 0) break;

    const kept = keep.get(r);
    // Where mover j would go next: the first table round the circle after the last one they played at.
    const nextPlace = lastTable.map((t) => (t === undefined ? undefined : tables.filter((x) => x <= t).length));
    const restSeated = seated.map((id) => (playedLast.has(id) ? 0 : 1));
    const restMoving = moving.map((id) => (playedLast.has(id) ? 0 : 1));
    const weight = (i: number, j: number) => {
      const c = i * V + j;
      if (met[c]) return 0;
      const from = nextPlace[j];
      const follow = from === undefined ? 0 : L - 1 - ((((tablePlace[i]! - from) % L) + L) % L);
      return (
        wDegree * (degSeated[i]! + degMoving[j]!) +
        (kept?.has(c) ? wKeep : 0) +
        wRest * (restSeated[i]! + restMoving[j]!) +
        follow
      );
    };

    const pairs: TablePair[] = [];
    if (S <= V) {
      bestAssignment(S, V, weight).forEach((j, i) => {
        if (j >= 0) pairs.push(pair(seated[i]!, moving[j]!, table[i]!));
      });
    } else {
      bestAssignment(V, S, (j, i) => weight(i, j)).forEach((i, j) => {
        if (i >= 0) pairs.push(pair(seated[i]!, moving[j]!, table[i]!));
      });
    }
    for (const p of pairs) {
      met[cell(p)!] = 1;
      lastTable[moveIndex.get(moverOf(p))!] = p.table;
    }
    playedLast = new Set(pairs.flatMap((p) => [p.femaleID, p.maleID]));
    rounds.push(finishRound(r, pairs, input));
  }
  return rounds;
}

/**
 * The table of each seated person present: the one they last played at, else the one the plan gave
 * them; when two claim one table the more recent claim keeps it. Anyone left, in the order given,
 * takes the lowest number nobody present holds, so a newcomer fills a table someone left.
 */
function seatTables(
  seated: readonly number[],
  sitterOf: (p: TablePair) => number,
  played: readonly Round[],
  planned: readonly Round[],
): number[] {
  const claim = new Map<number, { table: number; rank: number }>();
  played.forEach((round, r) => {
    for (const p of round.pairs) claim.set(sitterOf(p), { table: p.table, rank: r });
  });
  planned.forEach((round, r) => {
    for (const p of round.pairs) if (!claim.has(sitterOf(p))) claim.set(sitterOf(p), { table: p.table, rank: -1 - r });
  });
  const table = new Array<number>(seated.length).fill(0);
  const held = new Set<number>();
  const claimants = seated
    .map((id, i) => ({ i, claim: claim.get(id) }))
    .filter((c) => c.claim !== undefined)
    .sort((a, b) => b.claim!.rank - a.claim!.rank);
  for (const { i, claim } of claimants)
    if (!held.has(claim!.table)) {
      table[i] = claim!.table;
      held.add(claim!.table);
    }
  let free = 1;
  for (let i = 0; i < seated.length; i++) {
    if (table[i] !== 0) continue;
    while (held.has(free)) free++;
    table[i] = free;
    held.add(free);
  }
  return table;
}
