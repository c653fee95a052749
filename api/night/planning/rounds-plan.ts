import { bestAssignment } from "./best-assignment.ts";
import { FlowNetwork } from "./min-cost-flow.ts";

// The night's rounds, as a pure function of who is there: no database, no clock. The rotation, how
// sit-outs are spread and how a re-plan decides are in docs/decisions/018-rounds.md; who met at an
// earlier night and who is kept apart, in docs/decisions/030-nobody-across-the-table-twice.md.
// Why one file: it is one planner, its first plan and its re-plan built from the same steps, proven
// together by the property tests beside it; the matching and the flow it uses (best-assignment.ts,
// min-cost-flow.ts) stand apart.

/** Which side keeps its table all night; the other side moves. */
export type Seated = "female" | "male";
export type TablePair = { table: number; femaleID: number; maleID: number };
/** `sitOut` lists the people present that round who have no partner in it. */
export type Round = { round: number; pairs: TablePair[]; sitOut: number[] };

/** Two people, in either order. */
export type PersonPair = readonly [number, number];

export type PlanInput = {
  female: readonly number[];
  male: readonly number[];
  seated?: Seated;
  /** At most this many rounds in the night; null or absent for no cap. */
  maxRounds?: number | null;
  /**
   * Pairs who met at an earlier night: seated together only where the night's shape needs it (the
   * same rounds, and as many dates each, as without them), and then as few as can be.
   */
  metBefore?: readonly PersonPair[];
  /** Pairs never seated together: one of them sits the round out instead. */
  keepApart?: readonly PersonPair[];
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
  /** The pair's place in a seated × moving grid (i · movers + j); undefined if either is not present. */
  cell: (p: TablePair) => number | undefined;
  /** The same for a seated person and a mover given by id. */
  cellOf: (sitter: number, mover: number) => number | undefined;
};

function sides({ female, male, seated = "female" }: PlanInput): Sides {
  const seen = new Set<number>();
  for (const id of [...female, ...male]) {
    if (!Number.isSafeInteger(id)) throw new RangeError(`not a person's id: ${id}`);
    if (seen.has(id)) throw new RangeError(`person ${id} is listed twice`);
    seen.add(id);
  }
  const [sitters, movers] = seated === "female" ? [female, male] : [male, female];
  const seatIndex = new Map(sitters.map((id, i) => [id, i]));
  const moveIndex = new Map(movers.map((id, j) => [id, j]));
  const cellOf = (sitter: number, mover: number) => {
    const i = seatIndex.get(sitter);
    const j = moveIndex.get(mover);
    return i === undefined || j === undefined ? undefined : i * movers.length + j;
  };
  return seated === "female"
    ? {
        seated: female,
        moving: male,
        pair: (f, m, table) => ({ table, femaleID: f, maleID: m }),
        sitterOf: (p) => p.femaleID,
        moverOf: (p) => p.maleID,
        cell: (p) => cellOf(p.femaleID, p.maleID),
        cellOf,
      }
    : {
        seated: male,
        moving: female,
        pair: (m, f, table) => ({ table, femaleID: f, maleID: m }),
        sitterOf: (p) => p.maleID,
        moverOf: (p) => p.femaleID,
        cell: (p) => cellOf(p.maleID, p.femaleID),
        cellOf,
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
 *
 * With `metBefore` or `keepApart` (docs/decisions/030-nobody-across-the-table-twice.md) the night
 * keeps that shape, the same rounds and as many dates for each person, but chooses who meets whom:
 * never a pair kept apart (one of them sits that round out), and of the pairs who met at an earlier
 * night as few as any plan of that shape can. The rotation is kept whenever it is such a plan.
 */
export function planRounds(input: PlanInput): Round[] {
  const room = sides(input);
  const cap = roundCap(input.maxRounds);
  const rotated = rotation(input, room, cap);
  const { apart, before } = constraints(input, room);
  if (!apart && !before) return rotated;
  const cells = room.seated.length * room.moving.length;
  // The rotation with each kept-apart pair taken out: both sit that round out.
  const plain = apart
    ? rotated.map((r) =>
        finishRound(
          r.round,
          r.pairs.filter((p) => !apart[room.cell(p)!]),
          input,
        ),
      )
    : rotated;
  // Taking pairs out can leave a round with nobody to seat, or two people who could meet both
  // waiting: then the pairs are put in rounds afresh, as a re-plan would.
  const plainFits = !apart || wastesNoRound(plain, room, apart);
  const places = Math.max(room.seated.length, room.moving.length);
  const count = Math.min(places, cap);
  // Uncapped, everyone meets everyone they may: there is no other set of pairs to choose.
  if (count === 0 || count >= places)
    return plainFits ? plain : nextRounds(input, room, cap, [], [], apart ?? new Uint8Array(cells));
  const plainCells = cellsOf(plain, room);
  if (!apart && !plainCells.some((c) => before![c])) return plain;
  const none = new Array<number>(places).fill(0);
  const best = choosePairs(room, count, apart ?? new Uint8Array(cells), before, { seated: none, moving: none }, null);
  const plainScore = best.score(plainCells);
  if (plainFits && plainScore.pairs === best.pairs && plainScore.cost === best.cost) return plain;
  return nextRounds(
    input,
    room,
    cap,
    [],
    [],
    best.chosen.map((chosen) => (chosen ? 0 : 1)),
  );
}

/**
 * True when no round of `night` is wasted: it has as many rounds as the busiest person has dates in
 * it, and in no round do a woman and a man both sit out who could still meet (not met yet that
 * night, not kept apart).
 */
function wastesNoRound(night: readonly Round[], room: Sides, apart: Uint8Array): boolean {
  const dates = new Map<number, number>();
  for (const r of night)
    for (const p of r.pairs) for (const id of [p.femaleID, p.maleID]) dates.set(id, (dates.get(id) ?? 0) + 1);
  if (night.length !== Math.max(0, ...dates.values())) return false;
  const met = apart.slice();
  for (const round of night) {
    const out = new Set(round.sitOut);
    const sitters = room.seated.filter((id) => out.has(id));
    const movers = room.moving.filter((id) => out.has(id));
    for (const s of sitters) for (const m of movers) if (!met[room.cellOf(s, m)!]) return false;
    for (const p of round.pairs) met[room.cell(p)!] = 1;
  }
  return true;
}

function rotation(input: PlanInput, room: Sides, cap: number): Round[] {
  const { seated, moving, pair } = room;
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
 * The pairs given as grids over the room (row i the i-th seated person, column j the j-th mover):
 * `apart` 1 where the two are kept apart, `before` 1 where they met at an earlier night; null when
 * no such pair is present. A pair from one side, or with someone absent, can never be seated anyway.
 */
function constraints(input: PlanInput, room: Sides): { apart: Uint8Array | null; before: Uint8Array | null } {
  const grid = (pairs: readonly PersonPair[] | undefined) => {
    let cells: Uint8Array | null = null;
    for (const [a, b] of pairs ?? []) {
      const c = room.cellOf(a, b) ?? room.cellOf(b, a);
      if (c === undefined) continue;
      cells ??= new Uint8Array(room.seated.length * room.moving.length);
      cells[c] = 1;
    }
    return cells;
  };
  return { apart: grid(input.keepApart), before: grid(input.metBefore) };
}

const cellsOf = (rounds: readonly Round[], room: Sides) =>
  rounds.flatMap((r) => r.pairs.map((p) => room.cell(p)).filter((c) => c !== undefined));

/**
 * Which pairs meet in the next `count` rounds, chosen as one min-cost flow (a unit a date: source →
 * seated person → mover → sink), in this order of preference, each above everything after it:
 * 1. the most dates, nobody more than one a round, no pair `blocked` (met tonight, or kept apart);
 * 2. the dates spread: each person's k-th date of the night costs more than their (k − 1)-th, so
 *    whoever has had fewer tonight gets the next one (in a first plan: the rotation's spread, the
 *    larger side ⌊count·small/large⌋ or one more each);
 * 3. the fewest pairs who met at an earlier night;
 * 4. in a re-plan, the planned pairs.
 * `score` prices any set of pairs the same way, so a plan already made can be kept when it is as good.
 */
function choosePairs(
  room: Sides,
  count: number,
  blocked: Uint8Array,
  before: Uint8Array | null,
  datesSoFar: { seated: readonly number[]; moving: readonly number[] },
  planned: ReadonlySet<number> | null,
) {
  const S = room.seated.length;
  const V = room.moving.length;
  const cells = S * V;
  const most = count + Math.max(0, ...datesSoFar.seated, ...datesSoFar.moving);
  const wRepeat = cells + 1;
  const wDate = wRepeat * (cells + 1);
  // The largest cost on a path, times every unit that could go round it, must stay exact.
  if (2 * wDate * most * (S + V) * count > Number.MAX_SAFE_INTEGER / 4)
    throw new RangeError("too many people to plan one night's rounds");
  const net = new FlowNetwork(2 + S + V, (S + V) * count + cells);
  const source = 0;
  const sink = 1;
  const seatNode = (i: number) => 2 + i;
  const moveNode = (j: number) => 2 + S + j;
  // The k-th date of the night costs wDate · k: convex, so the flow spreads them.
  for (let i = 0; i < S; i++)
    for (let k = 1; k <= count; k++) net.addArc(source, seatNode(i), 1, wDate * (datesSoFar.seated[i]! + k));
  for (let j = 0; j < V; j++)
    for (let k = 1; k <= count; k++) net.addArc(moveNode(j), sink, 1, wDate * (datesSoFar.moving[j]! + k));
  const pairCost = (c: number) => (before?.[c] ? wRepeat : 0) + (planned && !planned.has(c) ? 1 : 0);
  const arcOf = new Int32Array(cells).fill(-1);
  for (let c = 0; c < cells; c++)
    if (!blocked[c]) arcOf[c] = net.addArc(seatNode(Math.floor(c / V)), moveNode(c % V), 1, pairCost(c));
  const { flow, cost } = net.solve(source, sink);
  const chosen = new Uint8Array(cells);
  arcOf.forEach((arc, c) => {
    if (arc >= 0 && net.flowOn(arc) > 0) chosen[c] = 1;
  });

  const score = (pairs: readonly number[]) => {
    const seated = new Array<number>(S).fill(0);
    const moving = new Array<number>(V).fill(0);
    let total = 0;
    for (const c of pairs) {
      const i = Math.floor(c / V);
      const j = c % V;
      seated[i]!++;
      moving[j]!++;
      total +=
        pairCost(c) + wDate * (datesSoFar.seated[i]! + seated[i]!) + wDate * (datesSoFar.moving[j]! + moving[j]!);
    }
    return { pairs: pairs.length, cost: total };
  };
  return { chosen, pairs: flow, cost, score };
}

/**
 * Rebuilds the rounds not yet started from the people present now; the started ones come back
 * unchanged, first. Each new round is the best matching over the pairs present who have not met:
 * the most pairs, with everyone who has the most partners left to meet among them (so the night
 * needs no more rounds than the busiest person's unmet count), then the planned pair wherever it
 * still fits, then whoever sat out the round before, then each mover at the next table from the
 * last one they played at. A pair kept apart is never seated. Before any round has started it is
 * simply a fresh plan.
 *
 * When some present pair who have not met tonight met at an earlier night, which pairs meet is
 * chosen first, for all the rounds left at once (choosePairs: as many dates, as evenly spread, then
 * the fewest such pairs, then the planned ones), and the rounds are then made from those pairs as above.
 */
export function replanRounds(input: ReplanInput): Round[] {
  const { played, planned = [] } = input;
  if (played.length === 0) return planRounds(input);
  const room = sides(input);
  const cap = roundCap(input.maxRounds);
  const { apart, before } = constraints(input, room);
  const S = room.seated.length;
  const V = room.moving.length;
  const blocked = apart ?? new Uint8Array(S * V);
  for (const round of played)
    for (const p of round.pairs) {
      const c = room.cell(p);
      if (c !== undefined) blocked[c] = 1;
    }
  // As many rounds as the busiest person has partners left to meet, within the cap.
  const unmetSeated = new Array<number>(S).fill(0);
  const unmetMoving = new Array<number>(V).fill(0);
  blocked.forEach((b, c) => {
    if (b) return;
    unmetSeated[Math.floor(c / V)]!++;
    unmetMoving[c % V]!++;
  });
  const need = Math.max(0, ...unmetSeated, ...unmetMoving);
  const count = Math.min(need, cap - played.length);
  const keepsPlan = plannedStillFits(input, room, blocked, count, need <= count);

  if (!before?.some((b, c) => b && !blocked[c]) || count <= 0)
    return keepsPlan ? [...played, ...planned] : nextRounds(input, room, cap, played, planned, blocked);
  const dates = new Map<number, number>();
  for (const round of played)
    for (const p of round.pairs) for (const id of [p.femaleID, p.maleID]) dates.set(id, (dates.get(id) ?? 0) + 1);
  const plannedCells = cellsOf(planned, room);
  const best = choosePairs(
    room,
    count,
    blocked,
    before,
    { seated: room.seated.map((id) => dates.get(id) ?? 0), moving: room.moving.map((id) => dates.get(id) ?? 0) },
    new Set(plannedCells),
  );
  if (keepsPlan && plannedCells.length === best.pairs && plannedCells.every((c) => best.chosen[c]))
    return [...played, ...planned];
  return nextRounds(
    input,
    room,
    cap,
    played,
    planned,
    best.chosen.map((chosen) => (chosen ? 0 : 1)),
  );
}

/**
 * Whether the planned rounds can simply go on, as a re-plan with nobody arriving or leaving should
 * leave them: numbered on from the started ones, each seating someone and listing exactly the people
 * present, no pair that has met tonight or is kept apart, each seated person at the table they
 * hold, `count` rounds, and (when the rounds left allow it, `all`) every pair still to meet meeting.
 */
function plannedStillFits(input: ReplanInput, room: Sides, blocked: Uint8Array, count: number, all: boolean): boolean {
  const { played, planned = [] } = input;
  if (planned.length !== count) return false;
  const present = new Set([...input.female, ...input.male]);
  const table = seatTables(room.seated, room.sitterOf, played, planned);
  const tableOf = new Map(room.seated.map((id, i) => [id, table[i]!]));
  const met = blocked.slice();
  for (const [k, round] of planned.entries()) {
    if (round.round !== played.length + k + 1 || round.pairs.length === 0) return false;
    const listed = [...round.pairs.flatMap((x) => [x.femaleID, x.maleID]), ...round.sitOut];
    if (listed.length !== present.size || !listed.every((id) => present.has(id))) return false;
    for (const p of round.pairs) {
      const c = room.cell(p);
      if (c === undefined || met[c] || tableOf.get(room.sitterOf(p)) !== p.table) return false;
      met[c] = 1;
    }
  }
  return !all || met.every(Boolean);
}

/**
 * The rounds after `played`, one best matching a round over the pairs not `blocked` (met already,
 * kept apart, or not among the pairs choosePairs chose), as replanRounds describes. `blocked` is
 * written to as the rounds are made.
 */
function nextRounds(
  input: PlanInput,
  room: Sides,
  cap: number,
  played: readonly Round[],
  planned: readonly Round[],
  blocked: Uint8Array,
): Round[] {
  const { seated, moving, pair, sitterOf, moverOf, cell } = room;
  const S = seated.length;
  const V = moving.length;
  const moveIndex = new Map(moving.map((id, j) => [id, j]));

  const met = blocked;
  const lastTable: (number | undefined)[] = new Array(V).fill(undefined);
  for (const round of played)
    for (const p of round.pairs) {
      const j = moveIndex.get(moverOf(p));
      if (j !== undefined) lastTable[j] = p.table;
    }
  let playedLast = new Set(played.at(-1)?.pairs.flatMap((p) => [p.femaleID, p.maleID]) ?? []);
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
    const nextPlace = lastTable.map((t) => (t === undefined ? undefined : tablesUpTo(tables, t)));
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

/** How many of the sorted `tables` are at most `t`. */
function tablesUpTo(tables: readonly number[], t: number): number {
  let count = 0;
  while (count < tables.length && tables[count]! <= t) count++;
  return count;
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
