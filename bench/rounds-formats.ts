import { type MixedPerson, planMixed, planOneGroup, replanMixed } from "../api/night/planning/group-plan.ts";
import { planRounds } from "../api/night/planning/rounds-plan.ts";
import { random } from "../test/seeded-random.ts";
import { median, timing } from "./rounds-history.ts";

// The planner for each format (docs/decisions/035-planners-for-every-format.md) on a room of 60:
// Women meet men 30 + 30, One group 60, Mixed 60 with a realistic mix (40% women meeting men, 40%
// men meeting women, 10% meeting everyone, 10% same-sex). Medians of 5 runs after one to warm up;
// measures, never asserts. `node --import tsx bench/rounds-formats.ts` runs just this part.

const ROOM = 60;

/** The Mixed room: seeded, so every run benches the same guests. */
export function mixedRoom(size = ROOM): MixedPerson[] {
  const { next } = random(37);
  return Array.from({ length: size }, (_, i): MixedPerson => {
    const id = 1 + i;
    const x = next();
    if (x < 0.4) return { id, gender: "female", meets: "male" };
    if (x < 0.8) return { id, gender: "male", meets: "female" };
    if (x < 0.9)
      return { id, gender: next() < 0.2 ? "nonbinary" : next() < 0.5 ? "female" : "male", meets: "everyone" };
    return next() < 0.5 ? { id, gender: "female", meets: "female" } : { id, gender: "male", meets: "male" };
  });
}

export type RoundsFormatsBench = {
  womenMeetMen: { wall: number; cpu: number };
  oneGroup: { wall: number; cpu: number };
  oneGroupCapped: { wall: number; cpu: number };
  mixed: { wall: number; cpu: number };
  mixedReplan: { wall: number; cpu: number };
  /** Mixed: rounds made, and the fewest possible (the busiest guest's number of valid partners). */
  mixedRounds: number;
  mixedBusiest: number;
  /** Mixed: times someone sat out two rounds running, and sit-outs in all. */
  mixedTwiceRunning: number;
  /** Of those, times the second was with a partner left to meet (the rest had nobody left). */
  mixedTwiceWithPartnersLeft: number;
  mixedSitOuts: number;
};

export function measureRoundsFormats(): RoundsFormatsBench {
  const ids = Array.from({ length: ROOM }, (_, i) => 1 + i);
  const female = ids.slice(0, ROOM / 2);
  const male = ids.slice(ROOM / 2);
  const people = mixedRoom();
  // A capped One group with history: every pair of the first 20 met at an earlier night.
  const metBefore = ids.slice(0, 20).flatMap((a) =>
    ids
      .slice(0, 20)
      .filter((b) => a < b)
      .map((b) => [a, b] as const),
  );
  const night = planMixed({ people });
  const started = Math.floor(night.length / 2);
  const arrived: MixedPerson[] = [
    { id: 901, gender: "female", meets: "male" },
    { id: 902, gender: "male", meets: "everyone" },
  ];
  const changed = [...people.slice(2), ...arrived];
  let twice = 0;
  let twiceWithPartnersLeft = 0;
  const met = new Set<string>();
  const byId = new Map(people.map((x) => [x.id, x]));
  const pairKey = (x: number, y: number) => (x < y ? `${x}:${y}` : `${y}:${x}`);
  for (const [r, round] of night.entries()) {
    for (const p of round.pairs) met.add(pairKey(p.a, p.b));
    if (r === 0) continue;
    for (const id of round.sitOut.filter((id) => night[r - 1]!.sitOut.includes(id))) {
      twice++;
      if (people.some((y) => y.id !== id && wants(byId.get(id)!, y) && !met.has(pairKey(id, y.id))))
        twiceWithPartnersLeft++;
    }
  }
  const busiest = Math.max(...people.map((x) => people.filter((y) => y !== x && wants(x, y)).length));
  return {
    womenMeetMen: median(() => planRounds({ female, male })),
    oneGroup: median(() => planOneGroup({ people: ids })),
    oneGroupCapped: median(() => planOneGroup({ people: ids, maxRounds: 15, metBefore })),
    mixed: median(() => planMixed({ people })),
    mixedReplan: median(() =>
      replanMixed({ people: changed, played: night.slice(0, started), planned: night.slice(started) }),
    ),
    mixedRounds: night.length,
    mixedBusiest: busiest,
    mixedTwiceRunning: twice,
    mixedTwiceWithPartnersLeft: twiceWithPartnersLeft,
    mixedSitOuts: night.reduce((n, r) => n + r.sitOut.length, 0),
  };
}

const wants = (x: MixedPerson, y: MixedPerson) =>
  (x.meets === "everyone" || x.meets === y.gender) && (y.meets === "everyone" || y.meets === x.gender);

/** The rows `npm run bench` prints. */
export function roundsFormatsRows(b: RoundsFormatsBench): [string, string, string][] {
  return [
    ["Plan rounds, Women meet men 30 × 30", timing(b.womenMeetMen), "< 100 ms"],
    ["Plan rounds, One group of 60 (circle, 59 rounds)", timing(b.oneGroup), "< 100 ms"],
    ["Plan rounds, One group of 60, 15 rounds, with history", timing(b.oneGroupCapped), "< 100 ms"],
    ["Plan rounds, Mixed 60 (40/40/10/10)", timing(b.mixed), "< 100 ms"],
    ["  Mixed 60: rounds made / fewest possible", `${b.mixedRounds} / ${b.mixedBusiest}`, ""],
    [
      "  Mixed 60: sit-outs / twice running / of those, partners left",
      `${b.mixedSitOuts} / ${b.mixedTwiceRunning} / ${b.mixedTwiceWithPartnersLeft}`,
      "",
    ],
    ["Re-plan Mixed 60 halfway, 2 left and 2 arrived", timing(b.mixedReplan), "< 100 ms"],
  ];
}

if (import.meta.url === `file://${process.argv[1]}`)
  for (const [what, value, target] of roundsFormatsRows(measureRoundsFormats()))
    console.log(`${what.padEnd(58)} ${value.padEnd(26)} ${target}`);
