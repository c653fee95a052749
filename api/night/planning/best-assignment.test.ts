import { describe, expect, it } from "vitest";
import { bestAssignment } from "./best-assignment.ts";

/** mulberry32: seeded, so a failing matrix replays. */
function random(seed: number) {
  let a = seed >>> 0;
  return (n: number) => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

/** The greatest total over every matching of the positive cells, by trying them all. */
function bruteForce(w: number[][], cols: number, row = 0, used = new Set<number>()): number {
  if (row === w.length) return 0;
  let best = bruteForce(w, cols, row + 1, used);
  for (let j = 0; j < cols; j++)
    if (!used.has(j) && w[row]![j]! > 0) {
      used.add(j);
      best = Math.max(best, w[row]![j]! + bruteForce(w, cols, row + 1, used));
      used.delete(j);
    }
  return best;
}

describe("bestAssignment", () => {
  it("finds the matching with the greatest total, leaving out cells of weight 0, on 2,000 seeded matrices", () => {
    const rand = random(7);
    const wrong: string[] = [];
    for (let trial = 0; trial < 2000; trial++) {
      const rows = rand(7);
      const cols = rows + rand(4);
      // Mostly zeros and ties, the cases a rounds plan produces.
      const w = Array.from({ length: rows }, () => Array.from({ length: cols }, () => (rand(3) === 0 ? 0 : rand(6))));
      const answer = bestAssignment(rows, cols, (i, j) => w[i]![j]!);
      const taken = answer.filter((j) => j >= 0);
      const total = answer.reduce((sum, j, i) => sum + (j >= 0 ? w[i]![j]! : 0), 0);
      const valid = new Set(taken).size === taken.length && answer.every((j, i) => j < 0 || w[i]![j]! > 0);
      if (!valid || total !== bruteForce(w, cols)) wrong.push(JSON.stringify(w));
    }
    expect(wrong.slice(0, 3)).toEqual([]);
  });
});
