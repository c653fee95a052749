import { describe, expect, it } from "vitest";
import { FlowNetwork } from "./min-cost-flow.ts";

// The flow the planner chooses pairs with (docs/decisions/030-nobody-across-the-table-twice.md),
// against trying every answer on small networks: the most that can go, then the cheapest way.

/** A small seeded generator (mulberry32). */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Rows each able to take up to `rowCap[i]` columns and columns up to `colCap[j]` rows; a cell is
 * missing (null) or has a cost. The best by trying every set of cells: most cells, then cheapest.
 */
function bestByHand(costs: (number | null)[][], rowCap: number[], colCap: number[]): [number, number] {
  const cells = costs.flatMap((row, i) => row.flatMap((c, j) => (c === null ? [] : [{ i, j, c }])));
  let best: [number, number] = [0, 0];
  for (let mask = 0; mask < 1 << cells.length; mask++) {
    const rows = new Array<number>(rowCap.length).fill(0);
    const cols = new Array<number>(colCap.length).fill(0);
    let count = 0;
    let cost = 0;
    let fits = true;
    for (let k = 0; k < cells.length && fits; k++) {
      if (!(mask & (1 << k))) continue;
      const { i, j, c } = cells[k]!;
      fits = ++rows[i]! <= rowCap[i]! && ++cols[j]! <= colCap[j]!;
      count++;
      cost += c;
    }
    if (fits && (count > best[0] || (count === best[0] && cost < best[1]))) best = [count, cost];
  }
  return best;
}

describe("the cheapest of the largest flows", () => {
  it("matches trying every answer on 300 small networks, and reports the flow on each arc", () => {
    const found: string[] = [];
    for (let seed = 1; seed <= 300; seed++) {
      const next = random(seed);
      const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
      const R = int(1, 4);
      const C = int(1, 4);
      const costs = Array.from({ length: R }, () => Array.from({ length: C }, () => (next() < 0.2 ? null : int(0, 9))));
      if (costs.flat().filter((c) => c !== null).length > 14) continue;
      const rowCap = Array.from({ length: R }, () => int(0, 3));
      const colCap = Array.from({ length: C }, () => int(0, 3));
      // Starting with room for 1 arc: the arrays must grow as arcs are added.
      const net = new FlowNetwork(2 + R + C, 1);
      for (const [i, cap] of rowCap.entries()) net.addArc(0, 2 + i, cap, 0);
      for (const [j, cap] of colCap.entries()) net.addArc(2 + R + j, 1, cap, 0);
      const arcs: { arc: number; cost: number }[] = [];
      for (const [i, row] of costs.entries())
        for (const [j, c] of row.entries())
          if (c !== null) arcs.push({ arc: net.addArc(2 + i, 2 + R + j, 1, c), cost: c });
      const got = net.solve(0, 1);
      const want = bestByHand(costs, rowCap, colCap);
      const onArcs = arcs.reduce((sum, a) => sum + net.flowOn(a.arc) * a.cost, 0);
      const used = arcs.reduce((sum, a) => sum + net.flowOn(a.arc), 0);
      if (got.flow !== want[0] || got.cost !== want[1] || onArcs !== got.cost || used !== got.flow)
        found.push(`seed ${seed}: ${got.flow}/${got.cost} (arcs ${used}/${onArcs}), best ${want}`);
    }
    expect(found).toEqual([]);
  });

  it("refuses an arc with a negative capacity or cost", () => {
    const net = new FlowNetwork(2);
    expect(() => net.addArc(0, 1, -1, 0)).toThrow(RangeError);
    expect(() => net.addArc(0, 1, 1, -1)).toThrow(RangeError);
  });
});
