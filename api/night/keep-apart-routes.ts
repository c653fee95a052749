import { createRoute } from "@hono/zod-openapi";
import type { AppDeps } from "../deps.ts";
import { adminRoute } from "../lib/admin-session.ts";
import { apiRouter, errors, json, jsonBody, z } from "../lib/openapi.ts";
import { logActivity } from "../lib/staff.ts";
import { idParam, jsonId } from "../lib/validate.ts";
import { getKeepApart, setKeepApart } from "./keep-apart.ts";
import { keepApartChanged, keepApartView } from "./night-schemas.ts";
import { notifyRoom } from "./room-events.ts";

// **Keep apart** (keep-apart.ts, docs/decisions/030-nobody-across-the-table-twice.md): the
// organiser's card on the rounds console, chained by rounds-routes.ts.

const id = jsonId(z);
const eventParam = z.object({ id: idParam(z) });
const keepApartBody = z.object({
  eventID: id,
  userIDs: z
    .array(id)
    .length(2, "must be two guests")
    .refine(([a, b]) => Number(a) !== Number(b), "must be two different guests"),
  apart: z.boolean(),
});
/** The organiser's session: 401 without it, 403 for a host session (requireAdmin). */
const ORGANISER = ["admin_session_required", "forbidden"] as const;

const keepApartListRoute = createRoute({
  method: "get",
  path: "/admin-event/{id}/keep-apart",
  summary: "Keep apart: the pairs of guests marked never to be seated together, and the guests (organiser)",
  description: [
    "**Keep apart**: the pairs of the event's guests the organiser marked never to be seated together,",
    "and the guests who may be marked (docs/decisions/030-nobody-across-the-table-twice.md).",
    "",
    "- **Who:** organiser session.",
    "- **200:** `{pairs: [{userIDs: [a, b], names: [nameA, nameB]}], guests: [{userID, username,",
    "  gender}]}`: the pairs oldest first, the lower id first in each; `guests` the event's paid",
    "  bookings by name. No emails, no phones, no photos.",
  ].join("\n"),
  request: { params: eventParam },
  responses: {
    200: json(keepApartView),
    ...errors("get", ["invalid_request", ...ORGANISER, "not_found"], { 403: "`forbidden` (a host session)." }),
  },
});

const keepApartRoute = createRoute({
  method: "post",
  path: "/keep-apart",
  summary: "Keep apart: marks two guests never to be seated together, or takes the mark off (organiser)",
  description: [
    "Marks two guests of the event **Keep apart** (exes, siblings, colleagues), or takes the mark off.",
    "Every plan and re-plan from then on seats them apart; if the plan seats them together in a round",
    "not yet started, those rounds are re-planned at once (as **Re-plan rounds**, the settings as they",
    "are; logged as `rounds planned`). Marking a pair twice, or unmarking one not marked, changes",
    "nothing. Logged as `kept apart` or `keep apart undone`.",
    "",
    "- **Who:** organiser session.",
    "- **Body (JSON):** `eventID`: id; `userIDs`: two different ids, guests of this event (a paid",
    "  booking; to take a mark off, a marked pair needs no booking any more); `apart`: boolean.",
    "- **200:** the card as `GET /api/admin-event/{id}/keep-apart` answers it, and `replanned`: whether",
    "  the rounds were re-planned.",
  ].join("\n"),
  request: jsonBody(keepApartBody),
  responses: {
    200: json(keepApartChanged),
    ...errors("post", [...ORGANISER, "not_found", "wrong_state", "room_too_large"], {
      400: "`invalid_request` (not two different ids).",
      403: "`forbidden` (a host session).",
      404: "`not_found` (event, or a guest without a paid seat at it: another event's guest is refused the same way).",
      409: "`wrong_state` (the event has ended or was cancelled), `room_too_large` (the re-plan it needs: see `plan-rounds`).",
    }),
  },
});

export const keepApartRoutes = (deps: AppDeps) => {
  // Keep apart is the organiser's alone: why two guests are kept apart is nobody else's business.
  return apiRouter()
    .openapi(adminRoute(deps, keepApartListRoute, "managers"), (c) =>
      c.json(getKeepApart(deps.db, c.req.valid("param").id), 200),
    )
    .openapi(adminRoute(deps, keepApartRoute, "managers"), (c) => {
      const body = c.req.valid("json");
      const [a, b] = body.userIDs.map(Number) as [number, number];
      const { changed, ...reply } = setKeepApart(
        deps.db,
        { eventId: body.eventID, userIds: [a, b], apart: body.apart },
        deps.now(),
      );
      if (changed) {
        logActivity(c, deps, {
          action: body.apart ? "kept apart" : "keep apart undone",
          eventId: body.eventID,
          userId: Math.min(a, b),
          otherUserId: Math.max(a, b),
        });
      }
      if (reply.replanned) {
        logActivity(c, deps, { action: "rounds planned", eventId: body.eventID, detail: "keep apart" });
        notifyRoom(deps, body.eventID, "plan");
      }
      return c.json(reply, 200);
    });
};
