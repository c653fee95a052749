import type { ServerResponse } from "node:http";
import { createRoute } from "@hono/zod-openapi";
import { and, eq } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import type { RoomEvent } from "../../common/room-events.ts";
import { bookings } from "../../db/schema.ts";
import type { AppDeps } from "../deps.ts";
import { adminSessionIdOf } from "../lib/admin-session.ts";
import type { CallerEnv } from "../lib/caller.ts";
import { apiRouter, errors, file, z } from "../lib/openapi.ts";
import { callerOf, requireStaff, STAFF_ERRORS, staffScope } from "../lib/staff.ts";
import { idParam } from "../lib/validate.ts";
import { assertLink, participantOf } from "./feedback.ts";
import { type Audience, roomEventOf, type StreamOwner, subscribe } from "./room-events.ts";
import { getRounds } from "./rounds.ts";

// The room in step (docs/decisions/038-room-stream.md): one server-sent event stream per event that
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
  description: [
    "The room in step (docs/decisions/038-room-stream.md): a server-sent event stream of the night's",
    "changes, kept open by the guest's round view and by the Rounds tab (and its **Full screen**) so a",
    "Pause, +1 min, Next or Announce reaches them within a second. Polling `my-rounds` and the host's",
    "view stays the fallback, and the way back after a phone was offline.",
    "",
    "- **Who:** a guest, with `userID` and `t` (the start link's token, as for `my-rounds`: a paid,",
    "  unrefunded attendee of this event); without `userID`, the organiser or a host session (a host:",
    "  its own event only).",
    "- **200:** `text/event-stream`, never cached (`Cache-Control: no-store`). Each change is one event",
    "  named `rounds` whose data is `{change, status, current, phase, phaseEndsAt, serverNow,",
    "  announcement}`: the clock and the announcement as the host's view and `my-rounds` show them.",
    "  `change` is `open` (the first event of every connection: the room as it is now; a client",
    "  catches up by reading its view again), `start`, `pause`, `resume`, `extend`, `next`, `finish`,",
    "  `announcement`, `plan` (planned or re-planned: a guest's tables may have changed, read the view",
    "  again), `event` (the event started or ended) or, to staff only, `people` (someone marked Left or",
    "  back) and `ratings` (ratings arrived, from phones or paper cards: read `…/ratings` again; at most",
    "  one per event every 2 s, the last save always told). A comment line every 20 s keeps proxies from",
    "  closing a quiet connection; the first event sets the browser's reconnect delay to 3 s. The server",
    "  ends every stream when it shuts down, and ends a caller's open streams when the right that opened",
    "  them ends: **Revoke** of the host link, `admin-logout` of that session, a refund of the guest's",
    "  booking, `me-delete-details` of their number (a reconnect is then refused).",
  ].join("\n"),
  request: { query: eventsQuery },
  responses: {
    200: file(
      "text/event-stream",
      "`rounds` events, each `{change, status, current, phase, phaseEndsAt, serverNow, announcement}`; a comment every 20 s",
    ),
    ...errors("get", [...STAFF_ERRORS, "invalid_request", "invalid_link", "not_a_participant", "not_found"], {
      403: "`forbidden` (a host, another event), `host_link_not_open` (a host, before the doors open), `invalid_link`, `not_a_participant`.",
      404: "`not_found` (event).",
    }),
  },
});

const encoder = new TextEncoder();
/** Bytes a phone may leave unread before it is let go (it reconnects, or polls, when it wakes). */
const MAX_BACKLOG = 64 * 1024;
/** @hono/node-server's marker for an answer the handler wrote itself (its RESPONSE_ALREADY_SENT). */
const X_ALREADY_SENT = "x-hono-already-sent";
const STREAM_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  // Personal and live: never stored, and never held back by a buffering proxy.
  "Cache-Control": "no-store",
  "X-Accel-Buffering": "no",
  "X-Content-Type-Options": "nosniff",
} as const;

/** A guest's stream belongs to their booking and its number: a refund or Delete my details ends it. */
function guestOwner(deps: AppDeps, userId: number, eventId: number): StreamOwner {
  const booking = deps.db
    .select({ id: bookings.id, phone: bookings.phone })
    .from(bookings)
    .where(and(eq(bookings.userId, userId), eq(bookings.eventId, eventId)))
    .get();
  // participantOf has just found the paid booking.
  if (!booking) throw new Error("no booking behind a participant");
  return { kind: "guest", bookingId: booking.id, phone: booking.phone };
}

export const roomEventsRoutes = (deps: AppDeps) => {
  const staff = requireStaff(deps);
  // The staff's event, read from the query as its validator reads it (staffRoute's scope).
  const scope = staffScope(deps, roundEventsRoute, { query: "eventID" });
  // A guest proves who they are with the link; anyone else must be the organiser or a host of the event.
  const guestOrStaff: MiddlewareHandler<CallerEnv> = (c, next) =>
    c.req.query("userID") === undefined
      ? staff(c, async () => {
          await scope(c, next);
        })
      : next();
  return apiRouter().openapi({ ...roundEventsRoute, middleware: guestOrStaff }, (c) => {
    const q = c.req.valid("query");
    let audience: Audience = "staff";
    let owner: StreamOwner;
    if (q.userID !== undefined) {
      assertLink(deps, "start", q.userID, q.eventID, q.t);
      participantOf(deps.db, q.userID, q.eventID);
      audience = "guest";
      owner = guestOwner(deps, q.userID, q.eventID);
    } else {
      const caller = callerOf(c);
      owner =
        caller.role === "host"
          ? { kind: "host", linkId: caller.linkId }
          : { kind: "organiser", sessionId: adminSessionIdOf(c, deps) };
    }
    // Read before the stream opens, so a missing event is a 404 and not an empty stream.
    const first: RoomEvent = roomEventOf(getRounds(deps.db, q.eventID, deps.now()), "open");
    const listen = (write: (chunk: string) => boolean, end: () => void) => {
      let unsubscribe = () => {};
      const stop = () => {
        unsubscribe();
        end();
      };
      unsubscribe = subscribe(
        deps.db,
        q.eventID,
        {
          audience,
          owner,
          // A phone that stopped reading but keeps its connection is let go, not buffered for.
          write: (chunk) => void (write(chunk) || stop()),
          close: stop,
        },
        first,
      );
      return unsubscribe;
    };
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    if (outgoing) {
      // On Node, straight onto the socket: @hono/node-server pipes a streamed body through a promise
      // chain that grows with every chunk until the stream ends, and this stream does not end (the
      // room's bench saw the heap climb with each announcement). The reply below tells it the
      // answer is already sent; it still carries the declared media type for the reply check.
      outgoing.writeHead(200, STREAM_HEADERS);
      const unsubscribe = listen(
        (chunk) => {
          if (outgoing.destroyed || outgoing.writableEnded) return false;
          outgoing.write(chunk);
          return outgoing.writableLength <= MAX_BACKLOG;
        },
        () => outgoing.end(),
      );
      outgoing.once("close", unsubscribe);
      if (outgoing.destroyed) unsubscribe();
      return c.body(null, 200, { "Content-Type": STREAM_HEADERS["Content-Type"], [X_ALREADY_SENT]: "true" });
    }
    // Elsewhere (app.request(), other runtimes): a ReadableStream, which a cancel ends.
    let unsubscribe = () => {};
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        unsubscribe = listen(
          (chunk) => {
            try {
              controller.enqueue(encoder.encode(chunk));
              return true;
            } catch {
              return false;
            }
          },
          () => {
            try {
              controller.close();
            } catch {
              // Already closed or cancelled.
            }
          },
        );
      },
      cancel: () => unsubscribe(),
    });
    return c.body(body, 200, STREAM_HEADERS);
  });
};
