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
// Why one file: the room's calls of the night, each its createRoute (with the reference's prose, its
// description and refusals: docs/api.md) beside its handler, all behind the one staff scope
// (staffRoute); the work itself is in rounds.ts and rounds-guest.ts.

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
  description: [
    "- **Who:** organiser or host session (a host: its own event only).",
    "- **200:** the host's view (`RoundsView`), as below.",
    "",
    "**The clock.** Each round lasts `roundMinutes`, then a changeover of `breakMinutes` (none when 0)",
    "while the movers change table, then the next round starts by itself; the last round's end finishes",
    "the rounds. The server works the phase out from the clock when asked, so no call is needed for time",
    'to pass. `current` is the round that started last: during a changeover (`phase: "break"`) it is the',
    "round just played, and the movers are going to round `current + 1`. `phaseEndsAt` (ISO 8601 UTC) is",
    "when the phase ends; while paused, it is when the phase would end if resumed now, so",
    "`phaseEndsAt − serverNow` is always the time left. `serverNow` is the server's clock at the answer,",
    "for phones to correct their own. Once the event has ended the rounds show as `finished`, stopped",
    "where the organiser ended it.",
    "",
    "**The host's view** (`RoundsView`), answered by the four host calls:",
    "",
    "- `eventStatus`: the event's status (`upcoming`, `started`, `ended`, `cancelled`); the rounds run",
    "  while it is `started` and are read-only once it has ended.",
    "- `status`: `none` (nothing planned), `planned`, `running`, `paused` or `finished`.",
    "- `settings`: `{roundMinutes, breakMinutes, maxRounds, seated}` (the defaults `5`, `1`, `null`,",
    "  `female` before planning).",
    "- `current`: integer or `null` before the start; `phase`: `round`, `break` or `null` (not running",
    "  nor paused); `phaseEndsAt`: ISO 8601 UTC or `null`; `serverNow`: ISO 8601 UTC.",
    "- `present`: `{female, male}`, how many are present now.",
    "- `rounds`: the plan, `[{round, pairs: [{table, femaleID, maleID}], sitOut: [userID]}]`, `round`",
    "  from 1; tables from 1. Rounds up to `current` have started and never change.",
    "- `people`: every checked-in attendee, present or left, by name:",
    "  `[{userID, username, gender?, image_name, left, arrivedAt, age}]` (`image_name` the thumbnail,",
    "  `arrivedAt` the check-in, ISO 8601 UTC; `age` on the event's date or `null`). No emails, no",
    "  phones, no dates of birth. A host's copy carries no `gender` at One group and Mixed, and at Women",
    "  meet men only `female` or `male`, which its counts need; the organiser's keeps it",
    "  (docs/decisions/040-sharing-defaults-and-stream-rights.md). The same for the roster's and the",
    "  ratings' people.",
    "- `arrivals`: `[userID]`, present now but not in the plan (checked in, or back, since the last",
    "  plan); empty before planning.",
    "- `metBefore`: `[{round, table}]`, the plan's seats where the two met at an earlier night (seated",
    "  together in a started round of another event, known by their verified numbers); the console",
    "  shows `2 pairs met at an earlier night` (`1 pair …`). Empty unless the night's numbers force it:",
    "  see `plan-rounds`.",
    "- `announcement`: the host's **Announce** (`room-announcement`) while the round it was made in lasts,",
    "  its changeover included; `null` otherwise.",
  ].join("\n"),
  request: { params: eventParam },
  responses: {
    200: json(roundsView),
    ...errors("get", [...STAFF_ERRORS, "invalid_request", "not_found"], {
      403: "`forbidden` (a host, another event), `host_link_not_open` (a host, before the doors open).",
    }),
  },
});

const planRoute = createRoute({
  method: "post",
  path: "/plan-rounds",
  summary: "Plan rounds, or re-plan the rounds not yet started, from the people present now",
  description: [
    "**Plan rounds** and **Re-plan rounds**: builds the plan from the people present now. Before the",
    "start the whole plan is rebuilt; once the rounds run, the started rounds (up to `current`) are kept",
    "as they were and only the rounds not yet started are rebuilt, with no pair meeting twice. The clock",
    "is left as it is.",
    "",
    "Who meets whom also goes by earlier nights and the organiser's **Keep apart**",
    "(docs/decisions/030-nobody-across-the-table-twice.md): a pair kept apart is never seated (one of",
    "them sits that round out), and two people who met at an earlier night are seated together only",
    "where every plan of the night's shape (the same rounds, as many dates each) must, as few times as",
    "can be; the reply's `metBefore` says where.",
    "",
    "- **Who:** organiser or host session (a host: its own event only).",
    "- **Body (JSON):**",
    "  - `maxRounds?`: integer 1–200, or `null` for no cap (the plan has as many rounds as it takes",
    "    for everyone present to meet).",
    "  - A setting left out keeps its value (the default on the first plan).",
    "  - `preview?`: `true` answers the view the plan would give and stores nothing (nor logs it): the",
    "    console reads it before **Re-plan rounds** to warn of added rounds where fewer than half of the",
    "    people present meet someone.",
    "- **200:** the host's view (`RoundsView`, as `GET /api/admin-event/{id}/rounds` describes it), `status` `planned` (or unchanged once running or paused).",
  ].join("\n"),
  request: jsonBody(planBody),
  responses: {
    200: json(roundsView),
    ...errors("post", [...STAFF_ERRORS, "not_found", "wrong_state", "room_too_large"], {
      403: "`forbidden` (a host, another event), `host_link_not_open` (a host, before the doors open).",
      404: "`not_found` (event).",
      409: "`wrong_state` (the event is not `started`, or the rounds are finished), `room_too_large` (more than 100 women or more than 100 men present: the planner's cost on the request path, see docs/decisions/018-rounds.md; the reply carries `limit` and `present: {female, male}`).",
    }),
  },
});

const runRoute = createRoute({
  method: "post",
  path: "/run-rounds",
  summary: "The host's controls: start, pause, resume, +1 min, next, finish",
  description: [
    "The host's controls.",
    "",
    "- **Who:** organiser or host session (a host: its own event only).",
    "- **Body (JSON):** `eventID`: id; `action`: one of",
    "  - `start` (**Start rounds**): from `planned`, with at least one round; round 1 starts now;",
    "  - `pause` (**Pause**): from `running`; the time left stands still;",
    "  - `resume` (**Resume**): from `paused`; or from `finished` while the event is `started`: the last",
    "    round started runs again with a whole round to go (a Next pressed once too often in the last",
    "    round, or Finish rounds pressed early, is not the end of the night);",
    "  - `extend` (**+1 min**): running or paused; a minute more for the round or changeover;",
    "  - `next` (**Next**): running or paused; ends the round or changeover now (after the last round:",
    "    finished). Paused, the clock moves on and stays paused with the whole next phase left;",
    "  - `finish` (**Finish rounds**): running or paused; `current` stays the last round started.",
    "  - `current?`: integer or `null`; `phase?`: `round`, `break` or `null`: the round and phase the",
    "    console showed when the host pressed (the PWA always sends both). When given and the clock is no",
    "    longer there, nothing changes: 409 `stale_state`. So a double press or a retried Next moves the",
    "    night once, and a Next meant for a round that has since ended by itself does not skip the next.",
    "- **200:** the host's view (`RoundsView`, as `GET /api/admin-event/{id}/rounds` describes it).",
  ].join("\n"),
  request: jsonBody(runBody),
  responses: {
    200: json(roundsView),
    ...errors("post", [...STAFF_ERRORS, "not_found", "wrong_state", "stale_state"], {
      403: "`forbidden` (a host, another event), `host_link_not_open` (a host, before the doors open).",
      404: "`not_found` (event).",
      409: "`wrong_state` (the event is not `started`, nothing is planned, or the action does not fit the status: a second `start`, `pause` when paused, …), `stale_state` (see `current`, `phase`).",
    }),
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
  description: [
    "**Announce** (issue 37): a short line for the room's screen (**Full screen** on the Rounds tab) and",
    "every guest's round view, shown until the next round starts.",
    "",
    "- **Who:** organiser or host session (a host: its own event only).",
    "- **Body (JSON):** `eventID`: id; `text`: up to 140 characters after trimming; empty takes the",
    "  announcement down.",
    "- **200:** the host's view (`RoundsView`, as `GET /api/admin-event/{id}/rounds` describes it), with `announcement`. Recorded in the activity log as `room announcement`",
    "  with its words (or `taken down`), when it changed.",
  ].join("\n"),
  request: jsonBody(announceBody),
  responses: {
    200: json(roundsView),
    ...errors("post", [...STAFF_ERRORS, "not_found", "wrong_state"], {
      400: "`invalid_request` (over 140 characters: `Keep the announcement to 140 characters; it has 141.`).",
      403: "`forbidden` (a host, another event), `host_link_not_open` (a host, before the doors open).",
      404: "`not_found` (event).",
      409: "`wrong_state` (the event is not `started`, or the rounds are not running or paused).",
    }),
  },
});

const leftRoute = createRoute({
  method: "post",
  path: "/mark-left",
  summary: "Left: the attendee went home (or, with left false, is back)",
  description: [
    "**Left**: the attendee went home. They are no longer present: the next re-plan leaves them out,",
    "the rounds they played stay, and they stay a partner of the people they met. `left: false` takes",
    "it back.",
    "",
    "- **Who:** organiser or host session (a host: its own event only).",
    "- **200:** the host's view (`RoundsView`, as `GET /api/admin-event/{id}/rounds` describes it).",
  ].join("\n"),
  request: jsonBody(leftBody),
  responses: {
    200: json(roundsView),
    ...errors("post", [...STAFF_ERRORS, "not_found", "wrong_state", "refunded", "not_paid", "not_checked_in"], {
      403: "`forbidden` (a host, another event), `host_link_not_open` (a host, before the doors open).",
      404: "`not_found` (event or booking).",
      409: "`wrong_state` (the event is not `started`), `refunded`, `not_paid`, `not_checked_in` (`left: true` for someone not checked in).",
    }),
  },
});

const messagePreviewRoute = createRoute({
  method: "get",
  path: "/admin-event/{id}/message-guests",
  summary: "What the Message guests dialog shows first: how many each audience reaches, the hour's limit",
  description: [
    "What the **Message guests** dialog shows before sending (docs/decisions/019-running-the-night.md).",
    "",
    "- **Who:** organiser or host session (a host: its own event only).",
    "- **200:** `{eventName, counts: {all, arrived, not_arrived}, sentLastHour, perHour, open}`: how",
    "  many paid guests each audience reaches now (`arrived`: the guests who came, by the one definition",
    "  in api/night/attendance.ts: checked in at the door, or seated in a started round), how many",
    "  messages this event was sent in the last hour and how many an hour allows (5), and `open`, false",
    "  once the event has ended or was cancelled. Each guest's text is `{eventName}: {text}`",
    "  (common/guest-message.ts).",
  ].join("\n"),
  request: { params: eventParam },
  responses: {
    200: json(guestMessagePreview),
    ...errors("get", [...STAFF_ERRORS, "invalid_request", "not_found"], {
      403: "`forbidden` (a host, another event), `host_link_not_open` (a host, before the doors open).",
    }),
  },
});

const messageRoute = createRoute({
  method: "post",
  path: "/message-guests",
  summary: "Message guests: one text to the night's paid guests, all of them or by whether they came",
  description: [
    "**Message guests**: one text to the night's paid guests, through the outbox.",
    "",
    "- **Who:** organiser or host session (a host: its own event only).",
    "- **Body (JSON):**",
    "  - `to`: `all` (every paid guest), `arrived` (those who came) or `not_arrived` (the rest).",
    "  - `text`: 1–320 characters after trimming; line breaks allowed, no other control characters.",
    "  - `messageID?`: the sender's own id for this message, 8–64 of `A–Z a–z 0–9 _ -` (the PWA makes",
    "    one per dialog). A send repeated with the same `messageID` is the same message: nothing new is",
    "    queued, logged or counted, and its texts still pending are sent again.",
    "- **200:** `{sent, failed}`: texts sent now, and those that failed and stay queued for the retry",
    "  loop. Each guest's text is keyed by the message and the guest, so nobody gets one message twice,",
    "  across retries and restarts. Logged in Activity as `guests messaged` with the text.",
  ].join("\n"),
  request: jsonBody(messageBody),
  responses: {
    200: json(messagesSent),
    ...errors("post", [...STAFF_ERRORS, "not_found", "wrong_state", "rate_limited"], {
      403: "`forbidden` (a host, another event), `host_link_not_open` (a host, before the doors open).",
      404: "`not_found` (event).",
      409: "`wrong_state` (the event has ended or was cancelled).",
      429: "`rate_limited` (5 messages to this event in the last hour).",
    }),
  },
});

const myRoundsRoute = createRoute({
  method: "post",
  path: "/my-rounds",
  summary: "The guest's night from the start link: their table and partner in each round, and the clock",
  description: [
    "The guest's view of the night, on the page the start link opens (`/ParticipantFeedback`). Phones",
    "follow `round-events` and read it again when that stream opens or says the plan changed, poll it",
    "every few seconds while the stream is down, and keep the last answer for offline use.",
    "",
    "- **Who:** capability link token (the start link's), for a paid, unrefunded attendee.",
    "- **200:** `{status, current, phase, phaseEndsAt, serverNow, schedule, announcement}`: the clock as in the host's",
    "  view (`status` `none` and an empty `schedule` while nothing is planned), and `schedule`, this",
    "  guest's rounds in order, `[{round, table, partner}]`: `table` the table number, or `null` when",
    "  sitting this round out (`partner` is then `null` too); `partner` `{id, username, image_name}`",
    "  (`image_name` the thumbnail). Rounds the guest is not part of (they arrived after planning, or",
    "  left) are not listed. `announcement` as in the host's view.",
  ].join("\n"),
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
