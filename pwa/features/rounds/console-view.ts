import type { EventFormat } from "../../../common/formats.ts";
import { ROUNDS_LIMITS as L } from "../../../common/rounds-settings.ts";
import { toMs } from "../../lib/round-clock.ts";
import type { RoundsPerson, RoundsSettings, RoundsState, RoundsStatus } from "./rounds-api.ts";

/**
 * What the host's console shows, from one rounds answer: pure, so each rule is tested without a
 * page. The server decides everything; the one guess made here is `projectClock`, which keeps the
 * console's timer going through the phases while the network is gone.
 */

/**
 * `Present: F women, M men`, word for word as the host's checklist says it; `Present: N` at One group
 * and Mixed, where everyone is one pool.
 */
export const presentLine = (present: RoundsState["present"], group?: { format: EventFormat; total: number }) =>
  !group || group.format === "women_men"
    ? `Present: ${present.female} women, ${present.male} men`
    : `Present: ${group.total}`;

/** `Round 3 of 9` */
export const roundOf = (round: number, total: number) => `Round ${round} of ${total}`;

/** `2 pairs met at an earlier night`, word for word as the issue says it; `1 pair …` for one. */
export const metBeforeLine = (count: number) => `${count} ${count === 1 ? "pair" : "pairs"} met at an earlier night`;

/** `metBefore`: the two met at an earlier night (the plan could not avoid it). */
export type PlanCell = { table: number; female: string; male: string; metBefore: boolean };
export type PlanRow = { round: number; cells: (PlanCell | null)[]; sitOut: string[] };
export type PlanGrid = { tables: number[]; rows: PlanRow[] };

const nameOf = (people: Map<number, RoundsPerson>, id: number) => people.get(id)?.username ?? `Guest ${id}`;

/** The plan as a round × table grid, with names; an empty table in a round is null. */
export function planGrid(
  state: Pick<RoundsState, "rounds" | "people"> & { metBefore?: RoundsState["metBefore"] },
): PlanGrid {
  const people = new Map(state.people.map((p) => [p.userID, p]));
  const again = new Set((state.metBefore ?? []).map((s) => `${s.round}:${s.table}`));
  // Only the tables someone sits at in some round: a number no round uses is no column.
  const tables = [...new Set(state.rounds.flatMap((r) => r.pairs.map((p) => p.table)))].sort((a, b) => a - b);
  const rows = state.rounds.map((r) => ({
    round: r.round,
    cells: tables.map((table) => {
      const pair = r.pairs.find((p) => p.table === table);
      return pair
        ? {
            table,
            female: nameOf(people, pair.femaleID),
            male: nameOf(people, pair.maleID),
            metBefore: again.has(`${r.round}:${table}`),
          }
        : null;
    }),
    sitOut: r.sitOut.map((id) => nameOf(people, id)),
  }));
  return { tables, rows };
}

export type ListedPerson = RoundsPerson & { isNew: boolean };

/** Who is here, women first then men, by name; new arrivals marked; those who went home listed apart. */
export function peopleLists(state: Pick<RoundsState, "people" | "arrivals">) {
  const arrivals = new Set(state.arrivals);
  const sorted = [...state.people]
    .sort((a, b) => (a.gender === b.gender ? a.username.localeCompare(b.username) : a.gender === "female" ? -1 : 1))
    .map((p) => ({ ...p, isNew: arrivals.has(p.userID) && !p.left }));
  return { present: sorted.filter((p) => !p.left), left: sorted.filter((p) => p.left) };
}

export type ClockView = {
  status: RoundsStatus;
  current: number | null;
  phase: "round" | "break" | null;
  /** Server time in ms, or null when nothing is timed. */
  endsAt: number | null;
};

/**
 * Where the night is at server time `now`, played forward from the last answer the way the server
 * plays it: a round, then the changeover (none after the last round, none when it lasts 0
 * minutes), then the next round, and finished after the last. Online the next answer replaces it
 * within seconds; offline it keeps the host's screen honest instead of sitting at 0:00.
 */
export function projectClock(
  state: Pick<RoundsState, "status" | "current" | "phase" | "phaseEndsAt" | "rounds"> & {
    settings: Pick<RoundsSettings, "roundMinutes" | "breakMinutes">;
  },
  now: number,
): ClockView {
  const status = state.status;
  let { current, phase } = state;
  let endsAt = toMs(state.phaseEndsAt);
  if (status !== "running" || endsAt === null || current === null || phase === null) {
    return { status, current, phase, endsAt };
  }
  const total = state.rounds.length;
  const roundMs = state.settings.roundMinutes * 60_000;
  const breakMs = state.settings.breakMinutes * 60_000;
  // Each pass moves one phase on; a night has at most two phases per round.
  for (let guard = 0; endsAt <= now && guard <= 2 * total + 1; guard++) {
    if (phase === "round" && current >= total) {
      return { status: "finished", current, phase: null, endsAt: null };
    }
    if (phase === "round" && breakMs > 0) {
      phase = "break";
      endsAt += breakMs;
    } else {
      current += 1;
      phase = "round";
      endsAt += roundMs;
    }
  }
  return { status, current, phase, endsAt };
}

/** The settings form's text, and what it sends: whole numbers in the server's ranges. */
export type SettingsDraft = {
  roundMinutes: string;
  breakMinutes: string;
  maxRounds: string;
  seated: "female" | "male";
};

export const draftOf = (settings: RoundsSettings): SettingsDraft => ({
  roundMinutes: String(settings.roundMinutes),
  breakMinutes: String(settings.breakMinutes),
  maxRounds: settings.maxRounds === null ? "" : String(settings.maxRounds),
  seated: settings.seated,
});

export type DraftErrors = Partial<Record<"roundMinutes" | "breakMinutes" | "maxRounds", string>>;

const whole = (text: string) => (/^\d{1,3}$/.test(text.trim()) ? Number(text.trim()) : null);

/** The settings to send, or what is wrong with each field. An empty "Max rounds" means no cap. */
export function readDraft(
  draft: SettingsDraft,
): { ok: true; settings: RoundsSettings } | { ok: false; errors: DraftErrors } {
  const errors: DraftErrors = {};
  const roundMinutes = whole(draft.roundMinutes);
  // The server's limits (common/rounds-settings.ts), so the form never sends what it would refuse.
  const within = (n: number | null, limit: { min: number; max: number }) =>
    n !== null && n >= limit.min && n <= limit.max;
  if (!within(roundMinutes, L.roundMinutes)) {
    errors.roundMinutes = `From ${L.roundMinutes.min} to ${L.roundMinutes.max} minutes.`;
  }
  const breakMinutes = whole(draft.breakMinutes);
  if (!within(breakMinutes, L.breakMinutes)) {
    errors.breakMinutes = `From ${L.breakMinutes.min} to ${L.breakMinutes.max} minutes.`;
  }
  const maxRounds = draft.maxRounds.trim() === "" ? null : whole(draft.maxRounds);
  if (draft.maxRounds.trim() !== "" && !within(maxRounds, L.maxRounds)) {
    errors.maxRounds = `A whole number of rounds up to ${L.maxRounds.max}, or empty for no limit.`;
  }
  if (Object.keys(errors).length) return { ok: false, errors };
  return {
    ok: true,
    settings: { roundMinutes: roundMinutes!, breakMinutes: breakMinutes!, maxRounds, seated: draft.seated },
  };
}

export type SparseRounds = { from: number; to: number; present: number; suggestMax: number };

/**
 * Rounds a re-plan would add (past the current plan's last) in which fewer than half of the people
 * present meet someone, typically a late arrival's long tail of sit-outs; null when there are none.
 * `suggestMax` is the **Max rounds** that stops just before the first of them.
 */
export function sparseAddedRounds(
  before: Pick<RoundsState, "rounds">,
  after: Pick<RoundsState, "rounds" | "present"> & { presentTotal?: number; format?: EventFormat },
): SparseRounds | null {
  // One group and Mixed count everyone (One group asks no gender); Women meet men its two sides.
  const oneRoom = after.format !== undefined && after.format !== "women_men";
  const present =
    oneRoom && after.presentTotal !== undefined ? after.presentTotal : after.present.female + after.present.male;
  const added = after.rounds.filter((r) => r.round > before.rounds.length);
  const first = added.find((r) => 2 * r.pairs.length * 2 < present);
  if (!first) return null;
  return {
    from: first.round,
    to: after.rounds.at(-1)?.round ?? first.round,
    present,
    suggestMax: Math.max(1, first.round - 1),
  };
}
