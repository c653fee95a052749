import { Hono } from "hono";
import { z } from "zod";
import type { AppDeps } from "../deps.ts";
import { logActivity, requireStaff, staffFor } from "../lib/staff.ts";
import { idParam, validate } from "../lib/validate.ts";
import { checkIn, openDoors, undoCheckIn } from "./check-in.ts";
import { getRoster } from "./roster.ts";

// The PWA sends numbers; numeric text (a scanned ticket's query string) is accepted too.
const id = z.union([z.number().int().positive().max(Number.MAX_SAFE_INTEGER), idParam(z)]);
const checkInBody = z.object({
  eventID: id,
  userID: id,
  // When the door phone's tap happened (epoch ms); the service judges it against the server's clock.
  clientTs: z.number().int().positive().max(Number.MAX_SAFE_INTEGER),
});
const undoBody = z.object({ eventID: id, userID: id });

/**
 * The door (docs/decisions/008-door.md): staff phones read the roster and
 * check attendees in, possibly long after the tap, from an offline queue. Every answer is personal
 * and changes minute to minute, so nothing here may be cached.
 */
export const doorRoutes = (deps: AppDeps) => {
  // The organiser, or a host of the event (docs/decisions/022-host-access.md). The roster carries no
  // email and no more of a phone than its last four digits, so a host sees what the organiser sees.
  const staff = requireStaff(deps);
  return new Hono()
    .get("/admin-event/:id/roster", staff, validate("param", z.object({ id: idParam(z) })), (c) => {
      staffFor(c, c.req.valid("param").id);
      return c.json(getRoster(deps.db, c.req.valid("param").id, deps.env.SESSION_SECRET));
    })
    .post("/check-in", staff, validate("json", checkInBody), (c) => {
      const body = c.req.valid("json");
      staffFor(c, body.eventID);
      const { checkedInAt, changed } = checkIn(deps.db, {
        userId: body.userID,
        eventId: body.eventID,
        clientTs: body.clientTs,
        now: deps.now(),
      });
      // A repeat (a retried tap, a replayed queue) changed nothing, and logs nothing.
      if (changed) logActivity(c, deps, { action: "check-in", eventId: body.eventID, userId: body.userID });
      return c.json({ success: true as const, checkedInAt });
    })
    .post("/undo-check-in", staff, validate("json", undoBody), (c) => {
      const body = c.req.valid("json");
      staffFor(c, body.eventID);
      const { checkedInAt, changed } = undoCheckIn(deps.db, { userId: body.userID, eventId: body.eventID });
      if (changed) logActivity(c, deps, { action: "check-in undone", eventId: body.eventID, userId: body.userID });
      return c.json({ success: true as const, checkedInAt });
    })
    .post("/open-doors", staff, validate("json", z.object({ eventId: id })), (c) => {
      // Opens check-in now without starting the night (docs/decisions/008-door.md); idempotent, and
      // logged only when it changed the time.
      const { eventId } = c.req.valid("json");
      staffFor(c, eventId);
      const { doorsOpenAt, changed } = openDoors(deps.db, eventId, deps.now());
      if (changed) logActivity(c, deps, { action: "doors opened", eventId });
      return c.json({ success: true as const, doorsOpenAt });
    });
};
