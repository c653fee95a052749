import { Hono } from "hono";
import { z } from "zod";
import type { AppDeps } from "../deps.ts";
import { requireAdmin } from "../lib/admin-session.ts";
import { idParam, jsonId, validate } from "../lib/validate.ts";
import { adminSaveFeedback } from "../services/feedback.ts";
import { eventRatings, releaseResults } from "../services/results.ts";

// A night's results (docs/decisions/021-results.md): the organiser releases them early, types in
// paper scorecards, and follows who has rated. Every answer is personal, so none is cached.

const id = jsonId(z);
const releaseBody = z.object({ eventId: id });
const paperBody = z.object({ eventID: id, fromUserID: id, toUserID: id, feedback: z.enum(["like", "dislike"]) });

export const resultsRoutes = (deps: AppDeps) => {
  const admin = requireAdmin(deps);
  return new Hono()
    .get("/admin-event/:id/ratings", admin, validate("param", z.object({ id: idParam(z) })), (c) => {
      return c.json(eventRatings(deps.db, c.req.valid("param").id, deps.now()));
    })
    .post("/release-results", admin, validate("json", releaseBody), async (c) => {
      const { releasedAt, sent, failed } = await releaseResults(deps, c.req.valid("json").eventId);
      return c.json({ success: true as const, releasedAt: new Date(releasedAt).toISOString(), sent, failed });
    })
    .post("/admin-save-feedback", admin, validate("json", paperBody), (c) => {
      const body = c.req.valid("json");
      const stored = adminSaveFeedback(
        deps.db,
        { eventId: body.eventID, fromUserId: body.fromUserID, toUserId: body.toUserID, value: body.feedback },
        deps.now(),
      );
      return c.json({ success: true as const, ...stored });
    });
};
