import { guarded } from "../../lib/admin-session.ts";
import { api, type Ok, send } from "../../lib/api.ts";

/**
 * The host's calls for the night's rounds (docs/api.md): read the plan and the clock, plan or
 * re-plan from who is present, run the clock, mark someone who went home. Every one answers the
 * same `RoundsState`, so the console simply shows the latest answer.
 */

// The server's own types (api/night/rounds-routes.ts), read through the typed client.
export type RoundsState = Ok<(typeof api)["admin-event"][":id"]["rounds"]["$get"]>;
export type RoundsStatus = RoundsState["status"];
export type RoundsPhase = NonNullable<RoundsState["phase"]>;
export type RoundsSettings = RoundsState["settings"];
export type Seated = RoundsSettings["seated"];
export type PlannedRound = RoundsState["rounds"][number];
export type PlannedPair = PlannedRound["pairs"][number];
export type RoundsPerson = RoundsState["people"][number];
export type PlanInput = Parameters<(typeof api)["plan-rounds"]["$post"]>[0]["json"];
export type RunAction = Parameters<(typeof api)["run-rounds"]["$post"]>[0]["json"]["action"];

export const getRounds = (eventID: number) =>
  guarded(send(api["admin-event"][":id"].rounds.$get({ param: { id: String(eventID) } })));
export const planRounds = (input: PlanInput) => guarded(send(api["plan-rounds"].$post({ json: input })));
/** The round and phase the console showed when the host pressed: the server refuses a stale press. */
export type ShownClock = { current: number | null; phase: RoundsPhase | null };
export const runRounds = (eventID: number, action: RunAction, shown: ShownClock) =>
  guarded(send(api["run-rounds"].$post({ json: { eventID, action, ...shown } })));
/** **Announce** (issue 37): a line on the room's screen and the guests' phones; "" takes it down. */
export const announceToRoom = (eventID: number, text: string) =>
  guarded(send(api["room-announcement"].$post({ json: { eventID, text } })));
export const markLeft = (eventID: number, userID: number, left: boolean) =>
  guarded(send(api["mark-left"].$post({ json: { eventID, userID, left } })));

// **Keep apart** (docs/decisions/030-nobody-across-the-table-twice.md): the organiser's alone.
export type KeepApartState = Ok<(typeof api)["admin-event"][":id"]["keep-apart"]["$get"]>;
export type KeepApartPair = KeepApartState["pairs"][number];
export type KeepApartGuest = KeepApartState["guests"][number];
export const getKeepApart = (eventID: number) =>
  guarded(send(api["admin-event"][":id"]["keep-apart"].$get({ param: { id: String(eventID) } })));
export const setKeepApart = (eventID: number, userIDs: [number, number], apart: boolean) =>
  guarded(send(api["keep-apart"].$post({ json: { eventID, userIDs, apart } })));
