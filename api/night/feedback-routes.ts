import { createRoute } from "@hono/zod-openapi";
import { feedbackValues } from "../../db/schema.ts";
import type { AppDeps } from "../deps.ts";
import { apiRouter, errors, json, jsonBody, z } from "../lib/openapi.ts";
import { jsonId, plainText } from "../lib/validate.ts";
import { shareContact } from "./contact-sharing.ts";
import { getFeedbackReport } from "./feedback-report.ts";
import { contactShared, feedbackReport, participants, shareChoice, storedRating } from "./night-schemas.ts";
import { getParticipants, saveFeedback } from "./ratings.ts";
import { notifyRatings } from "./room-events.ts";

// Ids arrive as numbers from the PWA, but the links carry them as text, so "12" is accepted too.
const id = jsonId(z);
// Left loose on purpose: a missing or mistyped token is a 403 from the link check, not a 400.
const token = z.unknown().optional().openapi({ description: "the link's `t`", type: "string" });

const participantsBody = z.object({ userID: id, eventID: id, token });
const saveBody = z.object({
  fromUserID: id,
  toUserID: id,
  eventID: id,
  // `friend` only at an event that offers it (400 elsewhere); `like` is Date, `dislike` No.
  feedback: z.enum(feedbackValues),
  token,
  clientTs: z.number().int().positive().max(Number.MAX_SAFE_INTEGER).optional(),
});
const reportBody = z.object({ eventID: id, userID: id, token });
const shareBody = z.object({
  eventID: id,
  userID: id,
  token,
  partnerID: id,
  share: shareChoice,
  // The handle, with or without its @, when `share` is "instagram".
  instagram: plainText(z.string().max(100)).optional(),
});

/** The link check (api/night/feedback.ts): a token that is not this page's, or no paid seat. */
const LINK = ["invalid_link", "not_a_participant"] as const;

const participantsRoute = createRoute({
  method: "post",
  path: "/get-participants",
  summary: "The partners page: whom this attendee met, with the choice the server holds for each",
  request: jsonBody(participantsBody),
  responses: {
    200: json(participants),
    ...errors("post", [...LINK, "not_found", "feedback_not_open", "event_cancelled"]),
  },
});

const saveFeedbackRoute = createRoute({
  method: "post",
  path: "/save-feedback",
  summary:
    "One tap on the partners page: Date (like), Friend (friend, where offered) or No (dislike); the newest clientTs wins",
  request: jsonBody(saveBody),
  responses: {
    200: json(storedRating),
    ...errors("post", [...LINK, "not_found", "feedback_not_open", "event_cancelled", "ratings_closed"]),
  },
});

const reportRoute = createRoute({
  method: "post",
  path: "/get-feedback",
  summary:
    "The report once the results are out: mutual matches, friend matches, who liked me, whom I liked; contact details as each person chose to share them",
  request: jsonBody(reportBody),
  responses: {
    200: json(feedbackReport),
    ...errors("post", [...LINK, "not_found", "event_cancelled", "results_not_yet"]),
  },
});

const shareRoute = createRoute({
  method: "post",
  path: "/share-contact",
  summary: "On the report, what one match may see of this guest: mobile, email, instagram or nothing",
  request: jsonBody(shareBody),
  responses: {
    200: json(contactShared),
    ...errors("post", [...LINK, "not_found", "event_cancelled", "results_not_yet"]),
  },
});

export const feedbackRoutes = (deps: AppDeps) =>
  apiRouter()
    .openapi(participantsRoute, (c) => {
      const body = c.req.valid("json");
      return c.json(
        getParticipants(deps, { userId: body.userID, eventId: body.eventID, token: body.token }, deps.now()),
        200,
      );
    })
    .openapi(saveFeedbackRoute, (c) => {
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
      notifyRatings(deps, body.eventID);
      return c.json({ success: true as const, ...stored }, 200);
    })
    .openapi(reportRoute, (c) => {
      const body = c.req.valid("json");
      return c.json(getFeedbackReport(deps, { userId: body.userID, eventId: body.eventID, token: body.token }), 200);
    })
    .openapi(shareRoute, (c) => {
      const body = c.req.valid("json");
      const setting = shareContact(
        deps,
        {
          userId: body.userID,
          eventId: body.eventID,
          token: body.token,
          partnerId: body.partnerID,
          share: body.share,
          ...(body.instagram === undefined ? {} : { instagram: body.instagram }),
        },
        deps.now(),
      );
      return c.json(setting, 200);
    });
