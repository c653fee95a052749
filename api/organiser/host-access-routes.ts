import { createRoute } from "@hono/zod-openapi";
import QRCode from "qrcode";
import { withoutInvisibleControls } from "../../common/plain-text.ts";
import type { AppDeps } from "../deps.ts";
import { ADMIN_ERRORS, noStore, requireAdmin } from "../lib/admin-session.ts";
import { Unauthorized } from "../lib/errors.ts";
import { hostSessionOf, startHostSession } from "../lib/host-session.ts";
import { apiRouter, done, errors, json, jsonBody, z } from "../lib/openapi.ts";
import { actorOf } from "../lib/staff.ts";
import { idParam, jsonId } from "../lib/validate.ts";
import { endStreamsFor } from "../night/room-events.ts";
import { ACTIVITY_PAGE, ACTOR_KINDS, eventActivity, ORGANISER } from "./activity.ts";
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
  .refine((v) => !/\p{Cc}/u.test(v), "A label can't contain control characters such as line breaks.")
  .refine(withoutInvisibleControls, "A label can't contain invisible direction or line-separator characters.");
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

const time = z.iso.datetime();

/** A host link as the organiser's page lists it (HostLinkRow, host-links.ts). */
const hostLink = z.strictObject({
  id: z.number().int(),
  eventID: z.number().int(),
  label: z.string(),
  url: z.string(),
  expiresAt: time,
  createdAt: time,
  revokedAt: time.nullable(),
});

/** The host's header: who they are, for which night, until when (host-login and host-session). */
const hostSession = z.strictObject({
  eventID: z.number().int(),
  label: z.string(),
  expiresAt: time,
  eventName: z.string(),
  timeZone: z.string(),
});

/** A person an activity entry concerns; `name` null once their data was erased. */
const activityPerson = z.strictObject({ userID: z.number().int(), name: z.string().nullable() }).nullable();

/** One entry of the activity log (ActivityRow, activity.ts). */
const activityEntry = z.strictObject({
  id: z.number().int(),
  at: time,
  actor: z.string(),
  actorKind: z.enum(ACTOR_KINDS),
  action: z.string(),
  eventID: z.number().int().nullable(),
  person: activityPerson,
  otherPerson: activityPerson,
  detail: z.string().nullable(),
  count: z.number().int(),
});

const createHostLinkRoute = createRoute({
  method: "post",
  path: "/host-links",
  summary: "A new host link for one night's door and rounds, with a QR code of it",
  request: jsonBody(z.object({ eventID: jsonId(z), label })),
  responses: {
    200: json(hostLink.extend({ qrCodeImage: z.string() })),
    ...errors("post", [...ADMIN_ERRORS, "not_found", "wrong_state"]),
  },
});

const listHostLinksRoute = createRoute({
  method: "get",
  path: "/admin-event/{id}/host-links",
  summary: "The event's host links, newest first, revoked and expired ones too",
  request: { params: idParams },
  responses: { 200: json(z.array(hostLink)), ...errors("get", [...ADMIN_ERRORS, "invalid_request", "not_found"]) },
});

const revokeHostLinkRoute = createRoute({
  method: "post",
  path: "/revoke-host-link",
  summary: "Revokes a host link: every phone signed in with it is signed out at once",
  request: jsonBody(z.object({ id: jsonId(z) })),
  responses: { 200: json(done), ...errors("post", [...ADMIN_ERRORS, "not_found"]) },
});

const activityRoute = createRoute({
  method: "get",
  path: "/admin-event/{id}/activity",
  summary: "One page of the event's activity log, newest first",
  request: { params: idParams, query: activityQuery },
  responses: { 200: json(z.array(activityEntry)), ...errors("get", [...ADMIN_ERRORS, "invalid_request", "not_found"]) },
});

const hostLoginRoute = createRoute({
  method: "post",
  path: "/host-login",
  summary: "Signs a staff phone in with a host link's token: the sdt_host cookie until the link expires",
  // Left loose on purpose, as for the other links: a missing or mistyped token is a 403, not a 400.
  request: jsonBody(z.object({ token: z.unknown().optional() })),
  responses: {
    200: json(hostSession),
    ...errors("post", ["host_access_ended", "invalid_link", "host_link_not_open", "rate_limited"]),
  },
});

const hostSessionRoute = createRoute({
  method: "get",
  path: "/host-session",
  summary: "This phone's host session: the night and the link's label",
  responses: { 200: json(hostSession), ...errors("get", ["host_access_ended", "host_link_not_open"]) },
});

/**
 * Host links (the organiser makes and revokes them), the host's own sign-in and session, and the
 * organiser's activity log (docs/decisions/022-host-access.md).
 */
export const hostAccessRoutes = (deps: AppDeps) => {
  const admin = requireAdmin(deps);
  return apiRouter()
    .openapi({ ...createHostLinkRoute, middleware: admin }, async (c) => {
      const body = c.req.valid("json");
      const link = createHostLink(deps, { eventId: body.eventID, label: body.label, actor: actorOf(c) }, deps.now());
      // Drawn here, as the ticket's is, so the panel's bundle carries no QR encoder.
      const qrCodeImage = await QRCode.toDataURL(link.url, { errorCorrectionLevel: "M", margin: 2, width: 320 });
      return c.json({ ...link, qrCodeImage }, 200);
    })
    .openapi({ ...listHostLinksRoute, middleware: admin }, (c) => {
      return c.json(listHostLinks(deps, c.req.valid("param").id), 200);
    })
    .openapi({ ...revokeHostLinkRoute, middleware: admin }, (c) => {
      revokeHostLink(deps.db, { id: c.req.valid("json").id, actor: actorOf(c) }, deps.now());
      endStreamsFor(deps.db, { hostLink: c.req.valid("json").id });
      return c.json({ success: true as const }, 200);
    })
    .openapi({ ...activityRoute, middleware: admin }, (c) => {
      return c.json(eventActivity(deps.db, c.req.valid("param").id, c.req.valid("query")), 200);
    })
    .openapi(hostLoginRoute, (c) => {
      noStore(c);
      const link = startHostSession(c, deps, c.req.valid("json").token);
      return c.json(
        {
          eventID: link.eventId,
          label: link.label,
          expiresAt: new Date(link.expiresAt).toISOString(),
          ...hostEvent(deps.db, link.eventId),
        },
        200,
      );
    })
    .openapi(hostSessionRoute, (c) => {
      noStore(c);
      const host = hostSessionOf(c, deps);
      if (host === "ended") throw hostAccessEnded();
      if (host === null) throw Unauthorized("no host session", "host_access_ended");
      assertHostDoorsOpen(deps.db, host.eventId, deps.now());
      return c.json(
        {
          eventID: host.eventId,
          label: host.label,
          expiresAt: new Date(host.expiresAt).toISOString(),
          ...hostEvent(deps.db, host.eventId),
        },
        200,
      );
    });
};
