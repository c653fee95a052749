import { Hono } from "hono";
import QRCode from "qrcode";
import { z } from "zod";
import type { AppDeps } from "../deps.ts";
import { noStore, requireAdmin } from "../lib/admin-session.ts";
import { Unauthorized } from "../lib/errors.ts";
import { hostSessionOf, startHostSession } from "../lib/host-session.ts";
import { actorOf } from "../lib/staff.ts";
import { idParam, jsonId, validate } from "../lib/validate.ts";
import { ACTIVITY_PAGE, eventActivity, ORGANISER } from "./activity.ts";
import {
  assertHostDoorsOpen,
  createHostLink,
  hostAccessEnded,
  hostEvent,
  listHostLinks,
  revokeHostLink,
} from "./host-links.ts";

const idParams = z.object({ id: idParam(z) });
// A host's label is their name in the activity log: it may not pass for the organiser, nor carry
// control characters (a newline or an escape would forge or garble a line of the log).
const label = z
  .string()
  .trim()
  .min(1, "Give the link a label, such as Door 1.")
  .max(60, "A label can be at most 60 characters.")
  .refine((v) => v.toLowerCase() !== ORGANISER, "“organiser” is kept for the organiser; choose another label.")
  .refine((v) => !/\p{Cc}/u.test(v), "A label can't contain control characters such as line breaks.");
// `before`: an entry's id from the page already shown, for the entries older than it.
const activityQuery = z.object({
  before: idParam(z).optional(),
  limit: z
    .string()
    .regex(/^[1-9]\d{0,2}$/, "must be a whole number from 1 to 500")
    .transform(Number)
    .refine((n) => n <= ACTIVITY_PAGE, "must be a whole number from 1 to 500")
    .optional(),
});

/**
 * Host links (the organiser makes and revokes them), the host's own sign-in and session, and the
 * organiser's activity log (docs/decisions/022-host-access.md).
 */
export const hostAccessRoutes = (deps: AppDeps) => {
  const admin = requireAdmin(deps);
  return (
    new Hono()
      .post("/host-links", admin, validate("json", z.object({ eventID: jsonId(z), label })), async (c) => {
        const body = c.req.valid("json");
        const link = createHostLink(deps, { eventId: body.eventID, label: body.label, actor: actorOf(c) }, deps.now());
        // Drawn here, as the ticket's is, so the panel's bundle carries no QR encoder.
        const qrCodeImage = await QRCode.toDataURL(link.url, { errorCorrectionLevel: "M", margin: 2, width: 320 });
        return c.json({ ...link, qrCodeImage });
      })
      .get("/admin-event/:id/host-links", admin, validate("param", idParams), (c) => {
        return c.json(listHostLinks(deps, c.req.valid("param").id));
      })
      .post("/revoke-host-link", admin, validate("json", z.object({ id: jsonId(z) })), (c) => {
        revokeHostLink(deps.db, { id: c.req.valid("json").id, actor: actorOf(c) }, deps.now());
        return c.json({ success: true as const });
      })
      .get("/admin-event/:id/activity", admin, validate("param", idParams), validate("query", activityQuery), (c) => {
        return c.json(eventActivity(deps.db, c.req.valid("param").id, c.req.valid("query")));
      })
      // Left loose on purpose, as for the other links: a missing or mistyped token is a 403, not a 400.
      .post("/host-login", validate("json", z.object({ token: z.unknown().optional() })), (c) => {
        noStore(c);
        const link = startHostSession(c, deps, c.req.valid("json").token);
        return c.json({
          eventID: link.eventId,
          label: link.label,
          expiresAt: new Date(link.expiresAt).toISOString(),
          ...hostEvent(deps.db, link.eventId),
        });
      })
      .get("/host-session", (c) => {
        noStore(c);
        const host = hostSessionOf(c, deps);
        if (host === "ended") throw hostAccessEnded();
        if (host === null) throw Unauthorized("no host session", "host_access_ended");
        assertHostDoorsOpen(deps.db, host.eventId, deps.now());
        return c.json({
          eventID: host.eventId,
          label: host.label,
          expiresAt: new Date(host.expiresAt).toISOString(),
          ...hostEvent(deps.db, host.eventId),
        });
      })
  );
};
