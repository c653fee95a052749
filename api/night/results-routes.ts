import { createRoute } from "@hono/zod-openapi";
import { feedbackValues } from "../../db/schema.ts";
import type { AppDeps } from "../deps.ts";
import { ADMIN_ERRORS, requireAdmin } from "../lib/admin-session.ts";
import { apiRouter, errors, json, jsonBody, z } from "../lib/openapi.ts";
import { callerOf, logActivity, STAFF_ERRORS, staffRoute } from "../lib/staff.ts";
import { idParam, jsonId } from "../lib/validate.ts";
import { formatOfEvent, genderForCaller } from "./host-gender.ts";
import { ratingsView, resultsReleased, storedRating } from "./night-schemas.ts";
import { adminSaveFeedback } from "./ratings.ts";
import { eventRatings, releaseResults } from "./results.ts";
import { notifyRatings } from "./room-events.ts";

// A night's results (docs/decisions/021-results.md): the organiser releases them early, types in
// paper scorecards, and follows who has rated. Every answer is personal, so none is cached. A host
// (docs/decisions/022-host-access.md) may follow the ratings and type in paper cards for their own
// night; releasing is the organiser's.

const id = jsonId(z);
const releaseBody = z.object({ eventId: id });
const paperBody = z.object({ eventID: id, fromUserID: id, toUserID: id, feedback: z.enum(feedbackValues) });

/** What requireAdmin answers (api/lib/admin-session.ts): no session, or a host's. */

const ratingsRoute = createRoute({
  method: "get",
  path: "/admin-event/{id}/ratings",
  summary: "Who has rated whom they met (the choices for the organiser only), for the results panel",
  request: { params: z.object({ id: idParam(z) }) },
  responses: { 200: json(ratingsView), ...errors("get", [...STAFF_ERRORS, "invalid_request", "not_found"]) },
});

const releaseRoute = createRoute({
  method: "post",
  path: "/release-results",
  summary: "Release results: closes the ratings, opens the reports and texts each attendee who came",
  request: jsonBody(releaseBody),
  responses: { 200: json(resultsReleased), ...errors("post", [...ADMIN_ERRORS, "not_found", "wrong_state"]) },
});

const paperRoute = createRoute({
  method: "post",
  path: "/admin-save-feedback",
  summary: "A paper scorecard typed in: one rating on a guest's behalf, never over the guest's own",
  request: jsonBody(paperBody),
  responses: {
    200: json(storedRating),
    ...errors("post", [
      ...STAFF_ERRORS,
      "not_found",
      "feedback_not_open",
      "event_cancelled",
      "ratings_closed",
      "rated_by_guest",
    ]),
  },
});

export const resultsRoutes = (deps: AppDeps) => {
  const admin = requireAdmin(deps);
  return apiRouter()
    .openapi(staffRoute(deps, ratingsRoute, { param: "id" }), (c) => {
      const eventId = c.req.valid("param").id;
      const caller = callerOf(c);
      const ratings = eventRatings(deps.db, eventId, deps.now(), { choices: caller.role === "organiser" });
      const people = genderForCaller(ratings.people, formatOfEvent(deps.db, eventId), caller);
      return c.json({ ...ratings, people }, 200);
    })
    .openapi({ ...releaseRoute, middleware: admin }, async (c) => {
      const eventId = c.req.valid("json").eventId;
      const { releasedAt, releasedNow, sent, failed } = await releaseResults(deps, eventId);
      if (releasedNow) logActivity(c, deps, { action: "results released", eventId });
      return c.json({ success: true as const, releasedAt: new Date(releasedAt).toISOString(), sent, failed }, 200);
    })
    .openapi(staffRoute(deps, paperRoute, { json: "eventID" }), (c) => {
      const body = c.req.valid("json");
      const stored = adminSaveFeedback(
        deps.db,
        { eventId: body.eventID, fromUserId: body.fromUserID, toUserId: body.toUserID, value: body.feedback },
        deps.now(),
      );
      notifyRatings(deps, body.eventID);
      logActivity(c, deps, {
        action: "paper card entered",
        eventId: body.eventID,
        userId: body.fromUserID,
        otherUserId: body.toUserID,
        detail: body.feedback,
      });
      return c.json({ success: true as const, ...stored }, 200);
    });
};
