import { createRoute } from "@hono/zod-openapi";
import { GUEST_MESSAGE } from "../../common/guest-message.ts";
import { INVISIBLE_CONTROLS_MESSAGE, withoutInvisibleControls } from "../../common/plain-text.ts";
import { ROUNDS_LIMITS as L } from "../../common/rounds-settings.ts";
import { guestAudiences } from "../../db/rounds-schema.ts";
import type { AppDeps } from "../deps.ts";
import type { Caller } from "../lib/caller.ts";
import { apiRouter, errors, json, jsonBody, z } from "../lib/openapi.ts";
import { actorOf, callerOf, logActivity, STAFF_ERRORS, staffRoute } from "../lib/staff.ts";
import { idParam, jsonId, plainText } from "../lib/validate.ts";
import { messageGuests, previewGuestMessage } from "./guest-messages.ts";
import { genderForCaller } from "./host-gender.ts";
import { keepApartRoutes } from "./keep-apart-routes.ts";
import { guestMessagePreview, messagesSent, myRoundsView, roundsView } from "./night-schemas.ts";
import { notifyRoom } from "./room-events.ts";
import { announceToRoom, getRounds, markLeft, planEventRounds, type RoundsView, runRounds } from "./rounds.ts";
import { myRounds } from "./rounds-guest.ts";

// The night's rounds (docs/decisions/019-running-the-night.md). Every answer changes from one
// second to the next and is personal, so none is cached (the app's default no-store).

const id = jsonId(z);
const minutes = (limits: { min: number; max: number }) => z.number().int().min(limits.min).max(limits.max);

const planBody = z.object({
  eventID: id,
  roundMinutes: minutes(L.roundMinutes).optional(),
  breakMinutes: minutes(L.breakMinutes).optional(),
  // null takes a cap off; left out keeps the one set before.
  maxRounds: minutes(L.maxRounds).nullable().optional(),
  seated: z.enum(["female", "male"]).optional(),
  // True: answer the plan it would make, storing nothing (the console's warning before a re-plan).
  preview: z.boolean().optional(),
});
// `current` and `phase` are what the console showed when the host pressed: a control meant for a
// state the clock has since left (a double press, a retry, the clock moving on) is 409 stale_state.
// Optional so a script can still drive the clock; the PWA always sends them.
const runBody = z.object({
  eventID: id,
  action: z.enum(["start", "pause", "resume", "extend", "next", "finish"]),
  current: z.number().int().min(0).max(10_000).nullable().optional(),
  phase: z.enum(["round", "break"]).nullable().optional(),
});
const leftBody = z.object({ eventID: id, userID: id, left: z.boolean() });
const messageBody = z.object({
  eventID: id,
  to: z.enum(guestAudiences),
  text: z
    .string()
    .trim()
    .min(1, "is required")
    .max(GUEST_MESSAGE.maxLength, `must be at most ${GUEST_MESSAGE.maxLength} characters`)
    // Line breaks are fine in a text; other control characters are not.
    .refine((v) => !/\p{Cc}/u.test(v.replace(/\r?\n/g, "")), "must not contain control characters")
    .refine(withoutInvisibleControls, INVISIBLE_CONTROLS_MESSAGE),
  // The sender's own id for this message (the PWA makes one per dialog): a retried send is the same message.
  messageID: z
    .string()
    .regex(/^[A-Za-z0-9_-]{8,64}$/)
    .optional(),
});
// Left loose on purpose, as for the partners page: a missing or mistyped token is a 403, not a 400.
const myRoundsBody = z.object({
  eventID: id,
  userID: id,
  token: z.unknown().optional().openapi({ description: "the link's `t`", type: "string" }),
});
const eventParam = z.object({ id: idParam(z) });
const roundsRoute = createRoute({
  method: "get",
  path: "/admin-event/{id}/rounds",
  summary: "The host's view of the night: the plan, the clock and who is present",
  request: { params: eventParam },
  responses: { 200: json(roundsView), ...errors("get", [...STAFF_ERRORS, "invalid_request", "not_found"]) },
});

const planRoute = createRoute({
  method: "post",
  path: "/plan-rounds",
  summary: "Plan rounds, or re-plan the rounds not yet started, from the people present now",
  request: jsonBody(planBody),
  responses: {
    200: json(roundsView),
    ...errors("post", [...STAFF_ERRORS, "not_found", "wrong_state", "room_too_large"]),
  },
});

const runRoute = createRoute({
  method: "post",
  path: "/run-rounds",
  summary: "The host's controls: start, pause, resume, +1 min, next, finish",
  request: jsonBody(runBody),
  responses: {
    200: json(roundsView),
    ...errors("post", [...STAFF_ERRORS, "not_found", "wrong_state", "stale_state"]),
  },
});

const announceBody = z.object({
  eventID: id,
  // Empty takes the announcement down; the limit is checked after trimming, with a sentence.
  text: plainText(z.string().max(1_000)),
});

const announceRoute = createRoute({
  method: "post",
  path: "/room-announcement",
  summary:
    "Announce: a short line on the room's screen and the guests' phones until the next round; empty takes it down",
  request: jsonBody(announceBody),
  responses: {
    200: json(roundsView),
    ...errors("post", [...STAFF_ERRORS, "not_found", "wrong_state"]),
  },
});

const leftRoute = createRoute({
  method: "post",
  path: "/mark-left",
  summary: "Left: the attendee went home (or, with left false, is back)",
  request: jsonBody(leftBody),
  responses: {
    200: json(roundsView),
    ...errors("post", [...STAFF_ERRORS, "not_found", "wrong_state", "refunded", "not_paid", "not_checked_in"]),
  },
});

const messagePreviewRoute = createRoute({
  method: "get",
  path: "/admin-event/{id}/message-guests",
  summary: "What the Message guests dialog shows first: how many each audience reaches, the hour's limit",
  request: { params: eventParam },
  responses: {
    200: json(guestMessagePreview),
    ...errors("get", [...STAFF_ERRORS, "invalid_request", "not_found"]),
  },
});

const messageRoute = createRoute({
  method: "post",
  path: "/message-guests",
  summary: "Message guests: one text to the night's paid guests, all of them or by whether they came",
  request: jsonBody(messageBody),
  responses: {
    200: json(messagesSent),
    ...errors("post", [...STAFF_ERRORS, "not_found", "wrong_state", "rate_limited"]),
  },
});

const myRoundsRoute = createRoute({
  method: "post",
  path: "/my-rounds",
  summary: "The guest's night from the start link: their table and partner in each round, and the clock",
  request: jsonBody(myRoundsBody),
  responses: { 200: json(myRoundsView), ...errors("post", ["invalid_link", "not_a_participant"]) },
});

/** The rounds view as this caller may see it: a host's without the genders it does not need. */
const forCaller = (view: RoundsView, caller: Caller): RoundsView => ({
  ...view,
  people: genderForCaller(view.people, view.format, caller),
});

export const roundsRoutes = (deps: AppDeps) => {
  // Each call but the guest's is a staffRoute: the organiser, or a host of the event
  // (docs/decisions/022-host-access.md). The answer's people carry no email and no phone, so a host
  // sees what the organiser sees.
  return (
    apiRouter()
      .openapi(staffRoute(deps, roundsRoute, { param: "id" }), (c) => {
        const eventId = c.req.valid("param").id;
        return c.json(forCaller(getRounds(deps.db, eventId, deps.now()), callerOf(c)), 200);
      })
      .openapi(staffRoute(deps, planRoute, { json: "eventID" }), (c) => {
        const { eventID, ...settings } = c.req.valid("json");
        const { preview, ...chosen } = settings;
        const view = planEventRounds(deps.db, { eventId: eventID, ...chosen }, deps.now(), { preview });
        if (!preview) {
          logActivity(c, deps, { action: "rounds planned", eventId: eventID });
          notifyRoom(deps, eventID, "plan", view);
        }
        return c.json(forCaller(view, callerOf(c)), 200);
      })
      .openapi(staffRoute(deps, runRoute, { json: "eventID" }), (c) => {
        const body = c.req.valid("json");
        const view = runRounds(
          deps.db,
          { eventId: body.eventID, action: body.action, shown: { current: body.current, phase: body.phase } },
          deps.now(),
        );
        logActivity(c, deps, { action: "rounds controlled", eventId: body.eventID, detail: body.action });
        notifyRoom(deps, body.eventID, body.action, view);
        return c.json(forCaller(view, callerOf(c)), 200);
      })
      .openapi(staffRoute(deps, announceRoute, { json: "eventID" }), (c) => {
        const body = c.req.valid("json");
        const { changed, ...view } = announceToRoom(deps.db, { eventId: body.eventID, text: body.text }, deps.now());
        if (changed) {
          logActivity(c, deps, {
            action: "room announcement",
            eventId: body.eventID,
            detail: view.announcement ?? "taken down",
          });
          notifyRoom(deps, body.eventID, "announcement", view);
        }
        return c.json(forCaller(view, callerOf(c)), 200);
      })
      .openapi(staffRoute(deps, leftRoute, { json: "eventID" }), (c) => {
        const body = c.req.valid("json");
        const { changed, ...view } = markLeft(
          deps.db,
          { eventId: body.eventID, userId: body.userID, left: body.left },
          deps.now(),
        );
        if (changed) {
          logActivity(c, deps, {
            action: "marked left",
            eventId: body.eventID,
            userId: body.userID,
            detail: body.left ? "left" : "back",
          });
          notifyRoom(deps, body.eventID, "people", view);
        }
        return c.json(forCaller(view, callerOf(c)), 200);
      })
      // **Message guests**: what the dialog shows first (the count of each audience), then the send.
      .openapi(staffRoute(deps, messagePreviewRoute, { param: "id" }), (c) => {
        const eventId = c.req.valid("param").id;
        return c.json(previewGuestMessage(deps.db, eventId, deps.now()), 200);
      })
      .openapi(staffRoute(deps, messageRoute, { json: "eventID" }), async (c) => {
        const body = c.req.valid("json");
        const result = await messageGuests(deps, {
          eventId: body.eventID,
          to: body.to,
          text: body.text,
          clientKey: body.messageID,
          actor: actorOf(c),
        });
        if (result.created)
          logActivity(c, deps, { action: "guests messaged", eventId: body.eventID, detail: body.text });
        return c.json({ sent: result.sent, failed: result.failed }, 200);
      })
      // Keep apart, the organiser's card on the same console (keep-apart-routes.ts).
      .route("/", keepApartRoutes(deps))
      .openapi(myRoundsRoute, (c) => {
        const body = c.req.valid("json");
        return c.json(
          myRounds(deps, { eventId: body.eventID, userId: body.userID, token: body.token }, deps.now()),
          200,
        );
      })
  );
};
