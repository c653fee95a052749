import { useEffect, useRef, useState } from "react";
import { type ApiReply, CallFailed } from "../../lib/api.ts";
import { useReply } from "../../lib/use-reply.ts";
import { type Choice, type EventRatings, getRatings, releaseResults, savePaperChoice } from "./results-api.ts";

export type ResultsState = { status: "error"; message: string } | { status: "ready"; ratings: EventRatings };

/** What the organiser reads when the server says no, chosen by the reply's code. */
export function resultsProblem(what: "release" | "save", reply: Extract<ApiReply<unknown>, { ok: false }>) {
  const { code, error } = reply.data;
  if (reply.status === 401) return "Your session ended. Log in again.";
  if (code === "wrong_state") return "End the event first (Overview, End Event): results are released after the night.";
  if (code === "ratings_closed") return "The results are out, so ratings are closed.";
  if (code === "rated_by_guest") return "This guest rated that person on their phone; their own choice stands.";
  if (code === "feedback_not_open") return "Ratings open when the event starts.";
  if (code === "not_found") return "That guest did not meet this person, or is no longer a participant.";
  return `Couldn't ${what === "release" ? "release the results" : "save that choice"}: ${error ?? "please try again."}`;
}

/**
 * The ratings of the picked event, with Release results and the paper scorecard's Like / Dislike.
 * A new `refreshKey` (the room's stream told of ratings) reads them again without a loading flash.
 */
export function useResults(eventID: number | null, refreshKey?: number) {
  const [busy, setBusy] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const { state, reload, refresh } = useReply(eventID, {
    async load(id: number): Promise<ResultsState> {
      const reply = await getRatings(id);
      return reply.ok
        ? { status: "ready", ratings: reply.data }
        : { status: "error", message: `Couldn't load the ratings: ${reply.data.error ?? "please try again."}` };
    },
    failed: (): ResultsState => ({ status: "error", message: "Can't reach the server to load the ratings." }),
  });
  // Another event picked: the last action's problem was about the one before.
  // biome-ignore lint/correctness/useExhaustiveDependencies: eventID is what clears it
  useEffect(() => {
    setProblem(null);
  }, [eventID]);
  const seenKey = useRef(refreshKey);
  useEffect(() => {
    if (seenKey.current === refreshKey) return;
    seenKey.current = refreshKey;
    void refresh();
  }, [refreshKey, refresh]);

  const act = async (key: string, call: () => Promise<ApiReply<unknown>>, what: "release" | "save") => {
    setBusy(key);
    setProblem(null);
    try {
      const reply = await call();
      if (!reply.ok) setProblem(resultsProblem(what, reply));
      await refresh();
    } catch (error) {
      if (!(error instanceof CallFailed)) throw error;
      setProblem("No connection: try again once you're online.");
    } finally {
      setBusy(null);
    }
  };

  return {
    state,
    busy,
    problem,
    dismissProblem: () => setProblem(null),
    reload,
    release: () => (eventID === null ? Promise.resolve() : act("release", () => releaseResults(eventID), "release")),
    choose: (fromUserID: number, toUserID: number, choice: Choice) =>
      eventID === null
        ? Promise.resolve()
        : act(`${fromUserID}:${toUserID}`, () => savePaperChoice(eventID, fromUserID, toUserID, choice), "save"),
  };
}
