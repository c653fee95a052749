import { planRounds, type Round, replanRounds } from "../api/night/planning/rounds-plan.ts";
import { ROUNDS_LIMITS } from "../common/rounds-settings.ts";
import { measureRoundsWithHistory, timing } from "./rounds-history.ts";

// `node --import tsx bench/rounds.ts`: how long the rounds planner takes for a large night, 100 women
// and 100 men, and for re-planning it halfway through. Measures, never asserts; the median of a few
// runs after one to warm up, since a shared machine is noisy.

const RUNS = 5;

function median(what: () => unknown): number {
  what();
  const times: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const started = performance.now();
    what();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
}

const row = (what: string, value: string) => console.log(`${what.padEnd(68)} ${value}`);
const ms = (n: number) => `${n.toFixed(1)} ms`;

const female = Array.from({ length: 100 }, (_, i) => 1 + i);
const male = Array.from({ length: 100 }, (_, i) => 1001 + i);
const plan = planRounds({ female, male });
const played = plan.slice(0, 50);
const planned = plan.slice(50);

/** Of the moves between two rounds a mover plays back to back after `from`, how many go to the next table. */
function followShare(night: readonly Round[], from: number): string {
  const tables = [...new Set(night.slice(from).flatMap((r) => r.pairs.map((p) => p.table)))].sort((a, b) => a - b);
  const next = (t: number) => tables.find((x) => x > t) ?? tables[0];
  let moves = 0;
  let follow = 0;
  for (let r = Math.max(1, from); r < night.length; r++) {
    const before = new Map(night[r - 1]!.pairs.map((p) => [p.maleID, p.table]));
    for (const p of night[r]!.pairs) {
      const t = before.get(p.maleID);
      if (t === undefined) continue;
      moves++;
      if (p.table === next(t)) follow++;
    }
  }
  return moves === 0 ? "no moves" : `${((100 * follow) / moves).toFixed(0)}% of ${moves} moves`;
}

console.log(`Rounds planner, ${RUNS} runs each, median (Node ${process.version})`);
row("Plan 100 women × 100 men (100 rounds)", ms(median(() => planRounds({ female, male }))));
row(
  "Re-plan after round 50, nobody changed (gives back the plan)",
  ms(median(() => replanRounds({ played, planned, female, male }))),
);

// Two women and two men leave and as many arrive: the newcomers have everyone left to meet, so an
// uncapped night grows to 150 rounds; the organiser's cap of 100 keeps it to the planned length.
const changed = { female: [...female.slice(2), 501, 502], male: [...male.slice(2), 1501, 1502] };
const grown = replanRounds({ played, planned, ...changed });
row(
  `Re-plan after round 50, 2 + 2 leave, 2 + 2 arrive (${grown.length} rounds)`,
  ms(median(() => replanRounds({ played, planned, ...changed }))),
);
const capped = replanRounds({ played, planned, ...changed, maxRounds: 100 });
row("The same with maxRounds 100", ms(median(() => replanRounds({ played, planned, ...changed, maxRounds: 100 }))));
row("  movers (men) going on to the next table in the re-planned rounds", followShare(capped, 50));
row("  without the old plan to keep", followShare(replanRounds({ played, ...changed, maxRounds: 100 }), 50));

// The room the planner accepts on the request path is capped (ROUNDS_LIMITS.presentPerSide): a
// re-plan's cost grows with the fourth power of a side. The worst case at the cap and past it:
// halfway through, 2 + 2 leave and 2 + 2 arrive, no cap on the rounds.
for (const side of [ROUNDS_LIMITS.presentPerSide, 2 * ROUNDS_LIMITS.presentPerSide]) {
  const women = Array.from({ length: side }, (_, i) => 1 + i);
  const men = Array.from({ length: side }, (_, i) => 10_001 + i);
  const night = planRounds({ female: women, male: men });
  const half = { played: night.slice(0, side / 2), planned: night.slice(side / 2) };
  const moved = { female: [...women.slice(2), 5001, 5002], male: [...men.slice(2), 15_001, 15_002] };
  const started = performance.now();
  replanRounds({ ...half, ...moved });
  const label = side === ROUNDS_LIMITS.presentPerSide ? "the cap" : "refused";
  row(`Re-plan ${side} + ${side} after round ${side / 2}, 2 + 2 changed (${label})`, ms(performance.now() - started));
}

// With history: 30 + 30 tonight from 80 + 80 regulars who came to 10 earlier nights of 15 rounds.
const history = await measureRoundsWithHistory();
row(`Plan 30 × 30, ${history.metBefore} present pairs met at 10 past nights, all 30 rounds`, timing(history.uncapped));
row("The same, 15 rounds (the pairs chosen around the history)", timing(history.capped));
row("  pairs seated who met before (only where the numbers force it)", String(history.cappedRepeats));
row("plan-rounds' service on SQLite, reading the 10 nights, 15 rounds", timing(history.server));
