import { Conflict } from "../lib/errors.ts";

/**
 * The night's clock as pure functions over plain data (docs/decisions/019-running-the-night.md).
 * Only the last change is stored; `advance` works out where the clock has got to since, so the next
 * round starts by itself without a background job, and a restart loses nothing.
 *
 * `current` is the round that started last, so during a break it is the round just played and the
 * movers are on their way to round `current + 1`. There is no break before the first round nor
 * after the last: the last round's end finishes the rounds.
 */

export type ClockStatus = "planned" | "running" | "paused" | "finished";
export type ClockPhase = "round" | "break";

export type Clock = {
  status: ClockStatus;
  current: number | null;
  phase: ClockPhase | null;
  /** Epoch ms; set while running only. */
  phaseEndsAt: number | null;
  /** The time left in the phase; set while paused only. */
  pausedRemainingMs: number | null;
};

export type Timing = { roundMs: number; breakMs: number; totalRounds: number };

export type ClockAction = "start" | "pause" | "resume" | "extend" | "next" | "finish";

/** What **+1 min** adds. */
export const EXTEND_MS = 60_000;

const finished = (clock: Clock): Clock => ({
  status: "finished",
  current: clock.current,
  phase: null,
  phaseEndsAt: null,
  pausedRemainingMs: null,
});

/** The phase after a running clock's current one, which ended at `at`. */
function step(clock: Clock, timing: Timing, at: number): Clock {
  const current = clock.current ?? 0;
  // A re-plan may have left fewer rounds than the one being played: its end is then the last.
  if (current >= timing.totalRounds) return finished(clock);
  if (clock.phase === "round" && timing.breakMs > 0) {
    return { ...clock, phase: "break", phaseEndsAt: at + timing.breakMs };
  }
  return { ...clock, current: current + 1, phase: "round", phaseEndsAt: at + timing.roundMs };
}

/** Where a running clock stands at `now`: every phase that ended by then has given way to the next. */
export function advance(clock: Clock, timing: Timing, now: number): Clock {
  let next = clock;
  while (next.status === "running" && next.phaseEndsAt !== null && next.phaseEndsAt <= now) {
    next = step(next, timing, next.phaseEndsAt);
  }
  return next;
}

const refuse = (clock: Clock, action: ClockAction): never => {
  throw Conflict(`the rounds are ${clock.status}; "${action}" is not possible now`, "wrong_state");
};

/**
 * The host's controls, applied to a clock already advanced to `now`. An action that makes no sense
 * in the current status (pause what is not running, start twice) is a 409, so a repeated tap of
 * **Start rounds** or **Pause** changes nothing.
 */
export function applyAction(clock: Clock, timing: Timing, action: ClockAction, now: number): Clock {
  const live = clock.status === "running" || clock.status === "paused";
  switch (action) {
    case "start":
      if (clock.status !== "planned" || timing.totalRounds < 1) return refuse(clock, action);
      return {
        status: "running",
        current: 1,
        phase: "round",
        phaseEndsAt: now + timing.roundMs,
        pausedRemainingMs: null,
      };
    case "pause":
      if (clock.status !== "running") return refuse(clock, action);
      return {
        ...clock,
        status: "paused",
        phaseEndsAt: null,
        pausedRemainingMs: Math.max(0, (clock.phaseEndsAt ?? now) - now),
      };
    case "resume":
      // From finished (the event still started: the caller checks), the last round played comes back
      // with a whole round to go, so a Next pressed once too often in the last round, or Finish
      // rounds pressed early, is not the end of the night. Next or Finish ends it again.
      if (clock.status === "finished" && clock.current !== null) {
        return {
          status: "running",
          current: clock.current,
          phase: "round",
          phaseEndsAt: now + timing.roundMs,
          pausedRemainingMs: null,
        };
      }
      if (clock.status !== "paused") return refuse(clock, action);
      return {
        ...clock,
        status: "running",
        phaseEndsAt: now + (clock.pausedRemainingMs ?? 0),
        pausedRemainingMs: null,
      };
    case "extend":
      if (clock.status === "running") return { ...clock, phaseEndsAt: (clock.phaseEndsAt ?? now) + EXTEND_MS };
      if (clock.status === "paused") return { ...clock, pausedRemainingMs: (clock.pausedRemainingMs ?? 0) + EXTEND_MS };
      return refuse(clock, action);
    case "next": {
      if (!live) return refuse(clock, action);
      const moved = step({ ...clock, status: "running" }, timing, now);
      // Paused, the clock moves on and stays paused, with the whole of the new phase left.
      if (clock.status === "paused" && moved.status === "running") {
        return { ...moved, status: "paused", pausedRemainingMs: (moved.phaseEndsAt ?? now) - now, phaseEndsAt: null };
      }
      return moved;
    }
    case "finish":
      if (!live) return refuse(clock, action);
      return finished(clock);
  }
}

/**
 * When the phase ends as a phone should count down to it: while paused, the end it would have if
 * resumed now, so `phaseEndsAt − serverNow` is the time left, standing still.
 */
export function shownPhaseEnd(clock: Clock, now: number): number | null {
  if (clock.status === "running") return clock.phaseEndsAt;
  if (clock.status === "paused") return now + (clock.pausedRemainingMs ?? 0);
  return null;
}
