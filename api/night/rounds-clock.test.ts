import { describe, expect, it } from "vitest";
import { advance, applyAction, type Clock, EXTEND_MS, shownPhaseEnd, type Timing } from "./rounds-clock.ts";

const MIN = 60_000;
const T0 = 1_800_000_000_000;
const timing: Timing = { roundMs: 5 * MIN, breakMs: 1 * MIN, totalRounds: 3 };
const planned: Clock = { status: "planned", current: null, phase: null, phaseEndsAt: null, pausedRemainingMs: null };
const started = applyAction(planned, timing, "start", T0);

/** Where the clock stands at a moment, as a short tuple: status, round, phase, ms until the phase ends. */
const at = (clock: Clock, now: number, t: Timing = timing) => {
  const c = advance(clock, t, now);
  return [c.status, c.current, c.phase, c.phaseEndsAt === null ? null : c.phaseEndsAt - now];
};

describe("advance", () => {
  it("runs round, changeover, next round by itself, and finishes after the last round", () => {
    expect(at(started, T0)).toEqual(["running", 1, "round", 5 * MIN]);
    expect(at(started, T0 + 5 * MIN - 1)).toEqual(["running", 1, "round", 1]);
    expect(at(started, T0 + 5 * MIN)).toEqual(["running", 1, "break", 1 * MIN]);
    expect(at(started, T0 + 6 * MIN)).toEqual(["running", 2, "round", 5 * MIN]);
    expect(at(started, T0 + 11 * MIN + 30_000)).toEqual(["running", 2, "break", 30_000]);
    expect(at(started, T0 + 12 * MIN)).toEqual(["running", 3, "round", 5 * MIN]);
    // No changeover after the last round.
    expect(at(started, T0 + 17 * MIN)).toEqual(["finished", 3, null, null]);
    expect(at(started, T0 + 100 * MIN)).toEqual(["finished", 3, null, null]);
  });

  it("goes straight to the next round when changeovers are 0 minutes", () => {
    const noBreak = { ...timing, breakMs: 0 };
    const clock = applyAction(planned, noBreak, "start", T0);
    expect(at(clock, T0 + 5 * MIN, noBreak)).toEqual(["running", 2, "round", 5 * MIN]);
    expect(at(clock, T0 + 15 * MIN, noBreak)).toEqual(["finished", 3, null, null]);
  });

  it("finishes at the end of a changeover when a re-plan left no round after it", () => {
    const inBreak = advance(started, timing, T0 + 5 * MIN);
    expect(at(inBreak, T0 + 6 * MIN, { ...timing, totalRounds: 1 })).toEqual(["finished", 1, null, null]);
  });

  it("leaves a paused, planned or finished clock where it is", () => {
    const paused = applyAction(started, timing, "pause", T0 + MIN);
    expect(advance(paused, timing, T0 + 60 * MIN)).toEqual(paused);
    expect(advance(planned, timing, T0 + 60 * MIN)).toEqual(planned);
  });
});

describe("the host's controls", () => {
  it("refuses to start twice or with nothing planned", () => {
    expect(() => applyAction(started, timing, "start", T0)).toThrow(/running/);
    expect(() => applyAction(planned, { ...timing, totalRounds: 0 }, "start", T0)).toThrow();
  });

  it("pauses with the time left standing still, and resumes from it", () => {
    const paused = applyAction(started, timing, "pause", T0 + 2 * MIN);
    expect(paused).toMatchObject({ status: "paused", current: 1, phase: "round", pausedRemainingMs: 3 * MIN });
    expect(shownPhaseEnd(paused, T0 + 30 * MIN)).toBe(T0 + 33 * MIN);
    const resumed = applyAction(paused, timing, "resume", T0 + 30 * MIN);
    expect(at(resumed, T0 + 30 * MIN)).toEqual(["running", 1, "round", 3 * MIN]);
    expect(at(resumed, T0 + 33 * MIN)).toEqual(["running", 1, "break", MIN]);
    expect(() => applyAction(resumed, timing, "resume", T0)).toThrow();
    expect(() => applyAction(paused, timing, "pause", T0)).toThrow();
  });

  it("adds a minute to a running or paused phase", () => {
    expect(applyAction(started, timing, "extend", T0).phaseEndsAt).toBe(T0 + 5 * MIN + EXTEND_MS);
    const paused = applyAction(started, timing, "pause", T0);
    expect(applyAction(paused, timing, "extend", T0).pausedRemainingMs).toBe(5 * MIN + EXTEND_MS);
    expect(() => applyAction(planned, timing, "extend", T0)).toThrow();
  });

  it("ends the round or the changeover now with next, and finishes after the last round", () => {
    const inBreak = applyAction(started, timing, "next", T0 + MIN);
    expect(at(inBreak, T0 + MIN)).toEqual(["running", 1, "break", MIN]);
    const round2 = applyAction(inBreak, timing, "next", T0 + MIN + 10_000);
    expect(at(round2, T0 + MIN + 10_000)).toEqual(["running", 2, "round", 5 * MIN]);
    const round3 = applyAction(applyAction(round2, timing, "next", T0 + 2 * MIN), timing, "next", T0 + 2 * MIN);
    expect(round3).toMatchObject({ current: 3, phase: "round" });
    expect(applyAction(round3, timing, "next", T0 + 3 * MIN)).toMatchObject({ status: "finished", current: 3 });
  });

  it("moves a paused clock on to the next phase and keeps it paused with all of it left", () => {
    const paused = applyAction(started, timing, "pause", T0 + MIN);
    expect(applyAction(paused, timing, "next", T0 + 2 * MIN)).toEqual({
      status: "paused",
      current: 1,
      phase: "break",
      phaseEndsAt: null,
      pausedRemainingMs: MIN,
    });
  });

  it("finishes a running or paused night, and refuses to finish one not under way", () => {
    expect(applyAction(started, timing, "finish", T0)).toMatchObject({ status: "finished", current: 1, phase: null });
    const paused = applyAction(started, timing, "pause", T0);
    expect(applyAction(paused, timing, "finish", T0).status).toBe("finished");
    expect(() => applyAction(planned, timing, "finish", T0)).toThrow();
    expect(() => applyAction(applyAction(started, timing, "finish", T0), timing, "finish", T0)).toThrow(/finished/);
  });

  it("resumes a finished night in the last round played, with a whole round to go", () => {
    const done = applyAction(started, timing, "finish", T0);
    expect(at(applyAction(done, timing, "resume", T0 + 10 * MIN), T0 + 10 * MIN)).toEqual([
      "running",
      1,
      "round",
      timing.roundMs,
    ]);
    expect(() => applyAction(planned, timing, "resume", T0)).toThrow();
  });
});
