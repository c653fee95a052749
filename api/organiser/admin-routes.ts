import { createRoute } from "@hono/zod-openapi";
import { eventId, eventImageForm, eventUpdateBody, newEventForm } from "../../common/event-fields.ts";
import { creditOutstanding } from "../booking/credit.ts";
import { documentByNumber } from "../booking/documents.ts";
import { pdfDownload } from "../booking/documents-pdf.ts";
import { findEvent } from "../booking/event-lookup.ts";
import { type LISTED, listWaitlist } from "../booking/waitlist.ts";
import type { AppDeps } from "../deps.ts";
import { ADMIN_ERRORS, adminRoute } from "../lib/admin-session.ts";
import { NotFound } from "../lib/errors.ts";
import { readFormOnce } from "../lib/multipart.ts";
import { apiRouter, done, errors, file, formBody, json, jsonBody, z } from "../lib/openapi.ts";
import { logActivity } from "../lib/staff.ts";
import { idParam } from "../lib/validate.ts";
import { notifyRoom } from "../night/room-events.ts";
import { adminAuthRoutes } from "./admin-auth-routes.ts";
import { getAdminEvent, listAdminEvents } from "./admin-event-replies.ts";
import {
  adminEventDetail,
  adminEventList,
  adminEventSummary,
  adminWaitlist,
  eventParticipants,
} from "./admin-schemas.ts";
import { cancelEvent } from "./cancel-event.ts";
import { changedEventFields } from "./event-changes.ts";
import { endEvent, startEvent } from "./event-lifecycle.ts";
import { eventSummary } from "./event-summary.ts";
import { cancelForGuestsToChoose } from "./guest-choices.ts";
import { addEvent, editEvent, replaceEventPicture } from "./organiser-events.ts";
import { listEventParticipants } from "./participants.ts";
import { participantsCsv } from "./participants-csv.ts";
import { bookingOfPayment, refundPayment } from "./refunds.ts";
import { shortOfNumbersOf } from "./short-of-numbers.ts";

const idParams = z.object({ id: idParam(z) });
const eventIdBody = z.object({ eventId });

// Why one file: the organiser's calls about events (add, edit, pictures, cancel, the lists), each its
// createRoute (with the reference's prose, its description and refusals: docs/api.md) beside its
// handler, all behind the one admin check; the work itself is in admin-events.ts and its neighbours.
// A path's event id that is not one: 400; an event that is not there: 404.
const BY_ID = [...ADMIN_ERRORS, "invalid_request", "not_found"] as const;

/** `{success: true}` and the counts of the texts a step sent now and left for the retry loop. */
const textsSent = z.strictObject({ success: z.literal(true), sent: z.number().int(), failed: z.number().int() });

const adminEventsRoute = createRoute({
  method: "get",
  path: "/admin-events",
  summary: "Every event, soonest first, with its seat plan; never cached",
  description: [
    "- **Who:** organiser session.",
    "- **200:** every event, soonest first: `EventSummary` plus `seatsMale`, `seatsFemale`, the minimums and",
    "  `shortOfNumbers`: `null`, or `{short: [{side, needed, booked}], at}` while an upcoming night's check",
    "  at `minimumBy` found it short (docs/decisions/059-short-of-numbers.md). Never cached.",
  ].join("\n"),
  responses: { 200: json(adminEventList), ...errors("get", ADMIN_ERRORS, { 403: "`forbidden` (a host session)." }) },
});

const adminEventRoute = createRoute({
  method: "get",
  path: "/admin-event/{id}",
  summary: "One event's fields, as the Edit form reads them; never cached",
  description: [
    "- **Who:** organiser session.",
    "- **200:** `AdminEventDetail`: `EventDetail` and Go ahead only with at least's `minimumFemale`, `minimumMale`, `minimumTotal` (null for none) and `minimumBy` (ISO UTC, null when none is set), never cached.",
  ].join("\n"),
  request: { params: idParams },
  responses: { 200: json(adminEventDetail), ...errors("get", BY_ID, { 403: "`forbidden` (a host session)." }) },
});

const saveEventRoute = createRoute({
  method: "post",
  path: "/save-event",
  summary: "Creates an event with its picture",
  description: [
    "Creates an event. Number fields accept a number or its plain decimal text (multipart sends text).",
    "",
    "- **Who:** organiser session.",
    "- **Body (multipart):**",
    "  - `eventName`: text 1–120.",
    "  - `eventDate`: `YYYY-MM-DD`, a real date; tomorrow or later at the venue.",
    "  - `eventTime`: `H:M` (`19:30`, `9:0`), hours 0–23, minutes 0, 15, 30 or 45; with `eventDate`, the",
    "    start in UTC.",
    "  - `eventAddress`: text 1–300.",
    "  - `totalSeats`: integer 1–10,000.",
    "  - `bookingAmount`: AUD dollars, 0.50–100,000, at most 2 decimals.",
    "  - `eventImage`: file, required and not empty, ≤ 5,242,880 bytes, a JPEG, PNG or WebP.",
    "  - `eventduration`: hours, > 0 and ≤ 24.",
    "  - `fromage`, `toage`: integers 18–99, `fromage` ≤ `toage`.",
    "  - `timeZone?`: IANA zone name ≤ 64 (stored in its canonical spelling); default `EVENT_TIME_ZONE`.",
    "  - `seatsMale?`, `seatsFemale?`: integers 0–10,000, both or neither, adding up to `totalSeats`",
    "    (a balanced event).",
    "  - `resultsAt?`: ISO 8601 date-time with its offset (`2026-11-30T01:00:00Z`), not before the",
    "    planned end; empty or left out for the default (12:00 PM the day after, on the venue's clock).",
    "  - `doorsOpenAt?`: ISO 8601 date-time with its offset, no later than the start; empty or left out",
    "    for the default (3 hours before the start).",
    "  - `creditUntil?`: ISO 8601 date-time with its offset, no later than the start (400 otherwise): until",
    "    when a guest's cancel may be taken as credit; empty or left out for the default, the start.",
    "  - `minimumFemale?`, `minimumMale?` (Women meet men) or `minimumTotal?` (one pool): Go ahead only",
    "    with at least, integers 1–10,000, none above its seats; empty or left out for none. `minimumBy?`:",
    "    when they are decided, as `creditUntil`; default 48 hours before the start.",
    "  - `noMatchPromise?`: `1` promises `No match? Your next night is on us.`; `0` or left out, not.",
    "  - The **Prices** group and per-gender ages, all optional (an empty field is the same as none):",
    "    `bookingAmountMale?`, `bookingAmountFemale?` (AUD dollars as `bookingAmount`);",
    "    `earlyBirdDiscount?` (AUD dollars as `bookingAmount`) and `earlyBirdUntil?` (`YYYY-MM-DDTHH:MM`",
    "    on the venue's clock), both or neither; `fromAgeMale?`, `toAgeMale?`, `fromAgeFemale?`,",
    "    `toAgeFemale?` (integers 18–99; each gender's range, with `fromage`/`toage` standing in for a",
    "    bound left out, must not be crossed).",
    "  - The cancellation policy, optional: `cancelFullRefundHours?` (whole hours 0–720, default 48) and",
    "    `cancelLaterPercent?` (whole percent 0–100, default 0 = none).",
    "  - `offersFriend?`: `1` to offer Friend beside Date and No (issue 37), `0` or left out for Like and",
    "    Dislike.",
    "  - `format?`: `women_men` (left out), `one_group` or `mixed`. The last two are one pool of seats:",
    "    `seatsMale`/`seatsFemale` with them are 400.",
    "- **200:** `{success: true, id}`.",
  ].join("\n"),
  request: formBody(newEventForm),
  responses: {
    200: json(z.strictObject({ success: z.literal(true), id: z.number().int() })),
    ...errors("post", [...ADMIN_ERRORS, "doors_after_start", "not_an_image"], { 403: "`forbidden` (a host session)." }),
  },
});

const updateEventRoute = createRoute({
  method: "post",
  path: "/update-event",
  summary: "Edits an upcoming or started event; fields left out keep their values",
  description: [
    "Edits an upcoming or started event. Fields left out keep their values. Seats added go at once to",
    "whoever waits for them.",
    "",
    "- **Who:** organiser session.",
    "- **Body (JSON):** numbers may also be sent as plain decimal text.",
    "  - `eventid`: id.",
    "  - `eventName`: text 1–120.",
    "  - `eventDate`: `YYYY-MM-DD`; a changed day must be tomorrow or later at the venue.",
    "  - `totalSeats`: integer 1–10,000, not below the seats taken.",
    "  - `eventTime?`: `H:M` as for `save-event`.",
    "  - `eventduration?`: hours, > 0 and ≤ 24.",
    "  - `fromage?`, `toage?`: integers 18–99.",
    "  - `timeZone?`: IANA zone name ≤ 64.",
    "  - `eventAddress?`: text 1–300.",
    "  - `bookingAmount?`: AUD dollars as for `save-event`; bookings already paid keep their price.",
    "  - `seatsMale?`, `seatsFemale?`: integers 0–10,000 or `null`; both numbers to split the seats,",
    "    both `null` for one pool, both left out to keep the plan.",
    "  - `resultsAt?`: ISO 8601 date-time with its offset, not before the planned end (also after a",
    "    changed start or duration); `null` for the default again, left out to keep it.",
    "  - `doorsOpenAt?`: ISO 8601 date-time with its offset, no later than the (changed) start; `null` for",
    "    the default again, left out to keep it. Once someone is checked in it may only move earlier.",
    "  - `creditUntil?`: as for `save-event`, no later than the (changed) start; `null` for the default",
    "    again (the start), left out to keep it.",
    "  - `minimumFemale?`, `minimumMale?`, `minimumTotal?`, `minimumBy?`: as for `save-event`; `null`",
    "    turns a count off (or `minimumBy` back to the default), left out keeps it. `noMatchPromise?`: boolean.",
    "  - The prices and per-gender ages as for `save-event`, each also `null` to clear it; left out, a",
    "    field keeps its value. Seats already held or paid keep their price.",
    "  - `cancelFullRefundHours?`, `cancelLaterPercent?` as for `save-event`; left out, kept. A new",
    "    policy applies to every cancel from then on.",
    "  - `offersFriend?`: boolean; left out, kept. It may not change once the night has started.",
    "  - `format?`: as for `save-event`; left out, kept. Changing it once anyone has booked (a held, paid,",
    "    refunded or cancelled seat) is 409 `format_locked`, and changes nothing. Moving to `one_group`",
    "    or `mixed` clears the seats by gender.",
    "- **200:** `{success: true}`. Recorded in the activity log as `event edited` with the fields that",
    "  changed (`price, seats`), and not at all when nothing changed.",
  ].join("\n"),
  request: jsonBody(eventUpdateBody),
  responses: {
    200: json(done),
    ...errors(
      "post",
      [
        ...ADMIN_ERRORS,
        "doors_after_start",
        "not_found",
        "wrong_state",
        "seats_taken",
        "doors_in_use",
        "format_locked",
      ],
      {
        403: "`forbidden` (a host session).",
        409: "`wrong_state` (ended or cancelled), `seats_taken` (with `takenSeats`; the message says the side and the count in words: `Women's seats can't go below the 5 already paid.`), `doors_in_use` (the doors-open time moved later after someone was checked in), `format_locked` (`offersFriend` changed after the start).",
      },
    ),
  },
});

const updateEventImageRoute = createRoute({
  method: "post",
  path: "/update-event-image",
  summary: "Replaces an event's picture (the old one is deleted)",
  description: [
    "- **Who:** organiser session.",
    "- **200:** `{success: true, event_image}`: the new stored name (the old picture is deleted).",
  ].join("\n"),
  request: formBody(eventImageForm),
  responses: {
    200: json(z.strictObject({ success: z.literal(true), event_image: z.string() })),
    ...errors("post", [...ADMIN_ERRORS, "not_found", "wrong_state", "not_an_image"], {
      403: "`forbidden` (a host session).",
      409: "`wrong_state` (ended or cancelled).",
    }),
  },
});

const cancelEventRoute = createRoute({
  method: "post",
  path: "/cancel-event",
  summary: "Cancels an upcoming event and refunds every paid booking; again on a cancelled one, finishes the refunds",
  description: [
    "Cancels an upcoming event: holds released, the waitlist closed (and texted), every paid booking",
    "refunded and every attendee texted once. Calling it again on a cancelled event retries the refunds",
    'still owed ("Finish refunds") and texts nobody twice. The background refunds job also refunds every',
    "booking still paid at a cancelled event (a cancel that crashed part-way), every 5 minutes.",
    "",
    "- **Who:** organiser session.",
    "- **Body:** `{eventId, guestsChoose?}`: with `guestsChoose: true` (**Cancel the night**, decision 059)",
    "  nobody is refunded now: each paid guest is texted a link `/choose?t=` to take a refund or credit",
    "  within 72 hours (the refund if they don't), and `asked` says how many.",
    "- **200:** `{success: true, refunded, failed, sent, smsFailed, asked?}`: refunds made now, refunds that",
    "  failed (still owed), texts sent, texts not sent yet (retried in the background).",
  ].join("\n"),
  request: jsonBody(z.object({ eventId, guestsChoose: z.boolean().optional() })),
  responses: {
    200: json(
      z.strictObject({
        success: z.literal(true),
        refunded: z.number().int(),
        failed: z.number().int(),
        sent: z.number().int(),
        smsFailed: z.number().int(),
        asked: z.number().int().optional(),
      }),
    ),
    ...errors("post", [...ADMIN_ERRORS, "not_found", "wrong_state"], {
      403: "`forbidden` (a host session).",
      409: "`wrong_state` (started or ended).",
    }),
  },
});

const waitlistRoute = createRoute({
  method: "get",
  path: "/admin-event/{id}/waitlist",
  summary: "The event's waitlist: the line, then those whose place closed at the start",
  description: [
    "- **Who:** organiser session.",
    "- **200:** `{success: true, waitlist: [{position, name, phone, gender, status, joinedAt}]}`: everyone",
    "  still in line, first first, then everyone who was still in line when sales closed (Start Event, or",
    "  the start time passing) with the place they had; `position` per gender at a balanced event;",
    "  `status` `waiting`, `offered` or `closed` (the PWA: **Closed at the start**; each was texted once",
    "  that the line has closed: api/messaging/templates/waitlist.ts); `joinedAt` ISO 8601 UTC.",
  ].join("\n"),
  request: { params: idParams },
  responses: { 200: json(adminWaitlist), ...errors("get", BY_ID, { 403: "`forbidden` (a host session)." }) },
});

const summaryRoute = createRoute({
  method: "get",
  path: "/admin-event-summary/{id}",
  summary: "The Overview tab: seats, money, arrivals and ratings of one event",
  description: [
    "The Overview tab.",
    "",
    "- **Who:** organiser session.",
    "- **200:** `{eventId, status, seats, paid, held, waitlist, refunded, checkedIn, revenue, discount,",
    "  codes, matches, feedbackGiven, ratings, came, noShows}`: `seats` and `paid` are `{total, male, female}` (per",
    "  gender `null` unless balanced; `paid` counts paid, unrefunded bookings); `held` live holds;",
    "  `waitlist` people in line; `refunded` refunded bookings; `checkedIn` arrivals; `revenue` AUD",
    "  dollars received minus refunded (so after every discount); `discount` AUD dollars taken off list",
    "  prices (early bird and codes) on paid bookings; `codes` `[{code, uses, discount}]` per promo code",
    "  used by a paid booking; `matches` (mutual pairs) is `null` until the results are released;",
    "  `ratings` is `{done, total}`: guests who came, met someone and rated everyone they met, of those",
    "  who came and met someone (`{0, 0}` before the start; the same numbers as the Rounds tab's);",
    "  `feedbackGiven` is `ratings.done` once the event has ended, `null` before; `came` paid guests who",
    "  came (checked in at the door, or seated in a started round; every paid guest when the night",
    "  recorded neither) and `noShows` the other paid guests (both 0 before the start);",
    "  `creditOutstandingCents` the credit every guest holds, issued less spent (issue 52);",
    "  `shortOfNumbers` as on `admin-events`.",
  ].join("\n"),
  request: { params: idParams },
  responses: { 200: json(adminEventSummary), ...errors("get", BY_ID, { 403: "`forbidden` (a host session)." }) },
});

const participantsCsvRoute = createRoute({
  method: "get",
  path: "/admin-event/{id}/participants.csv",
  summary: "The event's bookings and waitlist as a spreadsheet (an attachment)",
  description: [
    "- **Who:** organiser session.",
    "- **200:** `text/csv; charset=utf-8`, `Content-Disposition: attachment;",
    '  filename="{name}-{date}-participants.csv"`: the event\'s name as lower-case ASCII letters, digits',
    "  and hyphens (accents dropped, at most 60 characters; `event-{id}` when nothing is left) and its",
    "  date at the venue (`harbour-lights-mixer-2026-12-01-participants.csv`). Header row",
    "  `name,email,phone,gender,age,status,amount,discount,code,payment_intent_id,invoice_number,booked_at ({zone}),checked_in_at ({zone})`",
    "  with the event's `time_zone` (`booked_at (Australia/Sydney)`); one row per paid or refunded",
    "  booking, oldest first; `age` on the event's date (empty when no date of birth was given),",
    "  `amount` what was charged and `discount` what came off the list price, `code` the promo code",
    "  used, `invoice_number` the booking's receipt or tax invoice (`INV-000123`; empty when it has none); phones as `0412 345 678`, amounts in dollars with 2 decimals, times on the",
    "  venue's clock as `YYYY-MM-DD HH:MM` (24-hour, `2026-11-29 19:05`; empty when not checked in). Cells",
    "  that a spreadsheet would run as a formula get a leading `'`. After the bookings, the waitlist, in",
    "  the same columns: `name`, `phone`, `gender`, `status` `waitlist (waiting)`, `waitlist (offered a",
    "  seat)` or `waitlist (closed at the start)`, and `booked_at` when they joined; the rest empty.",
  ].join("\n"),
  request: { params: idParams },
  responses: {
    200: file("text/csv", "The CSV file, `Content-Disposition: attachment` with the event's name and date"),
    ...errors("get", BY_ID, { 403: "`forbidden` (a host session)." }),
  },
});

const startEventRoute = createRoute({
  method: "post",
  path: "/start-event",
  summary: "Starts an upcoming event: sales close and every paid attendee is texted the rating link",
  description: [
    "Moves an event from `upcoming` to `started` and texts every paid attendee the feedback link",
    "`/ParticipantFeedback?par1={userID}&par2={eventID}&t={token}`. Sales close: everyone still on the",
    "waitlist is texted once (through the outbox, never twice across restarts) that their place has",
    "closed, and kept on the organiser's list as `closed`; the scheduler does the same when the start",
    "time passes without Start Event.",
    "",
    "- **Who:** organiser session.",
    "- **200:** `{success: true, sent, failed}`: texts sent now, and not sent yet (retried in the",
    "  background).",
  ].join("\n"),
  request: jsonBody(eventIdBody),
  responses: {
    200: json(textsSent),
    ...errors("post", [...ADMIN_ERRORS, "not_found", "wrong_state"], {
      403: "`forbidden` (a host session).",
      409: "`wrong_state` (not `upcoming`).",
    }),
  },
});

const endEventRoute = createRoute({
  method: "post",
  path: "/end-event",
  summary: "Ends a started event and texts every paid attendee",
  description: [
    "Moves an event from `started` to `ended` and texts every paid attendee who came a thank-you with",
    "the rating link again (`/ParticipantFeedback…`) and when the results come (`Rate the people you met",
    "by 12:00 PM AEDT tomorrow`); a paid attendee who did not come gets one text instead, without a link:",
    "the no-show text of api/messaging/templates/night.ts, and nothing at the release. The report link follows at the release (docs/api.md, Results). The server does the",
    "same for a night still `started` 3 hours after its planned end.",
    "",
    "- **Who:** organiser session.",
    "- **200:** `{success: true, sent, failed}`.",
  ].join("\n"),
  request: jsonBody(eventIdBody),
  responses: {
    200: json(textsSent),
    ...errors("post", [...ADMIN_ERRORS, "not_found", "wrong_state"], {
      403: "`forbidden` (a host session).",
      409: "`wrong_state` (not `started`).",
    }),
  },
});

const participantsRoute = createRoute({
  method: "get",
  path: "/get-event-user/{id}",
  summary: "The participants table: paid and refunded bookings, oldest first",
  description: [
    "The participants table.",
    "",
    "- **Who:** organiser session.",
    "- **200:** array, oldest booking first, of the paid and refunded bookings:",
    "  `{id, username, gender, booking_amount, payment_intent_id, image_name, phone, status, checkedInAt,",
    "  email, bookedAt, age, discount, code, invoiceNumber, emailBounced}`: `id` the attendee's user id; `booking_amount` AUD dollars",
    "  paid; `age` on the event's date or `null`; `discount` AUD dollars off the list price; `code` the",
    "  promo code used or `null`; `invoiceNumber` the booking's receipt or tax invoice (`INV-000123`, its",
    "  PDF from `admin-invoice`) or `null` (paid before documents existed);",
    "  `payment_intent_id` string or `null`; `phone` E.164; `status` `paid` or `refunded`; `checkedInAt`",
    "  ISO 8601 UTC or `null`; `bookedAt` ISO 8601 UTC (when the payment went through); `emailBounced`",
    "  true once the buyer's address refused an email for good (docs/decisions/031-email-channel.md).",
  ].join("\n"),
  request: { params: idParams },
  responses: { 200: json(eventParticipants), ...errors("get", BY_ID, { 403: "`forbidden` (a host session)." }) },
});

const refundRoute = createRoute({
  method: "post",
  path: "/refund",
  summary: "Refunds a paid booking in full, once (a repeat answers the same refund)",
  description: [
    "Refunds a paid booking in full, once. Before the event starts its seat goes back on sale (and to",
    "the waitlist). The attendee is texted once with the amount and how long a card refund takes (at a",
    "cancelled event the cancellation's text says it instead).",
    "",
    "- **Who:** organiser session.",
    "- **200:** `{success: true, refundId}`; a repeated call answers the same `refundId` and never refunds",
    "  twice. A refund left half-done (claimed, then the provider failed or the server stopped) is",
    "  finished, even when the booking is no longer `paid` (a payment that found no seat). Local payments",
    "  refund with ids `re_local_…`.",
  ].join("\n"),
  request: jsonBody(z.object({ paymentIntentId: z.string().trim().min(1).max(255) })),
  responses: {
    200: json(z.strictObject({ success: z.literal(true), refundId: z.string() })),
    ...errors("post", [...ADMIN_ERRORS, "not_found", "not_paid", "provider_failed"], {
      403: "`forbidden` (a host session).",
      404: "`not_found` (no booking with that payment).",
    }),
  },
});

const adminInvoiceRoute = createRoute({
  method: "get",
  path: "/admin-invoice/{number}",
  summary: "A receipt, tax invoice or adjustment note by its number (INV-000123), as a PDF (an attachment)",
  description: [
    "The organiser's **Download invoice** on the participants list: any document by its number.",
    "",
    "- **Who:** organiser session.",
    "- **200:** the PDF.",
  ].join("\n"),
  request: {
    params: z.object({ number: z.string().regex(/^INV-\d{6,9}$/, "must be a document number such as INV-000123") }),
  },
  responses: {
    200: file(
      "application/pdf",
      'The PDF, `Content-Disposition: attachment; filename="INV-000123.pdf"`, `Cache-Control: no-store`',
    ),
    ...errors("get", BY_ID, { 403: "`forbidden` (a host session)." }),
  },
});

type Listed = (typeof LISTED)[number];

export const adminRoutes = (deps: AppDeps) => {
  // Each call names who may make it (api/lib/roles.ts): `reads` opens the lists every role needs to
  // pick an event, `money` is Finance's work, `managers` the rest. The calls with a picture take the
  // session first, then the form read once (api/lib/multipart.ts).
  return (
    apiRouter()
      .route("/", adminAuthRoutes(deps))
      // The panel's own reads of the public event calls: never cached anywhere. The service worker
      // answers /get-events and /get-event/{id} stale-while-revalidate for attendees, which would show
      // an organiser the status and fields from before their own last change.
      .openapi(adminRoute(deps, adminEventsRoute, "reads"), (c) => {
        return c.json(listAdminEvents(deps.db, deps.now()), 200);
      })
      .openapi(adminRoute(deps, adminEventRoute, "reads"), (c) => {
        return c.json(getAdminEvent(deps.db, c.req.valid("param").id, deps.now()), 200);
      })
      .openapi(adminRoute(deps, saveEventRoute, "managers", readFormOnce), async (c) => {
        const { id } = await addEvent(deps, c.req.valid("form"));
        logActivity(c, deps, { action: "event created", eventId: id });
        return c.json({ success: true as const, id }, 200);
      })
      .openapi(adminRoute(deps, updateEventRoute, "managers"), (c) => {
        const body = c.req.valid("json");
        const before = findEvent(deps.db, body.id);
        editEvent(deps, body);
        const after = findEvent(deps.db, body.id);
        // The fields that changed, by the names the form uses (`price, seats`); a save that changed
        // nothing logs nothing.
        const changed = before && after ? changedEventFields(before, after) : [];
        if (changed.length > 0) {
          logActivity(c, deps, { action: "event edited", eventId: body.id, detail: changed.join(", ") });
        }
        return c.json({ success: true as const }, 200);
      })
      .openapi(adminRoute(deps, updateEventImageRoute, "managers", readFormOnce), async (c) => {
        const form = c.req.valid("form");
        const { imageName } = await replaceEventPicture(deps, form.eventid, form.eventImage);
        logActivity(c, deps, { action: "event edited", eventId: form.eventid, detail: "picture" });
        return c.json({ success: true as const, event_image: imageName }, 200);
      })
      .openapi(adminRoute(deps, cancelEventRoute, "money"), async (c) => {
        const { eventId, guestsChoose } = c.req.valid("json");
        const result = guestsChoose ? await cancelForGuestsToChoose(deps, eventId) : await cancelEvent(deps, eventId);
        logActivity(c, deps, { action: "event cancelled", eventId });
        return c.json({ success: true as const, ...result }, 200);
      })
      .openapi(adminRoute(deps, waitlistRoute, "managers"), (c) => {
        const event = findEvent(deps.db, c.req.valid("param").id);
        if (!event) throw NotFound("no such event");
        // listWaitlist reads only the LISTED statuses; its rows are typed with every status there is.
        const waitlist = listWaitlist(deps.db, event).map((entry) => ({ ...entry, status: entry.status as Listed }));
        return c.json({ success: true as const, waitlist }, 200);
      })
      .openapi(adminRoute(deps, summaryRoute, "money"), (c) => {
        const id = c.req.valid("param").id;
        const summary = eventSummary(deps.db, id, deps.now());
        const event = findEvent(deps.db, id)!;
        const shortOfNumbers = shortOfNumbersOf(deps.db, event);
        return c.json({ ...summary, creditOutstandingCents: creditOutstanding(deps.db), shortOfNumbers }, 200);
      })
      .openapi(adminRoute(deps, participantsCsvRoute, "money"), (c) => {
        const { fileName, csv } = participantsCsv(deps.db, c.req.valid("param").id);
        return c.body(csv, 200, {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="${fileName}"`,
        });
      })
      .openapi(adminRoute(deps, startEventRoute, "managers"), async (c) => {
        const { eventId } = c.req.valid("json");
        const result = await startEvent(deps, eventId);
        logActivity(c, deps, { action: "event started", eventId });
        notifyRoom(deps, eventId, "event");
        return c.json({ success: true as const, ...result }, 200);
      })
      .openapi(adminRoute(deps, endEventRoute, "managers"), async (c) => {
        const { eventId } = c.req.valid("json");
        const result = await endEvent(deps, eventId);
        logActivity(c, deps, { action: "event ended", eventId });
        notifyRoom(deps, eventId, "event");
        return c.json({ success: true as const, ...result }, 200);
      })
      .openapi(adminRoute(deps, participantsRoute, "money"), (c) => {
        return c.json(listEventParticipants(deps.db, c.req.valid("param").id), 200);
      })
      .openapi(adminRoute(deps, adminInvoiceRoute, "money"), async (c) => {
        const doc = documentByNumber(deps.db, c.req.valid("param").number);
        if (!doc) throw NotFound("no such document");
        return pdfDownload(doc);
      })
      .openapi(adminRoute(deps, refundRoute, "money"), async (c) => {
        const { paymentIntentId } = c.req.valid("json");
        const { refundId, refundedNow } = await refundPayment(deps, paymentIntentId);
        // A repeat, or a second click that joined the refund under way, changed nothing.
        if (refundedNow) {
          const booking = bookingOfPayment(deps.db, paymentIntentId);
          logActivity(c, deps, { action: "refund", eventId: booking?.eventId, userId: booking?.userId });
        }
        return c.json({ success: true as const, refundId }, 200);
      })
  );
};
