/**
 * A small seeded generator (mulberry32) for property tests and benchmarks: the same seed gives the
 * same scenarios on every run, so a failure replays exactly. `next()` is in [0, 1); `int(lo, hi)`
 * a whole number from lo to hi, both included.
 */
export function random(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1));
  return { next, int };
}
