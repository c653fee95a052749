import { createRoute } from "@hono/zod-openapi";
import { feedbackValues } from "../../db/schema.ts";
import type { AppDeps } from "../deps.ts";
import { ADMIN_ERRORS, adminRoute } from "../lib/admin-session.ts";
import { apiRouter, errors, json, jsonBody, z } from "../lib/openapi.ts";
import { callerOf, logActivity, STAFF_ERRORS, seesAsOrganiser, staffRoute } from "../lib/staff.ts";
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
  description: [
    "The Rounds tab's results panel and paper scorecards.",
    "",
    "- **Who:** organiser or host session (a host: its own event only).",
    "- **200:** `{resultsAt, released, ratings: {done, total}, people: [{id, name, gender?, done,",
    "  partners: [{id, username, rated, by, feedback}]}]}`: `resultsAt` ISO 8601 UTC; `people` every paid",
    "  attendee who came (checked in, or seated in a started round; everyone paid when the night left no",
    "  record of either), by name (none before the start), with the partners `get-participants` would",
    "  list them; `rated` whether they rated each, `by` who (`guest` on their phone, `staff` on a paper",
    "  card, `null`); `feedback` the choice (`like`, `dislike`, `null`) for the organiser only: a host",
    "  always gets `null` (docs/decisions/022-host-access.md). `done` when they met someone and rated",
    "  every one; `ratings` counts the same people (`total`: those who came and met someone), and equals",
    "  the summary's `ratings`.",
  ].join("\n"),
  request: { params: z.object({ id: idParam(z) }) },
  responses: {
    200: json(ratingsView),
    ...errors("get", [...STAFF_ERRORS, "invalid_request", "not_found"], {
      403: "`forbidden` (a host, another event), `host_link_not_open` (a host, before the doors open).",
    }),
  },
});

const releaseRoute = createRoute({
  method: "post",
  path: "/release-results",
  summary: "Release results: closes the ratings, opens the reports and texts each attendee who came",
  description: [
    "- **Who:** organiser session.",
    "- **200:** `{success: true, releasedAt, sent, failed}`: `releasedAt` ISO 8601 UTC. Releasing again",
    "  changes nothing and answers the first release's time (`sent` 0).",
    "- At a night with `noMatchPromise`, each guest who came, rated everyone they met and has no match",
    "  gets the price paid as credit on their number, with one text, once (docs/decisions/060-no-match-promise.md).",
  ].join("\n"),
  request: jsonBody(releaseBody),
  responses: {
    200: json(resultsReleased),
    ...errors("post", [...ADMIN_ERRORS, "not_found", "wrong_state"], {
      403: "`forbidden` (a host session).",
      409: "`wrong_state` (not `ended`).",
    }),
  },
});

const paperRoute = createRoute({
  method: "post",
  path: "/admin-save-feedback",
  summary: "A paper scorecard typed in: one rating on a guest's behalf, never over the guest's own",
  description: [
    "A paper scorecard typed in: one rating on a guest's behalf, with `save-feedback`'s rules (partners",
    "met only, from the start until the release). It fills only a pair the guest has not rated on their",
    "own phone, or corrects an earlier card; a pair the guest rated is refused with 409 `rated_by_guest`,",
    "whatever the times, and the guest's own later tap always replaces a card. The activity log records it under",
    "the organiser or the host's label.",
    "",
    "- **Who:** organiser or host session (a host: its own event only).",
    "- **Body (JSON):** `eventID`: id; `fromUserID`: id (the guest); `toUserID`: id (a partner);",
    "  `feedback`: `like` or `dislike`.",
    "- **200:** `{success: true, feedback, clientTs}`: what is stored now.",
  ].join("\n"),
  request: jsonBody(paperBody),
  responses: {
    200: json(storedRating),
    ...errors(
      "post",
      [...STAFF_ERRORS, "not_found", "feedback_not_open", "event_cancelled", "ratings_closed", "rated_by_guest"],
      {
        400: "`invalid_request` (also rating oneself).",
        403: "`forbidden` (a host, another event), `host_link_not_open` (a host, before the doors open).",
        404: "`not_found` (event, `fromUserID` without a paid seat, `toUserID` not one of their partners).",
        409: "`feedback_not_open`, `event_cancelled`, `ratings_closed`, `rated_by_guest` (the guest's own choice stands).",
      },
    ),
  },
});

export const resultsRoutes = (deps: AppDeps) => {
  return apiRouter()
    .openapi(staffRoute(deps, ratingsRoute, { param: "id" }), (c) => {
      const eventId = c.req.valid("param").id;
      const caller = callerOf(c);
      const ratings = eventRatings(deps.db, eventId, deps.now(), { choices: seesAsOrganiser(caller) });
      const people = genderForCaller(ratings.people, formatOfEvent(deps.db, eventId), caller);
      return c.json({ ...ratings, people }, 200);
    })
    .openapi(adminRoute(deps, releaseRoute, "managers"), async (c) => {
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
