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

type Sides = {
  seated: readonly number[];
  moving: readonly number[];
  pair: (sitter: number, mover: number, table: number) => TablePair;
};

function sides({ female, male, seated = "female" }: PlanInput): Sides {
  const seen = new Set<number>();
  for (const id of [...female, ...male]) {
    if (!Number.isSafeInteger(id)) throw new RangeError(`not a person's id: ${id}`);
    if (seen.has(id)) throw new RangeError(`person ${id} is listed twice`);
    seen.add(id);
  }
  return seated === "female"
    ? { seated: female, moving: male, pair: (f, m, table) => ({ table, femaleID: f, maleID: m }) }
    : { seated: male, moving: female, pair: (m, f, table) => ({ table, femaleID: f, maleID: m }) };
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
