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
  description: [
    "- **Who:** capability link token (the start link's), for a paid, unrefunded attendee.",
    "- **200:** `{participants: [{id, username, image_name, myChoice}], ratingsClosedAt, timeZone,",
    "  reportPath}`: this attendee's partners (paid and unrefunded), `image_name` being the 320 px",
    "  thumbnail, `myChoice` the choice the server holds from this attendee (`like`, `dislike` or `null`),",
    "  so a phone whose tap was refused shows what stands. `ratingsClosedAt` (ISO 8601 UTC) is when the",
    "  results were released, `null` before; `timeZone` the venue's zone to show it in; `reportPath` this",
    "  attendee's report (`/EventFeedback?par1=…&par2=…&t=…`, the results text's link) once released,",
    "  else `null`. Who counts as a partner, first rule that",
    "  applies: when the event has a rounds plan, the people met in the rounds started so far, newest",
    "  first (none before the first round starts); else, once anyone was checked in at the door, the",
    "  checked-in attendees of the other gender, by name (none for a guest the door did not check in); else every paid attendee of the other gender,",
    "  by name.",
  ].join("\n"),
  request: jsonBody(participantsBody),
  responses: {
    200: json(participants),
    ...errors("post", [...LINK, "not_found", "feedback_not_open", "event_cancelled"], {
      404: "`not_found` (event).",
      409: "`feedback_not_open` (before the start), `event_cancelled`. After the release it still answers, so the page shows what was chosen.",
    }),
  },
});

const saveFeedbackRoute = createRoute({
  method: "post",
  path: "/save-feedback",
  summary:
    "One tap on the partners page: Date (like), Friend (friend, where offered) or No (dislike); the newest clientTs wins",
  description: [
    "- **Who:** capability link token (the start link's, for `fromUserID`), for a paid, unrefunded attendee.",
    "- **Body (JSON):**",
    "  - `feedback`: `like` (shown as **Like**, or **Date** where the event offers Friend), `friend`",
    "    (**Friend**, only where the event's `offersFriend`; 400 elsewhere) or `dislike` (**Dislike**, or **No**).",
    "  - `clientTs?`: integer epoch ms of the tap (default: now); at most a day ahead of the server.",
    "- **200:** `{success: true, feedback, clientTs}`: what is stored now. One rating per (from, to,",
    "  event); the newest `clientTs` wins, so a replayed or late tap changes nothing.",
    "",
    "A tap always replaces a paper card typed in by staff (`admin-save-feedback`), whatever its",
    "`clientTs`: the card only stood in for the guest.",
  ].join("\n"),
  request: jsonBody(saveBody),
  responses: {
    200: json(storedRating),
    ...errors("post", [...LINK, "not_found", "feedback_not_open", "event_cancelled", "ratings_closed"], {
      400: "`invalid_request` (also rating oneself, `clientTs` too far ahead).",
      404: "`not_found` (event, or `toUserID` is not one of the partners `get-participants` lists now: a no-show, someone not met yet).",
      409: "`feedback_not_open`, `event_cancelled`, `ratings_closed` (the results are out; a tap sent from an offline queue is dropped, and the page rolls back to `myChoice` and says ratings closed).",
    }),
  },
});

const reportRoute = createRoute({
  method: "post",
  path: "/get-feedback",
  summary:
    "The report once the results are out: mutual matches, friend matches, who liked me, whom I liked; contact details as each person chose to share them",
  description: [
    "- **Who:** capability link token (the end link's), for a paid, unrefunded attendee.",
    "- **200:** `{mutual, friends, likedme, iliked, offersFriend}`: four disjoint lists of `{id, username,",
    "  image_name, phone?, email?, instagram?, sharedNothing?, myShare?, myInstagram?}`: `mutual` both",
    "  chose Date (`like`), `friends` both chose Date or Friend but not both Date (a friend match),",
    "  `likedme` they chose Date or Friend for this user (not matched back), `iliked` this user chose Date",
    "  or Friend for them (not returned). Contact details only where the other chose Date or Friend for",
    "  this user and this user did not choose No for them, and then only what the other chose to share",
    "  (`share-contact`; Mobile until they choose): `phone` (E.164), `email` or `instagram` (a handle), or",
    "  `sharedNothing: true` where they chose Nothing (the page says `{name} chose not to share contact",
    "  details.`). On `mutual` and `friends` entries, `myShare` (`mobile`, `email`, `instagram` or",
    "  `nothing`) and `myInstagram`: what this user lets them see, their choice for that match, else the",
    "  night's default, set once when the results were released: their last choice made at another",
    "  night before then, else `mobile`. A choice for one match never changes another",
    "  (docs/decisions/040-sharing-defaults-and-stream-rights.md).",
  ].join("\n"),
  request: jsonBody(reportBody),
  responses: {
    200: json(feedbackReport),
    ...errors("post", [...LINK, "not_found", "event_cancelled", "results_not_yet"], {
      404: "`not_found` (event).",
      409: "`event_cancelled`, `results_not_yet` (until the results are released; the body adds `resultsAt`, ISO 8601 UTC, and `timeZone`, the venue's IANA zone, so the page can say when on the venue's clock).",
    }),
  },
});

const shareRoute = createRoute({
  method: "post",
  path: "/share-contact",
  summary: "On the report, what one match may see of this guest: mobile, email, instagram or nothing",
  description: [
    "What one match may see of this guest (issue 37), chosen on the report page and changed any time; it",
    "takes effect at once, and becomes this guest's default for later matches.",
    "",
    "- **Who:** capability link token (the end link's), for a paid, unrefunded attendee.",
    "- **Body (JSON):** `eventID`: id; `userID`: id; `token`: the link's `t`; `partnerID`: id (a mutual or",
    "  friend match of `userID`); `share`: `mobile`, `email`, `instagram` or `nothing`; `instagram?`: the",
    "  handle, with or without its `@` (letters, numbers, dots, underscores, up to 30), required with",
    '  `share: "instagram"`.',
    "- **200:** `{share, instagram}`: what is stored (`instagram` without its `@`, `null` unless chosen).",
  ].join("\n"),
  request: jsonBody(shareBody),
  responses: {
    200: json(contactShared),
    ...errors("post", [...LINK, "not_found", "event_cancelled", "results_not_yet"], {
      400: "`invalid_request` (a bad or missing handle).",
      404: "`not_found` (event, or `partnerID` is not a match).",
    }),
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
