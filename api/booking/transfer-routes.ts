import { createRoute } from "@hono/zod-openapi";
import type { AppDeps } from "../deps.ts";
import { requireGuest } from "../lib/guest-session.ts";
import { apiRouter, errors, json, z } from "../lib/openapi.ts";
import { jsonId } from "../lib/validate.ts";
import { auMobile } from "./phone.ts";
import { offerTransfer } from "./transfer.ts";

// **Give my ticket to a friend** (issue 52, docs/decisions/058-ticket-transfer.md): the offer. The
// friend's acceptance is `save-user-details` with `transferToken` (save-details-routes.ts).

const id = jsonId(z);

const transferTicketRoute = createRoute({
  method: "post",
  path: "/transfer-ticket",
  summary: "The signed-in guest gives their paid ticket to a friend's mobile: the friend is texted a link to take it",
  description: [
    "**Give my ticket to a friend** on the ticket (docs/decisions/058-ticket-transfer.md).",
    "",
    "- **Who:** guest session; the booking's phone must be the session's number (as `cancel-booking`).",
    "- **Body:** `{eventID, userID, toPhone}`: `toPhone` an Australian mobile, as on the phone step.",
    '- **200:** `{status: "offered"}`: the friend\'s number is texted (transactional, through the outbox)',
    "  the link `/transfer?t={token}`, a signed capability naming this offer. There the friend verifies",
    "  the number (`send-otp`, `verify-otp`) and sends `save-user-details` with `transferToken`. A new",
    "  offer of the same ticket replaces the open one (its link stops working). The friend's number is",
    "  kept only until the offer is accepted, replaced or expires (the doors opening). `Cache-Control: no-store`.",
  ].join("\n"),
  request: {
    body: {
      required: true,
      content: { "application/json": { schema: z.strictObject({ eventID: id, userID: id, toPhone: auMobile }) } },
    },
  },
  responses: {
    200: json(z.strictObject({ status: z.literal("offered") })),
    ...errors(
      "post",
      [
        "guest_session_required",
        "forbidden",
        "not_paid",
        "not_transferable",
        "transfer_own_number",
        "transfer_has_ticket",
        "transfer_doors_open",
      ],
      {
        403: "`forbidden` (no such booking, or another number's: the two answer alike, and nothing changes).",
        409: "`not_paid` (nothing to give), `not_transferable` (already given, or itself given by a friend: one move per ticket), `transfer_own_number`, `transfer_has_ticket` (that number holds a paid ticket for the night), `transfer_doors_open` (the doors have opened, or the night started, ended or was cancelled). Each with a sentence saying why.",
      },
    ),
  },
});

export const transferRoutes = (deps: AppDeps) =>
  apiRouter().openapi({ ...transferTicketRoute, middleware: requireGuest(deps) }, async (c) => {
    const { eventID, userID, toPhone } = c.req.valid("json");
    return c.json(await offerTransfer(deps, c.var.guest.phone, { eventId: eventID, userId: userID, toPhone }), 200);
  });
