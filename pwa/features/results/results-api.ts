import { guarded } from "../../lib/admin-session.ts";
import { api, type Ok, send } from "../../lib/api.ts";

/**
 * The organiser's calls for a night's results (docs/api.md, Results): who has rated, the paper
 * scorecards, and Release results.
 */

// The server's own types (api/night/results-routes.ts), read through the typed client.
export type EventRatings = Ok<(typeof api)["admin-event"][":id"]["ratings"]["$get"]>;
export type Scorecard = EventRatings["people"][number];
export type Choice = "like" | "friend" | "dislike";

export const getRatings = (eventID: number) =>
  guarded(send(api["admin-event"][":id"].ratings.$get({ param: { id: String(eventID) } })));
export const releaseResults = (eventId: number) => guarded(send(api["release-results"].$post({ json: { eventId } })));
export const savePaperChoice = (eventID: number, fromUserID: number, toUserID: number, feedback: Choice) =>
  guarded(send(api["admin-save-feedback"].$post({ json: { eventID, fromUserID, toUserID, feedback } })));
