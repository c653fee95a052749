// STAND-IN, to be replaced at merge by the real planner written in parallel (same path, same
// signatures). It is a plain round-robin with sit-outs: no pair meets twice and played rounds never
// change, which is all the routes rely on. It does NOT keep the table-following rule (a mover's next
// table is the next number) nor spread the sit-outs; docs/decisions/019-running-the-night.md says
// what the real one does.

export type Pair = { table: number; femaleID: number; maleID: number };
export type Round = { round: number; pairs: Pair[]; sitOut: number[] };
export type Seated = "female" | "male";

export type PlanInput = { female: number[]; male: number[]; seated: Seated; maxRounds: number | null };
export type ReplanInput = PlanInput & { played: Round[] };

const pairOf = (seated: Seated, sitter: number, mover: number, table: number): Pair =>
  seated === "female" ? { table, femaleID: sitter, maleID: mover } : { table, femaleID: mover, maleID: sitter };

/** Round r seats sitter i with mover (i + r) mod n, both sides padded to n; a padding slot is a sit-out. */
export function planRounds(input: PlanInput): Round[] {
  const [sitters, movers] = input.seated === "female" ? [input.female, input.male] : [input.male, input.female];
  const n = Math.max(sitters.length, movers.length);
  const count = input.maxRounds === null ? n : Math.min(n, input.maxRounds);
  const rounds: Round[] = [];
  for (let r = 0; r < count; r++) {
    const pairs: Pair[] = [];
    const sitOut: number[] = [];
    for (let i = 0; i < n; i++) {
      const sitter = sitters[i];
      const mover = movers[(i + r) % n];
      if (sitter !== undefined && mover !== undefined) pairs.push(pairOf(input.seated, sitter, mover, i + 1));
      else if (sitter !== undefined) sitOut.push(sitter);
      else if (mover !== undefined) sitOut.push(mover);
    }
    rounds.push({ round: r + 1, pairs, sitOut });
  }
  return rounds;
}

/**
 * The played rounds as they were, then rounds of greedy matchings among the present pairs that have
 * not met, until every such pair has met or `maxRounds` (counting the played rounds) is reached.
 * A greedy matching cannot be extended, so no unmatched woman and man who have not met sit out together.
 */
export function replanRounds(input: ReplanInput): Round[] {
  const met = new Set<string>();
  for (const round of input.played) for (const p of round.pairs) met.add(`${p.femaleID}:${p.maleID}`);
  const sitters = input.seated === "female" ? input.female : input.male;
  const tableOf = new Map(sitters.map((id, i) => [id, i + 1]));
  const rounds = [...input.played];
  const limit = input.maxRounds ?? Number.POSITIVE_INFINITY;
  while (rounds.length < limit) {
    const busy = new Set<number>();
    const pairs: Pair[] = [];
    for (const f of input.female) {
      for (const m of input.male) {
        if (busy.has(f) || busy.has(m) || met.has(`${f}:${m}`)) continue;
        busy.add(f).add(m);
        met.add(`${f}:${m}`);
        const table = tableOf.get(input.seated === "female" ? f : m) ?? 0;
        pairs.push({ table, femaleID: f, maleID: m });
      }
    }
    if (pairs.length === 0) break;
    pairs.sort((a, b) => a.table - b.table);
    const sitOut = [...input.female, ...input.male].filter((id) => !busy.has(id));
    rounds.push({ round: rounds.length + 1, pairs, sitOut });
  }
  return rounds;
}
