import { useCallback, useEffect, useRef, useState } from "react";
import type { ApiReply } from "../../lib/api.ts";
import { CallFailed } from "../../lib/api.ts";
import { type ReplyState, useReply } from "../../lib/use-reply.ts";
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

type Settled = { status: "error"; message: string } | { status: "ready"; rounds: RoundsState; receivedAt: number };

/** No event picked (`idle`), the rounds on their way, why they could not be read, or the rounds. */
export type ConsoleState = ReplyState<Settled, number | null>;

export type Busy = RunAction | "plan" | "announce" | `left:${number}` | null;

/** A read that failed for no reason the server gave (problemFor's words for it). */
const LOAD_FAILED = "Couldn't load the rounds: please try again.";

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
  const { state, unreachable, setUnreachable, sent, accept, reload, refresh } = useRoundsState(eventID);
  const [busy, setBusy] = useState<Busy>(null);
  const [problem, setProblem] = useState<string | null>(null);

  // Another event (or none): the last problem was about the one before. The rounds are read by useReply.
  useEffect(() => {
    setProblem(null);
    setUnreachable(false);
    if (eventID === null) return;
    const onOnline = () => void refresh();
    window.addEventListener("online", onOnline);
    return () => window.removeEventListener("online", onOnline);
  }, [eventID, refresh, setUnreachable]);

  const ratingsSeen = useRoundsUpdates(eventID, state, refresh, pollMs);

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
        if (reply.data.code === "stale_state") void refresh();
      } catch (error) {
        if (!(error instanceof CallFailed)) throw error;
        setUnreachable(true);
        setProblem(OFFLINE);
      } finally {
        setBusy(null);
      }
      return false;
    },
    [eventID, sent, accept, refresh, organiser, setUnreachable],
  );

  return {
    state,
    busy,
    problem,
    unreachable,
    /** How many `ratings` messages the room's stream brought: the results card reads again on each. */
    ratingsSeen,
    reload,
    /** Reads the rounds again without the loading state: what is shown stays until the answer. */
    refresh,
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
 * The rounds as last answered, read through useReply (docs/decisions/049-one-hook-for-a-reply.md):
 * `reload` shows the loading state, `refresh` reads in place. Every request, a read or an action,
 * takes a number as it goes (`sent`); an answer older than the one shown is dropped, as is one for an
 * event no longer open, so a read overtaken by an action's answer shows that answer still.
 */
function useRoundsState(eventID: number | null) {
  /** The last call could not reach the server. */
  const [unreachable, setUnreachable] = useState(false);
  const sent = useRef(0);
  const shown = useRef(0);
  /** The rounds shown last, by number `shown`. */
  const last = useRef<Settled | null>(null);
  const current = useRef(eventID);
  current.current = eventID;

  /** The rounds to show for this answer, or null when a later one is shown or the event is no longer open. */
  const take = useCallback((forEvent: number, seq: number, rounds: RoundsState): Settled | null => {
    if (current.current !== forEvent || seq < shown.current) return null;
    shown.current = seq;
    last.current = { status: "ready", rounds, receivedAt: Date.now() };
    return last.current;
  }, []);

  const { state, setState, reload, refresh } = useReply(eventID, {
    async load(id: number): Promise<Settled> {
      const seq = ++sent.current;
      const reply = await getRounds(id);
      setUnreachable(false);
      if (!reply.ok) return { status: "error", message: problemFor("load", reply) };
      // Overtaken by an action's answer: that stays. (An answer for another event is dropped by useReply.)
      return take(id, seq, reply.data) ?? last.current ?? { status: "error", message: LOAD_FAILED };
    },
    failed(error): Settled {
      if (!(error instanceof CallFailed)) {
        console.error(error);
        return { status: "error", message: LOAD_FAILED };
      }
      setUnreachable(true);
      return { status: "error", message: "Couldn't reach the server to load the rounds." };
    },
  });

  const accept = useCallback(
    (forEvent: number, seq: number, rounds: RoundsState) => {
      const next = take(forEvent, seq, rounds);
      if (next) setState(next);
    },
    [take, setState],
  );
  return { state, unreachable, setUnreachable, sent, accept, reload, refresh };
}

/**
 * Reads the rounds again (quietly) on each change the room's stream tells of, on a poll (fast while
 * the stream is down) and as a phase's clock runs out. Answers how many `ratings` messages came.
 */
function useRoundsUpdates(
  eventID: number | null,
  state: ConsoleState,
  refresh: () => Promise<void>,
  pollMs: number,
): number {
  // Every message means "read the view again": the console shows far more than the clock, and only
  // the staff's screens listen, so there is no crowd to spare.
  // Ratings arriving (issue 46) change the results card, not the rounds: it is told by `ratingsSeen`.
  const [ratingsSeen, setRatingsSeen] = useState(0);
  const live = useRoomStream(eventID === null ? null : { eventID: String(eventID) }, (event) => {
    if (event.change === "ratings") setRatingsSeen((n) => n + 1);
    else void refresh();
  });
  useEffect(() => {
    if (eventID === null) return;
    const timer = setInterval(
      () => {
        if (navigator.onLine) void refresh();
      },
      live ? Math.max(pollMs, LIVE_POLL_MS) : pollMs,
    );
    return () => clearInterval(timer);
  }, [eventID, refresh, pollMs, live]);
  const ready = state.status === "ready" ? state : null;
  usePhaseEndRefresh(ready?.rounds ?? null, ready?.receivedAt ?? 0, live, () => void refresh());
  return ratingsSeen;
}
