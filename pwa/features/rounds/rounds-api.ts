import { type ApiReply, CallFailed, type ErrorData } from "../../lib/api.ts";
import { SERVED_OFFLINE_HEADER } from "../../lib/served-offline.ts";
import { noteAnswerSource } from "../../lib/use-online.ts";
import { useAdminStore } from "../admin/admin-store.ts";

/**
 * The host's calls for the night's rounds (docs/api.md): read the plan and the clock, plan or
 * re-plan from who is present, run the clock, mark someone who went home. Every one answers the
 * same `RoundsState`, so the console simply shows the latest answer.
 */

// TEMPORARY until the server's routes land: replace with Ok<...> from lib/api.ts
// (RoundsState = Ok<(typeof api)["admin-event"][":id"]["rounds"]["$get"]>, and the inputs from the
// routes' `json`), and the local `post`/`get` below with `send(api[...])`.
export type RoundsStatus = "none" | "planned" | "running" | "paused" | "finished";
export type RoundsPhase = "round" | "break";
export type Seated = "female" | "male";
export type RoundsSettings = { roundMinutes: number; breakMinutes: number; maxRounds: number | null; seated: Seated };
export type PlannedPair = { table: number; femaleID: number; maleID: number };
export type PlannedRound = { round: number; pairs: PlannedPair[]; sitOut: number[] };
export type RoundsPerson = {
  userID: number;
  username: string;
  gender: "male" | "female";
  image_name: string;
  left: boolean;
  /** When the door checked them in (ISO 8601, UTC). */
  arrivedAt: string | null;
};
export type RoundsState = {
  status: RoundsStatus;
  settings: RoundsSettings;
  /** The round being played or, in a changeover, the one just played; null before the start. */
  current: number | null;
  phase: RoundsPhase | null;
  /** When the current round or changeover ends, by the server's clock (ISO 8601, UTC). */
  phaseEndsAt: string | number | null;
  /** The server's clock when it answered: with the phone's own clock it gives the offset. */
  serverNow: string | number;
  present: { female: number; male: number };
  rounds: PlannedRound[];
  /** Everyone checked in, those who went home included (`left`). */
  people: RoundsPerson[];
  /** Checked in after the plan was made: not in any round yet. */
  arrivals: number[];
};
export type PlanInput = { eventID: number } & Partial<RoundsSettings>;
export type RunAction = "start" | "pause" | "resume" | "extend" | "next" | "finish";

/** Behaves as lib/api.ts's `send`: any reply is data, only a call that could not be made throws. */
async function call<T>(path: string, init?: RequestInit): Promise<ApiReply<T>> {
  let response: Response;
  try {
    response = await fetch(path, { ...init, credentials: "same-origin" });
  } catch (error) {
    throw new CallFailed(error);
  }
  noteAnswerSource(response.headers.get(SERVED_OFFLINE_HEADER) === "1");
  let data: unknown;
  try {
    data = await response.json();
  } catch (error) {
    throw new CallFailed(error);
  }
  const reply: ApiReply<T> = response.ok
    ? { ok: true, status: response.status, data: data as T }
    : { ok: false, status: response.status, data: data && typeof data === "object" ? (data as ErrorData) : {} };
  // As every admin call: a lapsed session (401) brings the password modal back.
  if (reply.status === 401) useAdminStore.getState().lock();
  return reply;
}

const post = <T>(path: string, json: unknown) =>
  call<T>(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(json) });

export const getRounds = (eventID: number) =>
  call<RoundsState>(`/api/admin-event/${encodeURIComponent(String(eventID))}/rounds`);
export const planRounds = (input: PlanInput) => post<RoundsState>("/api/plan-rounds", input);
export const runRounds = (eventID: number, action: RunAction) =>
  post<RoundsState>("/api/run-rounds", { eventID, action });
export const markLeft = (eventID: number, userID: number, left: boolean) =>
  post<RoundsState>("/api/mark-left", { eventID, userID, left });
