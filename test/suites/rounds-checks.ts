import type { PersonPair, Round, Seated } from "../../api/night/planning/rounds-plan.ts";
import type { random } from "../seeded-random.ts";

// What the rounds planner's property tests share (api/night/planning/rounds-plan.test.ts and
// rounds-plan-history.test.ts): the checks every plan and re-plan must pass (their generator is
// test/seeded-random.ts).

/** `count` distinct ids from a shared counter, in a shuffled order, so no test leans on ids being sorted. */
export function ids(count: number, rng: ReturnType<typeof random>, counter: { next: number }): number[] {
  const list = Array.from({ length: count }, () => (counter.next += rng.int(1, 5)));
  for (let i = list.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
}

// Test ids stay below a million, so this numbers each pair uniquely.
export const key = (f: number, m: number) => f * 1_000_000 + m;

/**
 * Checks collect what they find instead of calling expect millions of times: a message is built only
 * for a failure, and each test ends with one `expect(problems).toEqual([])` that lists the first few.
 */
export class Problems {
  readonly found: string[] = [];
  check(ok: boolean, message: () => string) {
    if (!ok && this.found.length < 20) this.found.push(message());
  }
}

/** One round on its own: only people present, nobody twice, distinct tables, and sitOut is exactly the rest. */
export function checkWellFormed(
  round: Round,
  female: readonly number[],
  male: readonly number[],
  label: string,
  p: Problems,
) {
  const women = new Set(female);
  const men = new Set(male);
  const seen = new Set<number>();
  const tables = new Set<number>();
  for (const pair of round.pairs) {
    const { femaleID: f, maleID: m, table } = pair;
    p.check(women.has(f), () => `${label}: woman ${f} is not present`);
    p.check(men.has(m), () => `${label}: man ${m} is not present`);
    p.check(!seen.has(f) && !seen.has(m), () => `${label}: ${f} or ${m} is in two pairs`);
    seen.add(f).add(m);
    p.check(Number.isInteger(table) && table >= 1 && !tables.has(table), () => `${label}: table ${table}`);
    tables.add(table);
  }
  const rest = [...female, ...male].filter((id) => !seen.has(id)).sort((a, b) => a - b);
  const out = [...round.sitOut].sort((a, b) => a - b);
  p.check(rest.join() === out.join(), () => `${label}: sitOut ${out} should be ${rest}`);
}

/** No pair meets twice anywhere in the night, and rounds are numbered 1, 2, 3… */
export function checkNoRepeats(night: readonly Round[], label: string, p: Problems) {
  const met = new Set<number>();
  night.forEach((round, r) => {
    p.check(round.round === r + 1, () => `${label}: round ${r + 1} is numbered ${round.round}`);
    for (const { femaleID: f, maleID: m } of round.pairs) {
      p.check(!met.has(key(f, m)), () => `${label}: ${f} and ${m} meet twice`);
      met.add(key(f, m));
    }
  });
}

/** Who is in the room, as lists in the order given to the planner, and who is kept apart. */
export type Room = { female: number[]; male: number[]; keepApart?: readonly PersonPair[] };

/** Each pair's key, woman first, whichever order it was given in (women's ids are in `female`). */
export function pairKeys(pairs: readonly PersonPair[] | undefined, female: Iterable<number>): Set<number> {
  const women = new Set(female);
  return new Set((pairs ?? []).map(([a, b]) => (women.has(a) ? key(a, b) : key(b, a))));
}

/** The most partners any one person present still has to meet after `night`, nobody kept apart counted. */
export function mostUnmet(night: readonly Round[], { female, male, keepApart }: Room): number {
  const met = new Set(night.flatMap((r) => r.pairs.map((p) => key(p.femaleID, p.maleID))));
  for (const k of pairKeys(keepApart, female)) met.add(k);
  let most = 0;
  for (const f of female) most = Math.max(most, male.filter((m) => !met.has(key(f, m))).length);
  for (const m of male) most = Math.max(most, female.filter((f) => !met.has(key(f, m))).length);
  return most;
}

/**
 * Everything a re-plan promises: the started rounds come back as they were; the new rounds plan only
 * people present, repeat no pair, seat no pair kept apart, leave no unmet woman and man both sitting
 * out (unless kept apart), keep each seated person at one table, and number as many as the busiest
 * person's unmet count, within maxRounds.
 */
export function checkReplan(
  before: readonly Round[],
  played: readonly Round[],
  night: readonly Round[],
  room: Room & { seated: Seated; maxRounds: number | null },
  label: string,
  p: Problems,
) {
  p.check(
    JSON.stringify(night.slice(0, played.length)) === JSON.stringify(before),
    () => `${label}: played rounds changed`,
  );
  checkNoRepeats(night, label, p);
  const fresh = night.slice(played.length);
  const left = room.maxRounds === null ? Number.POSITIVE_INFINITY : room.maxRounds - played.length;
  const need = mostUnmet(played, room);
  p.check(
    fresh.length === Math.min(need, left),
    () => `${label}: ${fresh.length} new rounds for ${need} unmet, ${left} left`,
  );
  if (need <= left) p.check(mostUnmet(night, room) === 0, () => `${label}: some pair present never meets`);

  const apart = pairKeys(room.keepApart, room.female);
  const met = new Set(played.flatMap((r) => r.pairs.map((x) => key(x.femaleID, x.maleID))));
  for (const k of apart) met.add(k);
  const seatedAt = new Map<number, number>();
  const atTable = new Map<number, number>();
  for (const round of fresh) {
    const where = `${label}, round ${round.round}`;
    checkWellFormed(round, room.female, room.male, where, p);
    const out = new Set(round.sitOut);
    for (const f of room.female)
      if (out.has(f))
        for (const m of room.male)
          if (out.has(m) && !met.has(key(f, m))) p.check(false, () => `${where}: ${f} and ${m} both sit out unmet`);
    for (const x of round.pairs) {
      p.check(!apart.has(key(x.femaleID, x.maleID)), () => `${where}: ${x.femaleID} and ${x.maleID} are kept apart`);
      met.add(key(x.femaleID, x.maleID));
      const sitter = room.seated === "female" ? x.femaleID : x.maleID;
      p.check((seatedAt.get(sitter) ?? x.table) === x.table, () => `${where}: ${sitter} changed table`);
      p.check((atTable.get(x.table) ?? sitter) === sitter, () => `${where}: table ${x.table} changed hands`);
      seatedAt.set(sitter, x.table);
      atTable.set(x.table, sitter);
    }
  }
}
