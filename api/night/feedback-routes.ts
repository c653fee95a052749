import { Hono } from "hono";
import { z } from "zod";
import type { AppDeps } from "../deps.ts";
import { jsonId, validate } from "../lib/validate.ts";
import { getFeedbackReport, getParticipants, saveFeedback } from "./feedback.ts";

// Ids arrive as numbers from the PWA, but the links carry them as text, so "12" is accepted too.
const id = jsonId(z);
// Left loose on purpose: a missing or mistyped token is a 403 from the link check, not a 400.
const token = z.unknown().optional();

const participantsBody = z.object({ userID: id, eventID: id, token });
const saveBody = z.object({
  fromUserID: id,
  toUserID: id,
  eventID: id,
  feedback: z.enum(["like", "dislike"]),
  token,
  clientTs: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
});
const reportBody = z.object({ eventID: id, userID: id, token });

export const feedbackRoutes = (deps: AppDeps) =>
  new Hono()
    // Per path, not "*": this sub-app is mounted at the API's root, where "*" would reach every route.
    .post("/get-participants", validate("json", participantsBody), (c) => {
      const body = c.req.valid("json");
      return c.json(
        getParticipants(deps, { userId: body.userID, eventId: body.eventID, token: body.token }, deps.now()),
      );
    })
    .post("/save-feedback", validate("json", saveBody), (c) => {
      const body = c.req.valid("json");
      const stored = saveFeedback(
        deps,
        {
          fromUserId: body.fromUserID,
          toUserId: body.toUserID,
          eventId: body.eventID,
          value: body.feedback,
          token: body.token,
          clientTs: body.clientTs,
        },
        deps.now(),
      );
      return c.json({ success: true as const, ...stored });
    })
    .post("/get-feedback", validate("json", reportBody), (c) => {
      const body = c.req.valid("json");
      return c.json(getFeedbackReport(deps, { userId: body.userID, eventId: body.eventID, token: body.token }));
    });
