import { Hono } from "hono";
import { z } from "zod";
import type { AppDeps } from "../deps.ts";
import { requireAdmin } from "../lib/admin-session.ts";
import { logActivity, requireStaff, staffFor } from "../lib/staff.ts";
import { idParam, jsonId, validate } from "../lib/validate.ts";
import { adminSaveFeedback } from "./feedback.ts";
import { eventRatings, releaseResults } from "./results.ts";

// A night's results (docs/decisions/021-results.md): the organiser releases them early, types in
// paper scorecards, and follows who has rated. Every answer is personal, so none is cached. A host
// (docs/decisions/022-host-access.md) may follow the ratings and type in paper cards for their own
// night; releasing is the organiser's.

const id = jsonId(z);
const releaseBody = z.object({ eventId: id });
const paperBody = z.object({ eventID: id, fromUserID: id, toUserID: id, feedback: z.enum(["like", "dislike"]) });

export const resultsRoutes = (deps: AppDeps) => {
  const admin = requireAdmin(deps);
  const staff = requireStaff(deps);
  return new Hono()
    .get("/admin-event/:id/ratings", staff, validate("param", z.object({ id: idParam(z) })), (c) => {
      const eventId = c.req.valid("param").id;
      const staff = staffFor(c, eventId);
      return c.json(eventRatings(deps.db, eventId, deps.now(), { choices: staff.role === "organiser" }));
    })
    .post("/release-results", admin, validate("json", releaseBody), async (c) => {
      const eventId = c.req.valid("json").eventId;
      const { releasedAt, releasedNow, sent, failed } = await releaseResults(deps, eventId);
      if (releasedNow) logActivity(c, deps, { action: "results released", eventId });
      return c.json({ success: true as const, releasedAt: new Date(releasedAt).toISOString(), sent, failed });
    })
    .post("/admin-save-feedback", staff, validate("json", paperBody), (c) => {
      const body = c.req.valid("json");
      staffFor(c, body.eventID);
      const stored = adminSaveFeedback(
        deps.db,
        { eventId: body.eventID, fromUserId: body.fromUserID, toUserId: body.toUserID, value: body.feedback },
        deps.now(),
      );
      logActivity(c, deps, {
        action: "paper card entered",
        eventId: body.eventID,
        userId: body.fromUserID,
        otherUserId: body.toUserID,
        detail: body.feedback,
      });
      return c.json({ success: true as const, ...stored });
    });
};
