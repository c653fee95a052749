import { createRoute } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { streamSSE } from "hono/streaming";
import type { RoomEvent } from "../../common/room-events.ts";
import type { AppDeps } from "../deps.ts";
import type { CallerEnv } from "../lib/caller.ts";
import { apiRouter, errors, file, z } from "../lib/openapi.ts";
import { requireStaff, STAFF_ERRORS, staffFor } from "../lib/staff.ts";
import { idParam } from "../lib/validate.ts";
import { assertLink, participantOf } from "./feedback.ts";
import { type Audience, roomEventOf, subscribe } from "./room-events.ts";
import { getRounds } from "./rounds.ts";

// The room in step (docs/decisions/037-room-stream.md): one server-sent event stream per event that
// the guests' round view and the room's screen keep open, told of every Pause, +1 min, Next and
// Announce at once. Polling stays the fallback, so nothing here is needed for a phone to follow.

const eventsQuery = z.object({
  eventID: idParam(z),
  // EventSource can send neither a body nor a header: the guest's start link travels in the query,
  // as it already does in the page's own address.
  userID: idParam(z).optional().openapi({ description: "a guest: their id, with `t`" }),
  t: z.string().max(200).optional().openapi({ description: "a guest: the start link's `t`" }),
});

const roundEventsRoute = createRoute({
  method: "get",
  path: "/round-events",
  summary: "The room's changes as they happen (server-sent events): a guest with their start link, or staff",
  request: { query: eventsQuery },
  responses: {
    200: file(
      "text/event-stream",
      "`rounds` events, each `{change, status, current, phase, phaseEndsAt, serverNow, announcement}`; a comment every 20 s",
    ),
    ...errors("get", [...STAFF_ERRORS, "invalid_request", "invalid_link", "not_a_participant", "not_found"]),
  },
});

export const roomEventsRoutes = (deps: AppDeps) => {
  const staff = requireStaff(deps);
  // A guest proves who they are with the link; anyone else must be the organiser or a host.
  const guestOrStaff: MiddlewareHandler<CallerEnv> = (c, next) =>
    c.req.query("userID") === undefined ? staff(c, next) : next();
  return apiRouter().openapi({ ...roundEventsRoute, middleware: guestOrStaff }, (c) => {
    const q = c.req.valid("query");
    let audience: Audience = "staff";
    if (q.userID !== undefined) {
      assertLink(deps, "start", q.userID, q.eventID, q.t);
      participantOf(deps.db, q.userID, q.eventID);
      audience = "guest";
    } else {
      staffFor(c, q.eventID);
    }
    // Read before the stream opens, so a missing event is a 404 and not an empty stream.
    const first: RoomEvent = roomEventOf(getRounds(deps.db, q.eventID, deps.now()), "open");
    const reply = streamSSE(c, async (stream) => {
      let unsubscribe = () => {};
      // Open until the phone goes away (abort) or the server shuts down (close); the listener goes either way.
      await new Promise<void>((resolve) => {
        stream.onAbort(resolve);
        unsubscribe = subscribe(
          deps.db,
          q.eventID,
          { audience, write: (chunk) => void stream.write(chunk), close: resolve },
          first,
        );
        if (stream.aborted) resolve();
      });
      unsubscribe();
    });
    // Personal and live: never stored, and never held back by a buffering proxy.
    reply.headers.set("Cache-Control", "no-store");
    reply.headers.set("X-Accel-Buffering", "no");
    return reply;
  });
};
