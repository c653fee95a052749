import { createRoute } from "@hono/zod-openapi";
import { withoutInvisibleControls } from "../../common/plain-text.ts";
import type { AppDeps } from "../deps.ts";
import { ADMIN_ERRORS, adminRoute, noStore } from "../lib/admin-session.ts";
import { Unauthorized } from "../lib/errors.ts";
import { hostSessionOf, startHostSession } from "../lib/host-session.ts";
import { apiRouter, done, errors, json, jsonBody, z } from "../lib/openapi.ts";
import { qrDataUrl } from "../lib/qr.ts";
import { actorOf } from "../lib/staff.ts";
import { idParam, jsonId } from "../lib/validate.ts";
import { endStreamsFor } from "../night/room-events.ts";
import { ACTIVITY_PAGE, eventActivity, ORGANISER } from "./activity.ts";
import { activityRow, hostLinkRow } from "./admin-schemas.ts";
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

/** The host's header: who they are, for which night, until when (host-login and host-session). */
const hostSession = z.strictObject({
  eventID: z.number().int(),
  label: z.string(),
  expiresAt: time,
  eventName: z.string(),
  timeZone: z.string(),
});

const createHostLinkRoute = createRoute({
  method: "post",
  path: "/host-links",
  summary: "A new host link for one night's door and rounds, with a QR code of it",
  description: [
    "- **Who:** organiser session (a host session: 403 `forbidden`).",
    "- **Body (JSON):** `eventID`: id; `label`: string 1–60 (trimmed), e.g. `Door 1`, `Priya (host)`.",
    "  `organiser` (in any case) is the organiser's own name in the activity log and is refused, as is a",
    "  label with control characters (line breaks, escapes): 400 `invalid_request` with a message saying so.",
    "- **200:** `{id, eventID, label, url, expiresAt, createdAt, revokedAt: null, qrCodeImage}`: `url` the",
    "  link to open on the staff phone; `qrCodeImage` a PNG data URL of a QR code of `url`; `expiresAt` ISO 8601 UTC, 6 hours after the event's",
    "  planned end (start + duration) as it was when the link was made. Several links per event are",
    "  fine. Recorded in the activity log as `host link created`.",
  ].join("\n"),
  request: jsonBody(z.object({ eventID: jsonId(z), label })),
  responses: {
    200: json(hostLinkRow.extend({ qrCodeImage: z.string() })),
    ...errors("post", [...ADMIN_ERRORS, "not_found", "wrong_state"], {
      404: "`not_found` (event).",
      409: "`wrong_state` (the event ended more than 6 hours ago).",
    }),
  },
});

const listHostLinksRoute = createRoute({
  method: "get",
  path: "/admin-event/{id}/host-links",
  summary: "The event's host links, newest first, revoked and expired ones too",
  description: [
    "- **Who:** organiser session.",
    "- **200:** the event's links, newest first, revoked and expired ones too: `[{id, eventID, label, url,",
    "  expiresAt, createdAt, revokedAt}]` (`revokedAt` ISO 8601 UTC or `null`).",
  ].join("\n"),
  request: { params: idParams },
  responses: { 200: json(z.array(hostLinkRow)), ...errors("get", [...ADMIN_ERRORS, "invalid_request", "not_found"]) },
});

const revokeHostLinkRoute = createRoute({
  method: "post",
  path: "/revoke-host-link",
  summary: "Revokes a host link: every phone signed in with it is signed out at once",
  description: [
    "**Revoke**: the link stops working and every phone signed in with it gets 401 `host_access_ended`",
    "on its next call.",
    "",
    "- **Who:** organiser session.",
    "- **200:** `{success: true}`. Idempotent. Recorded as `host link revoked`.",
  ].join("\n"),
  request: jsonBody(z.object({ id: jsonId(z) })),
  responses: { 200: json(done), ...errors("post", [...ADMIN_ERRORS, "not_found"]) },
});

const activityRoute = createRoute({
  method: "get",
  path: "/admin-event/{id}/activity",
  summary: "One page of the event's activity log, newest first",
  description: [
    "**Activity**: every change the organiser or a host made to the event, newest first, a page at a",
    "time. Only calls that changed something are recorded: a repeated check-in, a second refund of the",
    "same booking, marking someone left twice, an edit that changed nothing log nothing. The same change",
    "repeated by the same actor (same action, people and `detail`) within 15 minutes is one entry, with",
    "`count` and the latest time in `at`.",
    "",
    "- **Who:** organiser session.",
    "- **Query:** `before` (optional): an entry's `id` from the page already shown, for the entries older",
    "  than it; `limit` (optional): 1–500 entries, 500 when left out. A page shorter than `limit` is the",
    "  last.",
    "- **200:** `[{id, at, actor, actorKind, action, eventID, person, otherPerson, detail, count}]`:",
    "  - `at`: ISO 8601 UTC; `actor`: `organiser` (the owner), a team member as `Priya (Finance)`, a",
    "    host link's label, or `unknown` (failed logins); `actorKind`: `organiser`, `member`, `host`,",
    "    `guest` or `system` (the failed logins), stored beside the label;",
    "  - `action`: one of `event created`, `event edited`, `event started`, `event ended`,",
    '    `event cancelled`, `refund`, `check-in` (`detail: "ticket code"` when staff confirmed the',
    "    ticket's code on `confirm-booking`), `check-in undone`, `doors opened`, `rounds planned`,",
    "    `rounds controlled` (`detail`: the action, e.g. `next`), `marked left` (`detail`: `left` or",
    "    `back`), `guests messaged` (`detail`: the message's text, as typed), `results released`, `paper card entered` (`person` the card's writer, `otherPerson` the",
    "    partner, `detail` the choice, `like`), `event edited` (`detail`: the fields that changed, in the",
    "    form's words, `price, seats`; `picture` for a new picture), `host link created`,",
    "    `host link revoked` (`detail`: the label),",
    "    `promo code created`, `promo code disabled` (`detail`: the code), `failed admin logins` (one entry per 15 minutes, `count` attempts; they",
    "    belong to no event, so every event's log shows them, `eventID: null`);",
    "  - `person`, `otherPerson`: `{userID, name}` for the people concerned, or `null`; names are read",
    "    from the people's records when the log is read, never stored in it, so once the event's personal",
    "    data is erased (`RETENTION_DAYS`) `name` is `null` and only the id stays (the PWA shows",
    '    "Erased attendee"). `detail` never holds a name.',
    "  Entries older than `RETENTION_DAYS` are deleted.",
  ].join("\n"),
  request: { params: idParams, query: activityQuery },
  responses: { 200: json(z.array(activityRow)), ...errors("get", [...ADMIN_ERRORS, "invalid_request", "not_found"]) },
});

const hostLoginRoute = createRoute({
  method: "post",
  path: "/host-login",
  summary: "Signs a staff phone in with a host link's token: the sdt_host cookie until the link expires",
  description: [
    "- **Who:** capability link token (the host link's `t`).",
    "- **200:** `{eventID, label, expiresAt, eventName, timeZone}`, and the `sdt_host` cookie (HttpOnly,",
    "  SameSite=Strict, Secure on https) until `expiresAt`. Opening the link again on another phone gives",
    "  that phone its own session.",
  ].join("\n"),
  // Left loose on purpose, as for the other links: a missing or mistyped token is a 403, not a 400.
  request: jsonBody(z.object({ token: z.unknown().optional() })),
  responses: {
    200: json(hostSession),
    ...errors("post", ["host_access_ended", "invalid_link", "host_link_not_open", "rate_limited"], {
      401: "`host_access_ended` (the link was revoked or has expired).",
      403: "`invalid_link` (not a host link: cut off, altered, unknown), `host_link_not_open` (before the event's doors open; `doorsOpenAt` and `timeZone` say when).",
      429: "`rate_limited` (30 sign-ins per link, 60 tries per address, per hour). A link opens the door and the rounds only from the event's doors-open time, which the organiser may make earlier.",
    }),
  },
});

const hostSessionRoute = createRoute({
  method: "get",
  path: "/host-session",
  summary: "This phone's host session: the night and the link's label",
  description: [
    "- **Who:** host session.",
    "- **200:** `{eventID, label, expiresAt, eventName, timeZone}` (`expiresAt` ISO 8601 UTC).",
  ].join("\n"),
  responses: {
    200: json(hostSession),
    ...errors("get", ["host_access_ended", "host_link_not_open"], {
      401: "`host_access_ended` (no host session on this phone, or its link was revoked or has expired).",
      403: "`host_link_not_open` (the doors were moved later than now; every host call answers it).",
    }),
  },
});

/**
 * Host links (the organiser makes and revokes them), the host's own sign-in and session, and the
 * organiser's activity log (docs/decisions/022-host-access.md).
 */
export const hostAccessRoutes = (deps: AppDeps) => {
  return apiRouter()
    .openapi(adminRoute(deps, createHostLinkRoute, "managers"), async (c) => {
      const body = c.req.valid("json");
      const link = createHostLink(deps, { eventId: body.eventID, label: body.label, actor: actorOf(c) }, deps.now());
      // Drawn here, as the ticket's is, so the panel's bundle carries no QR encoder.
      const qrCodeImage = await qrDataUrl(link.url);
      return c.json({ ...link, qrCodeImage }, 200);
    })
    .openapi(adminRoute(deps, listHostLinksRoute, "managers"), (c) => {
      return c.json(listHostLinks(deps, c.req.valid("param").id), 200);
    })
    .openapi(adminRoute(deps, revokeHostLinkRoute, "managers"), (c) => {
      revokeHostLink(deps.db, { id: c.req.valid("json").id, actor: actorOf(c) }, deps.now());
      endStreamsFor(deps.db, { hostLink: c.req.valid("json").id });
      return c.json({ success: true as const }, 200);
    })
    .openapi(adminRoute(deps, activityRoute, "managers"), (c) => {
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
