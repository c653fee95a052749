import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { planRounds, type Round } from "../api/night/planning/rounds-plan.ts";
import { planEventRounds } from "../api/night/rounds.ts";
import { openDatabase } from "../db/client.ts";
import { eventRounds } from "../db/rounds-schema.ts";
import { bookings, users } from "../db/schema.ts";
import { insertEvent, insertPaidBookings } from "../test/fixtures.ts";
import { random } from "../test/seeded-random.ts";

// The rounds planner with history (docs/decisions/030-nobody-across-the-table-twice.md): 30 women and
// 30 men tonight, drawn from 80 regulars of each who came to 10 earlier nights of 30 + 30 and 15
// rounds each. Measured on the planner alone, and through plan-rounds' service on a real SQLite
// file (reading the 10 nights' rounds and the numbers, then planning). Medians of 5 runs after one
// to warm up; measures, never asserts.

const RUNS = 5;
const SIDE = 30;
const POOL = 80;
const NIGHTS = 10;
const ROUNDS = 15;
const DAY = 86_400_000;

function pick<T>(list: readonly T[], count: number, next: () => number): T[] {
  const copy = [...list];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy.slice(0, count);
}

/**
 * The median wall time of RUNS runs after one to warm up, and their median CPU time (this process,
 * its helper threads included): on a shared machine the wall time also counts the waits for a core.
 * bench/rounds-formats.ts measures with it too.
 */
export function median(work: () => unknown): { wall: number; cpu: number } {
  work();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let run = 0; run < RUNS; run++) {
    const used = process.cpuUsage();
    const started = performance.now();
    work();
    wall.push(performance.now() - started);
    const { user, system } = process.cpuUsage(used);
    cpu.push((user + system) / 1000);
  }
  const mid = (list: number[]) => list.sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;
  return { wall: mid(wall), cpu: mid(cpu) };
}

/** `12.3 ms (CPU 9.8 ms)` */
export const timing = ({ wall, cpu }: { wall: number; cpu: number }) =>
  `${wall.toFixed(1)} ms (CPU ${cpu.toFixed(1)} ms)`;

/** Regulars 1…80 (women) and 1001…1080 (men); the earlier nights, planned by the planner itself. */
function earlierNights() {
  // Seeded, so every run benches the same nights.
  const { next } = random(27);
  const women = Array.from({ length: POOL }, (_, i) => 1 + i);
  const men = Array.from({ length: POOL }, (_, i) => 1001 + i);
  const nights: { female: number[]; male: number[]; rounds: Round[] }[] = [];
  for (let n = 0; n < NIGHTS; n++) {
    const female = pick(women, SIDE, next);
    const male = pick(men, SIDE, next);
    nights.push({ female, male, rounds: planRounds({ female, male, maxRounds: ROUNDS }) });
  }
  return { nights, tonight: { female: pick(women, SIDE, next), male: pick(men, SIDE, next) } };
}

export type RoundsHistoryBench = {
  /** Pairs present tonight who met at one of the earlier nights. */
  metBefore: number;
  /** The planner alone, uncapped (30 rounds: everyone meets, history or not). */
  uncapped: { wall: number; cpu: number };
  /** The planner alone, 15 rounds: the pairs chosen around the history. */
  capped: { wall: number; cpu: number };
  /** Of those 15 rounds, pairs who met before: only where the numbers force it. */
  cappedRepeats: number;
  /** plan-rounds' service on a SQLite file: reads the history, plans 15 rounds, stores the plan. */
  server: { wall: number; cpu: number };
};

export async function measureRoundsWithHistory(): Promise<RoundsHistoryBench> {
  const { nights, tonight } = earlierNights();
  const here = new Set([...tonight.female, ...tonight.male]);
  const met = new Map<string, [number, number]>();
  for (const night of nights)
    for (const round of night.rounds)
      for (const p of round.pairs)
        if (here.has(p.femaleID) && here.has(p.maleID)) met.set(`${p.femaleID}:${p.maleID}`, [p.femaleID, p.maleID]);
  const metBefore = [...met.values()];
  const uncapped = median(() => planRounds({ ...tonight, metBefore }));
  const capped = median(() => planRounds({ ...tonight, metBefore, maxRounds: ROUNDS }));
  const cappedRepeats = planRounds({ ...tonight, metBefore, maxRounds: ROUNDS })
    .flatMap((r) => r.pairs)
    .filter((p) => met.has(`${p.femaleID}:${p.maleID}`)).length;

  // The same nights in a database: every regular has one number, booked afresh (a new users row) each night.
  const dir = mkdtempSync(join(tmpdir(), "sdt-bench-history-"));
  try {
    const db = openDatabase(join(dir, "app.db"));
    const uploads = join(dir, "uploads");
    const now = Date.now();
    const phoneOf = (person: number) => `+6149${String(person).padStart(7, "0")}`;
    const book = (eventId: number, person: number, checkedInAt: number | null) => {
      const gender = person > 1000 ? "male" : "female";
      const [p] = insertPaidBookings(db, eventId, 1, { gender, paidAt: now - 40 * DAY });
      db.update(users)
        .set({ phone: phoneOf(person) })
        .where(eq(users.id, p!.userId))
        .run();
      db.update(bookings)
        .set({ phone: phoneOf(person), checkedInAt })
        .where(eq(bookings.id, p!.bookingId))
        .run();
      return p!.userId;
    };
    const image = (await insertEvent(db, uploads, { name: "Image holder" })).imageName;
    for (const [n, night] of nights.entries()) {
      const at = now - (NIGHTS - n) * 7 * DAY;
      const event = await insertEvent(db, uploads, {
        name: `Night ${n + 1}`,
        imageName: image,
        status: "ended",
        startsAt: at,
        startedAt: at,
        endedAt: at + 3 * 3_600_000,
      });
      const userOf = new Map([...night.female, ...night.male].map((person) => [person, book(event.id, person, at)]));
      const plan = night.rounds.map((r) => ({
        ...r,
        pairs: r.pairs.map((p) => ({ ...p, femaleID: userOf.get(p.femaleID)!, maleID: userOf.get(p.maleID)! })),
        sitOut: r.sitOut.map((id) => userOf.get(id)!),
      }));
      db.insert(eventRounds)
        .values({
          eventId: event.id,
          status: "finished",
          roundMinutes: 5,
          breakMinutes: 1,
          maxRounds: ROUNDS,
          seated: "female",
          plan,
          plannedFor: [...userOf.values()],
          plannedAt: at,
          current: plan.length,
          phase: null,
          phaseEndsAt: null,
          pausedRemainingMs: null,
          updatedAt: at,
        })
        .run();
    }
    const event = await insertEvent(db, uploads, {
      name: "Tonight",
      imageName: image,
      status: "started",
      startsAt: now - 600_000,
      startedAt: now - 600_000,
    });
    for (const [i, person] of [...tonight.female, ...tonight.male].entries())
      book(event.id, person, now - 3_600_000 + i);
    const server = median(() => planEventRounds(db, { eventId: event.id, maxRounds: ROUNDS }, now));
    db.$client.close();
    return { metBefore: metBefore.length, uncapped, capped, cappedRepeats, server };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
