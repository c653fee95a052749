import type { MyRounds, MyRoundsEntry, MyRoundsPartner } from "./my-rounds.ts";

/**
 * What the guest's phone shows of the night, from one my-rounds answer. Pure, so each moment (before
 * the start, a round, a changeover, a round sat out, the end) is tested without a page.
 */
export type NightMoment = {
  round: number;
  table: number | null;
  /** null: this guest sits this round out ("Break this round"). */
  partner: MyRoundsPartner | null;
};

export type NightView =
  /** No plan yet (or no rounds at this event). */
  | { kind: "none" }
  /** Present but in no round yet: a late arrival waiting for the host to re-plan. */
  | { kind: "not-seated" }
  /** `firstTable`: the first round with a partner, when round 1 is sat out. */
  | { kind: "before"; total: number; first: NightMoment; firstTable: NightMoment | null }
  | { kind: "round"; total: number; now: NightMoment; paused: boolean }
  /** The changeover after `round`: `next` is where to go (null after the last round). */
  | { kind: "break"; round: number; total: number; next: NightMoment | null; paused: boolean }
  | { kind: "finished" };

const momentOf = (schedule: MyRoundsEntry[], round: number): NightMoment => {
  const entry = schedule.find((e) => e.round === round);
  return { round, table: entry?.table ?? null, partner: entry?.partner ?? null };
};

export function nightView(reply: MyRounds): NightView {
  if (reply.status === "none") return { kind: "none" };
  if (reply.status === "finished") return { kind: "finished" };
  const schedule = reply.schedule;
  const total = Math.max(0, reply.current ?? 0, ...schedule.map((e) => e.round));
  const current = reply.current ?? 0;
  const paused = reply.status === "paused";
  // Rounds from here on that name this guest: none means the host has not seated them yet.
  const ahead = schedule.filter((e) => e.round >= Math.max(1, current));
  if (reply.status === "planned" || current === 0) {
    const first = schedule.length ? Math.min(...schedule.map((e) => e.round)) : null;
    if (first === null) return { kind: "not-seated" };
    const moment = momentOf(schedule, first);
    const seated = [...schedule].sort((a, b) => a.round - b.round).find((e) => e.partner);
    const firstTable = moment.partner || !seated ? null : momentOf(schedule, seated.round);
    return { kind: "before", total, first: moment, firstTable };
  }
  if (ahead.length === 0) return { kind: "not-seated" };
  if (reply.phase === "break") {
    const next = current < total ? momentOf(schedule, current + 1) : null;
    return { kind: "break", round: current, total, next, paused };
  }
  return { kind: "round", total, now: momentOf(schedule, current), paused };
}

/** `Round 3 of 9` */
export const roundOf = (round: number, total: number) => `Round ${round} of ${total}`;

/**
 * The partners grid, newest first: the partner of the latest round played comes first. People the
 * schedule does not place (no plan, or met before a re-plan) keep the server's order, after them.
 */
export function newestFirst<P extends { id: number }>(partners: P[], reply: MyRounds | null): P[] {
  if (!reply || reply.status === "none" || reply.status === "planned") return partners;
  const played = reply.current ?? 0;
  const lastMet = new Map<number, number>();
  for (const e of reply.schedule) {
    if (e.partner && e.round <= played) lastMet.set(e.partner.id, Math.max(e.round, lastMet.get(e.partner.id) ?? 0));
  }
  return partners
    .map((p, index) => ({ p, index, round: lastMet.get(p.id) ?? 0 }))
    .sort((a, b) => b.round - a.round || a.index - b.index)
    .map((x) => x.p);
}
