import { createRoute } from "@hono/zod-openapi";
import type { AppDeps } from "../deps.ts";
import { ADMIN_ERRORS, adminRoute } from "../lib/admin-session.ts";
import { apiRouter, errors, json, jsonBody, z } from "../lib/openapi.ts";
import { logActivity } from "../lib/staff.ts";
import { jsonId } from "../lib/validate.ts";
import { moveEventGuests } from "./guest-choices.ts";

// **Move to another night** (issue 52 part 3, docs/decisions/059-short-of-numbers.md): the desk's
// second action on a night short of numbers. **Cancel the night** is `cancel-event` with
// `guestsChoose: true` (admin-routes.ts).

const moveEventGuestsRoute = createRoute({
  method: "post",
  path: "/move-event-guests",
  summary:
    "Moves a night's guests to a later night of the same format: each keeps a held seat or takes a refund or credit",
  description: [
    "**Move to another night** (docs/decisions/059-short-of-numbers.md).",
    "",
    "- **Who:** organiser session (money roles, as `cancel-event`).",
    "- **Body:** `{fromEventId, toEventId}`.",
    "- **200:** `{success: true, asked}`: the from-night is `cancelled` with `movedToEventId`; each paid",
    "  guest has a seat HELD on the to-night for 72 hours (it counts like any hold) and one text with",
    "  the link `/choose?t=`: keep the seat, or a refund or credit (`guest-choice`); the refund if they",
    "  don't choose. Nobody's money moves now.",
  ].join("\n"),
  request: jsonBody(z.strictObject({ fromEventId: jsonId(z), toEventId: jsonId(z) })),
  responses: {
    200: json(z.strictObject({ success: z.literal(true), asked: z.number().int() })),
    ...errors("post", [...ADMIN_ERRORS, "not_found", "wrong_state", "not_enough_seats"], {
      403: "`forbidden` (a host session, or a role without money).",
      404: "`not_found` (either night).",
      409: "`wrong_state` (the from-night not upcoming; the to-night the same night, not upcoming, started, or another format); `not_enough_seats` (fewer free seats than paid guests, per side at Women meet men), with a sentence.",
    }),
  },
});

export const shortOfNumbersRoutes = (deps: AppDeps) =>
  apiRouter().openapi(adminRoute(deps, moveEventGuestsRoute, "money"), async (c) => {
    const { fromEventId, toEventId } = c.req.valid("json");
    const result = await moveEventGuests(deps, { fromEventId, toEventId });
    logActivity(c, deps, { action: "guests moved", eventId: fromEventId, detail: `to event ${toEventId}` });
    return c.json(result, 200);
  });
