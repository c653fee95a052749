import { createRoute } from "@hono/zod-openapi";
import type { AppDeps } from "../deps.ts";
import { apiRouter, errors, json, jsonBody, z } from "../lib/openapi.ts";
import { callerOf, logActivity, STAFF_ERRORS, staffRoute } from "../lib/staff.ts";
import { idParam, jsonId } from "../lib/validate.ts";
import { checkIn, openDoors, undoCheckIn } from "./check-in.ts";
import { genderForCaller } from "./host-gender.ts";
import { checkedIn, checkInUndone, doorsOpened, roster } from "./night-schemas.ts";
import { getRoster } from "./roster.ts";

// The PWA sends numbers; numeric text (a scanned ticket's query string) is accepted too.
const id = jsonId(z);
const checkInBody = z.object({
  eventID: id,
  userID: id,
  // When the door phone's tap happened (epoch ms); the service judges it against the server's clock.
  clientTs: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});
const undoBody = z.object({ eventID: id, userID: id });

const rosterRoute = createRoute({
  method: "get",
  path: "/admin-event/{id}/roster",
  summary: "The door's list: paid attendees by name with their arrival, the refunded, and the door-code key",
  description: [
    "- **Who:** organiser or host session (a host: its own event only).",
    "- **200:** `{event, attendees, refunded, codeKey}`:",
    "  - `event`: `{id, event_name, EventDateTime, event_status, time_zone, doorsOpenAt}` (`doorsOpenAt`",
    "    ISO 8601 UTC, when check-in opens);",
    "  - `attendees`: paid bookings by name, `[{userID, name, gender?, thumbName, phoneLast4, checkedInAt,",
    "    age, codeHash}]` (`checkedInAt` ISO 8601 UTC or `null`; `phoneLast4` the last four digits only; `age` on",
    "    the event's date, or `null` for a booking made without a date of birth; `codeHash` the hex",
    "    HMAC-SHA-256 of the ticket code, capitals without spaces or dashes, under `codeKey`, or `null`",
    "    while the booking has no code; never the code);",
    "  - `refunded`: `[{userID, name}]`, so a scanned refunded ticket says so;",
    "  - `codeKey`: this event's key (64 hex digits) for `codeHash`, so the door finds a typed code",
    "    offline (docs/decisions/008-door.md).",
  ].join("\n"),
  request: { params: z.object({ id: idParam(z) }) },
  responses: {
    200: json(roster),
    ...errors("get", [...STAFF_ERRORS, "invalid_request", "not_found"], {
      403: "`forbidden` (a host, another event), `host_link_not_open` (a host, before the doors open).",
    }),
  },
});

const checkInRoute = createRoute({
  method: "post",
  path: "/check-in",
  summary: "Checks an attendee in as of the door phone's tap; the earliest check-in is kept",
  description: [
    "- **Who:** organiser or host session (a host: its own event only).",
    "- **Body (JSON):**",
    "  - `clientTs`: integer, epoch ms of the tap on the door phone; at most 5 minutes ahead of the",
    "    server's clock and at most 7 days old, and not before the doors open (the event's `doorsOpenAt`:",
    "    3 hours before the start by default, or the organiser's time, or when **Open doors now** was",
    "    pressed) nor before the booking was paid.",
    "- **200:** `{success: true, checkedInAt}`: the earliest check-in of the booking is kept, so replays",
    "  and late syncs never move it.",
  ].join("\n"),
  request: jsonBody(checkInBody),
  responses: {
    200: json(checkedIn),
    ...errors("post", [...STAFF_ERRORS, "doors_not_open", "not_found", "refunded", "not_paid"], {
      400: "`invalid_request`, `doors_not_open` (with `doorsOpenAt` and `timeZone`; `error` says `Doors open at 4:00 PM AEDT tomorrow.`).",
      403: "`forbidden` (a host, another event), `host_link_not_open` (a host, before the doors open).",
      404: "`not_found` (booking).",
    }),
  },
});

const undoCheckInRoute = createRoute({
  method: "post",
  path: "/undo-check-in",
  summary: "Takes a check-in back (the wrong row was tapped); idempotent",
  description: [
    "- **Who:** organiser or host session (a host: its own event only).",
    "- **200:** `{success: true, checkedInAt: null}`. Idempotent.",
  ].join("\n"),
  request: jsonBody(undoBody),
  responses: {
    200: json(checkInUndone),
    ...errors("post", [...STAFF_ERRORS, "not_found", "refunded", "not_paid"], {
      403: "`forbidden` (a host, another event), `host_link_not_open` (a host, before the doors open).",
      404: "`not_found` (booking).",
    }),
  },
});

const openDoorsRoute = createRoute({
  method: "post",
  path: "/open-doors",
  summary: "Open doors now: check-in opens at once, without starting the night",
  description: [
    "**Open doors now**: check-in opens at once, without starting the night. Nobody is texted and sales",
    "stay open. Logged in Activity (`doors opened`) when it changed the time.",
    "",
    "- **Who:** organiser or host session (a host: its own event only).",
    "- **200:** `{success: true, doorsOpenAt}` (ISO 8601 UTC): now, or the earlier time the doors",
    "  already opened at (pressing again changes nothing).",
  ].join("\n"),
  request: jsonBody(z.object({ eventId: id })),
  responses: {
    200: json(doorsOpened),
    ...errors("post", [...STAFF_ERRORS, "not_found", "wrong_state"], {
      403: "`forbidden` (a host, another event), `host_link_not_open` (a host, before the doors open).",
      409: "`wrong_state` (ended or cancelled).",
    }),
  },
});

/**
 * The door (docs/decisions/008-door.md): staff phones read the roster and
 * check attendees in, possibly long after the tap, from an offline queue. Every answer is personal
 * and changes minute to minute, so nothing here may be cached.
 */
export const doorRoutes = (deps: AppDeps) => {
  // Each call is a staffRoute: the organiser, or a host of the event (docs/decisions/022-host-access.md).
  // The roster carries no email and no more of a phone than its last four digits, so a host sees
  // what the organiser sees.
  return apiRouter()
    .openapi(staffRoute(deps, rosterRoute, { param: "id" }), (c) => {
      const eventId = c.req.valid("param").id;
      const caller = callerOf(c);
      const roster = getRoster(deps.db, eventId, deps.env.SESSION_SECRET);
      const format = roster.event.format ?? "women_men";
      return c.json({ ...roster, attendees: genderForCaller(roster.attendees, format, caller) }, 200);
    })
    .openapi(staffRoute(deps, checkInRoute, { json: "eventID" }), (c) => {
      const body = c.req.valid("json");
      const { checkedInAt, changed } = checkIn(deps.db, {
        userId: body.userID,
        eventId: body.eventID,
        clientTs: body.clientTs,
        now: deps.now(),
      });
      // A repeat (a retried tap, a replayed queue) changed nothing, and logs nothing.
      if (changed) logActivity(c, deps, { action: "check-in", eventId: body.eventID, userId: body.userID });
      return c.json({ success: true as const, checkedInAt }, 200);
    })
    .openapi(staffRoute(deps, undoCheckInRoute, { json: "eventID" }), (c) => {
      const body = c.req.valid("json");
      const { checkedInAt, changed } = undoCheckIn(deps.db, { userId: body.userID, eventId: body.eventID });
      if (changed) logActivity(c, deps, { action: "check-in undone", eventId: body.eventID, userId: body.userID });
      return c.json({ success: true as const, checkedInAt }, 200);
    })
    .openapi(staffRoute(deps, openDoorsRoute, { json: "eventId" }), (c) => {
      // Opens check-in now without starting the night (docs/decisions/008-door.md); idempotent, and
      // logged only when it changed the time.
      const { eventId } = c.req.valid("json");
      const { doorsOpenAt, changed } = openDoors(deps.db, eventId, deps.now());
      if (changed) logActivity(c, deps, { action: "doors opened", eventId });
      return c.json({ success: true as const, doorsOpenAt }, 200);
    });
};
