import { useCallback, useEffect, useRef, useState } from "react";
import type { ApiReply } from "../../lib/api.ts";
import { CallFailed } from "../../lib/api.ts";
import { LIVE_POLL_MS, usePhaseEndRefresh, useRoomStream } from "../../lib/use-room-stream.ts";
import {
  announceToRoom,
  getRounds,
  markLeft,
  type PlanInput,
  planRounds,
  type RoundsState,
  type RunAction,
  runRounds,
  type ShownClock,
} from "./rounds-api.ts";

/**
 * Without the room's stream the console asks the server again this often while the tab is open (the
 * guests poll every 5 s); with it, on each change it tells of and once a minute.
 */
export const ROUNDS_POLL_MS = 3_000;

export type ConsoleState =
  | { status: "idle" }
  | { status: "loading" }
  | { status: "error"; message: string }
  | { status: "ready"; rounds: RoundsState; receivedAt: number };

export type Busy = RunAction | "plan" | "announce" | `left:${number}` | null;

const OFFLINE = "No connection: the controls need the network. The timer keeps running.";

const actionWords: Record<RunAction, string> = {
  start: "start the rounds",
  pause: "pause",
  resume: "resume",
  extend: "add a minute",
  next: "move on",
  finish: "finish the rounds",
};

/** What the host reads when the server says no, chosen by the reply's code, never its wording. */
export function problemFor(
  what: RunAction | "plan" | "left" | "announce" | "load",
  reply: Extract<ApiReply<unknown>, { ok: false }>,
  organiser = true,
) {
  const { code, error } = reply.data;
  if (reply.status === 401) return "Your session ended. Log in again.";
  if (code === "not_found") return "This event no longer exists.";
  if (code === "stale_state") {
    return "The rounds had already moved on, so nothing changed. Here is where they are now: press again if you still need to.";
  }
  if (code === "wrong_state") {
    // Start Event sits at the top of the organiser's Rounds tab (NightActions); a host's tab has none.
    if (what === "plan")
      return organiser
        ? "Start the event first (Start Event, at the top of this tab): the rounds are planned from who checked in."
        : "The organiser starts the event first (Start Event on their Rounds tab): the rounds are planned from who checked in.";
    if (what === "left") return "The rounds are over: nothing to change.";
    if (what === "announce") return error ?? "An announcement shows while the rounds run.";
    if (what !== "load") return `Can't ${actionWords[what]} now: ${error ?? "the rounds are not in that state."}`;
  }
  if (code === "invalid_request" && what === "announce") return error ?? "Shorten the announcement.";
  if (code === "invalid_request") return `Check the settings: ${error ?? "a value is out of range."}`;
  const verb =
    what === "plan"
      ? "plan the rounds"
      : what === "left" || what === "announce"
        ? "save that"
        : what === "load"
          ? "load the rounds"
          : actionWords[what];
  return `Couldn't ${verb}: ${error ?? "please try again."}`;
}

/**
 * The Rounds console's data (and the room's Full screen): the event's rounds, asked for again on each
 * change the room's stream tells of (another host's tap, a guest marked Left) or every few seconds
 * while the stream is down, and the host's actions, each answered with the whole new state. An answer is shown only if no later
 * request has been answered already, so a slow poll never undoes a tap.
 */
export function useRounds(eventID: number | null, pollMs = ROUNDS_POLL_MS, organiser = true) {
  const { state, setState, unreachable, setUnreachable, sent, accept, load } = useRoundsState(eventID);
  const [busy, setBusy] = useState<Busy>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    setProblem(null);
    setUnreachable(false);
    if (eventID === null) {
      setState({ status: "idle" });
      return;
    }
    void load(false);
    const onOnline = () => void load(true);
    window.addEventListener("online", onOnline);
    return () => window.removeEventListener("online", onOnline);
  }, [eventID, load, setState, setUnreachable]);

  const ratingsSeen = useRoundsUpdates(eventID, state, load, pollMs);

  const perform = useCallback(
    async (
      what: Exclude<Busy, null>,
      kind: RunAction | "plan" | "left" | "announce",
      call: () => Promise<ApiReply<RoundsState>>,
    ) => {
      if (eventID === null) return false;
      const seq = ++sent.current;
      setBusy(what);
      setProblem(null);
      try {
        const reply = await call();
        setUnreachable(false);
        if (reply.ok) {
          accept(eventID, seq, reply.data);
          return true;
        }
        setProblem(problemFor(kind, reply, organiser));
        // The screen was behind the server (a second press, a round that ended by itself): show now.
        if (reply.data.code === "stale_state") void load(true);
      } catch (error) {
        if (!(error instanceof CallFailed)) throw error;
        setUnreachable(true);
        setProblem(OFFLINE);
      } finally {
        setBusy(null);
      }
      return false;
    },
    [eventID, sent, accept, load, organiser, setUnreachable],
  );

  return {
    state,
    busy,
    problem,
    unreachable,
    /** How many `ratings` messages the room's stream brought: the results card reads again on each. */
    ratingsSeen,
    reload: () => load(false),
    /** Reads the rounds again without the loading state: what is shown stays until the answer. */
    refresh: () => load(true),
    run: (action: RunAction, shown: ShownClock) => perform(action, action, () => runRounds(eventID!, action, shown)),
    plan: (settings: Omit<PlanInput, "eventID">) =>
      perform("plan", "plan", () => planRounds({ eventID: eventID!, ...settings })),
    /** The plan these settings would give now, storing nothing; null when it can't be read. */
    previewPlan: async (settings: Omit<PlanInput, "eventID">): Promise<RoundsState | null> => {
      if (eventID === null) return null;
      try {
        const reply = await planRounds({ eventID, ...settings, preview: true });
        return reply.ok ? reply.data : null;
      } catch (error) {
        if (!(error instanceof CallFailed)) throw error;
        return null;
      }
    },
    announce: (text: string) => perform("announce", "announce", () => announceToRoom(eventID!, text)),
    setLeft: (userID: number, left: boolean) =>
      perform(`left:${userID}`, "left", () => markLeft(eventID!, userID, left)),
    dismissProblem: () => setProblem(null),
  };
}

/**
 * The rounds as last answered, and `load` to ask again. Every request takes a number as it goes
 * (`sent`); an answer older than the one shown is dropped, as is one for an event no longer open.
 */
function useRoundsState(eventID: number | null) {
  const [state, setState] = useState<ConsoleState>({ status: "idle" });
  /** The last call could not reach the server. */
  const [unreachable, setUnreachable] = useState(false);
  const sent = useRef(0);
  const shown = useRef(0);
  const current = useRef(eventID);
  current.current = eventID;

  const accept = useCallback((forEvent: number, seq: number, rounds: RoundsState) => {
    if (current.current !== forEvent || seq < shown.current) return;
    shown.current = seq;
    setState({ status: "ready", rounds, receivedAt: Date.now() });
  }, []);

  const load = useCallback(
    async (quiet: boolean) => {
      if (eventID === null) return;
      const seq = ++sent.current;
      if (!quiet) setState({ status: "loading" });
      try {
        const reply = await getRounds(eventID);
        setUnreachable(false);
        if (reply.ok) accept(eventID, seq, reply.data);
        else if (!quiet && current.current === eventID)
          setState({ status: "error", message: problemFor("load", reply) });
      } catch (error) {
        if (!(error instanceof CallFailed)) throw error;
        setUnreachable(true);
        if (!quiet && current.current === eventID) {
          setState({ status: "error", message: "Couldn't reach the server to load the rounds." });
        }
      }
    },
    [eventID, accept],
  );
  return { state, setState, unreachable, setUnreachable, sent, accept, load };
}

/**
 * Reads the rounds again (quietly) on each change the room's stream tells of, on a poll (fast while
 * the stream is down) and as a phase's clock runs out. Answers how many `ratings` messages came.
 */
function useRoundsUpdates(
  eventID: number | null,
  state: ConsoleState,
  load: (quiet: boolean) => Promise<void>,
  pollMs: number,
): number {
  // Every message means "read the view again": the console shows far more than the clock, and only
  // the staff's screens listen, so there is no crowd to spare.
  // Ratings arriving (issue 46) change the results card, not the rounds: it is told by `ratingsSeen`.
  const [ratingsSeen, setRatingsSeen] = useState(0);
  const live = useRoomStream(eventID === null ? null : { eventID: String(eventID) }, (event) => {
    if (event.change === "ratings") setRatingsSeen((n) => n + 1);
    else void load(true);
  });
  useEffect(() => {
    if (eventID === null) return;
    const timer = setInterval(
      () => {
        if (navigator.onLine) void load(true);
      },
      live ? Math.max(pollMs, LIVE_POLL_MS) : pollMs,
    );
    return () => clearInterval(timer);
  }, [eventID, load, pollMs, live]);
  const ready = state.status === "ready" ? state : null;
  usePhaseEndRefresh(ready?.rounds ?? null, ready?.receivedAt ?? 0, live, () => void load(true));
  return ratingsSeen;
}
