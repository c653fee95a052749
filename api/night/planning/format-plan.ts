import type { EventFormat } from "../../../common/formats.ts";
import type { PersonGender, WantsToMeet } from "../../../db/schema.ts";
import {
  type GroupRound,
  type MixedPerson,
  planMixed,
  planOneGroup,
  replanMixed,
  replanOneGroup,
} from "./group-plan.ts";
import type { PersonPair, Round } from "./rounds-plan.ts";

// One group and Mixed nights on the stored plan (docs/decisions/037-formats-on-the-night.md). The
// planners are group-plan.ts's pure functions; this turns their rounds into the stored shape every
// client reads. At these formats the two seats of a table are alike, and a stored pair keeps the
// field names `femaleID` and `maleID` (the lower id first) so the console, the phones and the
// partner rule read every night the same way.

const toStored = (rounds: readonly GroupRound[]): Round[] =>
  rounds.map((r) => ({
    round: r.round,
    pairs: r.pairs.map((p) => ({ table: p.table, femaleID: p.a, maleID: p.b })),
    sitOut: [...r.sitOut],
  }));

const toGroup = (rounds: readonly Round[]): GroupRound[] =>
  rounds.map((r) => ({
    round: r.round,
    pairs: r.pairs.map((p) => ({
      table: p.table,
      a: Math.min(p.femaleID, p.maleID),
      b: Math.max(p.femaleID, p.maleID),
    })),
    sitOut: [...r.sitOut],
  }));

/** A present guest of a group night: id, and at Mixed the two answers the planner reads. */
export type GroupGuest = { id: number; gender: PersonGender; wantsToMeet: WantsToMeet | null };

const MEETS = { women: "female", men: "male", everyone: "everyone" } as const;

/**
 * Mixed's person for the planner. Someone without answers (a booking from before the format was
 * set cannot exist, since the format locks at the first booking, but a repaired row might) is
 * seated with nobody: the planner never guesses whom someone would like to meet.
 */
function mixedPerson(guest: GroupGuest): MixedPerson | null {
  if (guest.wantsToMeet === null) return null;
  if (guest.gender !== "female" && guest.gender !== "male" && guest.gender !== "nonbinary") return null;
  return { id: guest.id, gender: guest.gender, meets: MEETS[guest.wantsToMeet] };
}

export type GroupPlanInput = {
  format: Exclude<EventFormat, "women_men">;
  /** Present, in order of arrival. */
  guests: readonly GroupGuest[];
  maxRounds: number | null;
  keepApart: readonly PersonPair[];
  metBefore: readonly PersonPair[];
  /** A re-plan once the rounds run: the rounds started and the rest of the plan. */
  history: { played: readonly Round[]; planned: readonly Round[] } | null;
};

/** The stored plan of a One group or Mixed night; a planner's RangeError passes to the caller. */
export function planGroupNight(input: GroupPlanInput): Round[] {
  const constraints = { maxRounds: input.maxRounds, keepApart: input.keepApart, metBefore: input.metBefore };
  const history = input.history && { played: toGroup(input.history.played), planned: toGroup(input.history.planned) };
  if (input.format === "one_group") {
    const people = input.guests.map((g) => g.id);
    return toStored(
      history ? replanOneGroup({ ...constraints, people, ...history }) : planOneGroup({ ...constraints, people }),
    );
  }
  const seatable = input.guests.map(mixedPerson);
  const people = seatable.filter((p): p is MixedPerson => p !== null);
  const rounds = history ? replanMixed({ ...constraints, people, ...history }) : planMixed({ ...constraints, people });
  // Those the planner could not seat with anyone still show as sitting out, every round.
  const unseatable = input.guests.filter((_, i) => seatable[i] === null).map((g) => g.id);
  const played = history?.played.length ?? 0;
  return toStored(
    rounds.map((r) => (r.round > played && unseatable.length > 0 ? { ...r, sitOut: [...r.sitOut, ...unseatable] } : r)),
  );
}
