import { createRoute } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { eventId, eventImageForm, eventUpdateBody, newEventForm } from "../../common/event-fields.ts";
import { documentByNumber } from "../booking/documents.ts";
import { pdfDownload } from "../booking/documents-pdf.ts";
import { findEvent } from "../booking/event-lookup.ts";
import { getEvent } from "../booking/events.ts";
import { eventDetail } from "../booking/events-schemas.ts";
import { type LISTED, listWaitlist } from "../booking/waitlist.ts";
import type { AppDeps } from "../deps.ts";
import { ADMIN_ERRORS, requireAdmin } from "../lib/admin-session.ts";
import type { CallerEnv } from "../lib/caller.ts";
import { NotFound } from "../lib/errors.ts";
import { readFormOnce } from "../lib/multipart.ts";
import { apiRouter, done, errors, file, formBody, json, jsonBody, z } from "../lib/openapi.ts";
import { logActivity } from "../lib/staff.ts";
import { idParam } from "../lib/validate.ts";
import { notifyRoom } from "../night/room-events.ts";
import { adminAuthRoutes } from "./admin-auth-routes.ts";
import { listAdminEvents } from "./admin-events.ts";
import { adminEventList, adminEventSummary, adminWaitlist, eventParticipants } from "./admin-schemas.ts";
import { cancelEvent } from "./cancel-event.ts";
import { changedEventFields } from "./event-changes.ts";
import { endEvent, startEvent } from "./event-lifecycle.ts";
import { eventSummary } from "./event-summary.ts";
import { addEvent, editEvent, replaceEventPicture } from "./organiser-events.ts";
import { listEventParticipants } from "./participants.ts";
import { participantsCsv } from "./participants-csv.ts";
import { bookingOfPayment, refundPayment } from "./refunds.ts";

const idParams = z.object({ id: idParam(z) });
const eventIdBody = z.object({ eventId });

// A path's event id that is not one: 400; an event that is not there: 404.
const BY_ID = [...ADMIN_ERRORS, "invalid_request", "not_found"] as const;

/** `{success: true}` and the counts of the texts a step sent now and left for the retry loop. */
const textsSent = z.strictObject({ success: z.literal(true), sent: z.number().int(), failed: z.number().int() });

const adminEventsRoute = createRoute({
  method: "get",
  path: "/admin-events",
  summary: "Every event, soonest first, with its seat plan; never cached",
  responses: { 200: json(adminEventList), ...errors("get", ADMIN_ERRORS) },
});

const adminEventRoute = createRoute({
  method: "get",
  path: "/admin-event/{id}",
  summary: "One event's fields, as the Edit form reads them; never cached",
  request: { params: idParams },
  responses: { 200: json(eventDetail), ...errors("get", BY_ID) },
});

const saveEventRoute = createRoute({
  method: "post",
  path: "/save-event",
  summary: "Creates an event with its picture",
  request: formBody(newEventForm),
  responses: {
    200: json(z.strictObject({ success: z.literal(true), id: z.number().int() })),
    ...errors("post", [...ADMIN_ERRORS, "doors_after_start", "not_an_image"]),
  },
});

const updateEventRoute = createRoute({
  method: "post",
  path: "/update-event",
  summary: "Edits an upcoming or started event; fields left out keep their values",
  request: jsonBody(eventUpdateBody),
  responses: {
    200: json(done),
    ...errors("post", [
      ...ADMIN_ERRORS,
      "doors_after_start",
      "not_found",
      "wrong_state",
      "seats_taken",
      "doors_in_use",
      "format_locked",
    ]),
  },
});

const updateEventImageRoute = createRoute({
  method: "post",
  path: "/update-event-image",
  summary: "Replaces an event's picture (the old one is deleted)",
  request: formBody(eventImageForm),
  responses: {
    200: json(z.strictObject({ success: z.literal(true), event_image: z.string() })),
    ...errors("post", [...ADMIN_ERRORS, "not_found", "wrong_state", "not_an_image"]),
  },
});

const cancelEventRoute = createRoute({
  method: "post",
  path: "/cancel-event",
  summary: "Cancels an upcoming event and refunds every paid booking; again on a cancelled one, finishes the refunds",
  request: jsonBody(eventIdBody),
  responses: {
    200: json(
      z.strictObject({
        success: z.literal(true),
        refunded: z.number().int(),
        failed: z.number().int(),
        sent: z.number().int(),
        smsFailed: z.number().int(),
      }),
    ),
    ...errors("post", [...ADMIN_ERRORS, "not_found", "wrong_state"]),
  },
});

const waitlistRoute = createRoute({
  method: "get",
  path: "/admin-event/{id}/waitlist",
  summary: "The event's waitlist: the line, then those whose place closed at the start",
  request: { params: idParams },
  responses: { 200: json(adminWaitlist), ...errors("get", BY_ID) },
});

const summaryRoute = createRoute({
  method: "get",
  path: "/admin-event-summary/{id}",
  summary: "The Overview tab: seats, money, arrivals and ratings of one event",
  request: { params: idParams },
  responses: { 200: json(adminEventSummary), ...errors("get", BY_ID) },
});

const participantsCsvRoute = createRoute({
  method: "get",
  path: "/admin-event/{id}/participants.csv",
  summary: "The event's bookings and waitlist as a spreadsheet (an attachment)",
  request: { params: idParams },
  responses: {
    200: file("text/csv", "The CSV file, `Content-Disposition: attachment` with the event's name and date"),
    ...errors("get", BY_ID),
  },
});

const startEventRoute = createRoute({
  method: "post",
  path: "/start-event",
  summary: "Starts an upcoming event: sales close and every paid attendee is texted the rating link",
  request: jsonBody(eventIdBody),
  responses: { 200: json(textsSent), ...errors("post", [...ADMIN_ERRORS, "not_found", "wrong_state"]) },
});

const endEventRoute = createRoute({
  method: "post",
  path: "/end-event",
  summary: "Ends a started event and texts every paid attendee",
  request: jsonBody(eventIdBody),
  responses: { 200: json(textsSent), ...errors("post", [...ADMIN_ERRORS, "not_found", "wrong_state"]) },
});

const participantsRoute = createRoute({
  method: "get",
  path: "/get-event-user/{id}",
  summary: "The participants table: paid and refunded bookings, oldest first",
  request: { params: idParams },
  responses: { 200: json(eventParticipants), ...errors("get", BY_ID) },
});

const refundRoute = createRoute({
  method: "post",
  path: "/refund",
  summary: "Refunds a paid booking in full, once (a repeat answers the same refund)",
  request: jsonBody(z.object({ paymentIntentId: z.string().trim().min(1).max(255) })),
  responses: {
    200: json(z.strictObject({ success: z.literal(true), refundId: z.string() })),
    ...errors("post", [...ADMIN_ERRORS, "not_found", "not_paid", "provider_failed"]),
  },
});

const adminInvoiceRoute = createRoute({
  method: "get",
  path: "/admin-invoice/{number}",
  summary: "A receipt, tax invoice or adjustment note by its number (INV-000123), as a PDF (an attachment)",
  request: {
    params: z.object({ number: z.string().regex(/^INV-\d{6,9}$/, "must be a document number such as INV-000123") }),
  },
  responses: {
    200: file(
      "application/pdf",
      'The PDF, `Content-Disposition: attachment; filename="INV-000123.pdf"`, `Cache-Control: no-store`',
    ),
    ...errors("get", BY_ID),
  },
});

type Listed = (typeof LISTED)[number];

export const adminRoutes = (deps: AppDeps) => {
  const admin = requireAdmin(deps);
  // The calls with a picture: the session first, then the form read once (api/lib/multipart.ts).
  const adminForm: [MiddlewareHandler<CallerEnv>, MiddlewareHandler<CallerEnv>] = [admin, readFormOnce];
  return (
    apiRouter()
      .route("/", adminAuthRoutes(deps))
      // The panel's own reads of the public event calls: never cached anywhere. The service worker
      // answers /get-events and /get-event/{id} stale-while-revalidate for attendees, which would show
      // an organiser the status and fields from before their own last change.
      .openapi({ ...adminEventsRoute, middleware: admin }, (c) => {
        return c.json(listAdminEvents(deps.db, deps.now()), 200);
      })
      .openapi({ ...adminEventRoute, middleware: admin }, (c) => {
        return c.json(getEvent(deps.db, c.req.valid("param").id, deps.now()), 200);
      })
      .openapi({ ...saveEventRoute, middleware: adminForm }, async (c) => {
        const { id } = await addEvent(deps, c.req.valid("form"));
        logActivity(c, deps, { action: "event created", eventId: id });
        return c.json({ success: true as const, id }, 200);
      })
      .openapi({ ...updateEventRoute, middleware: admin }, (c) => {
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
      .openapi({ ...updateEventImageRoute, middleware: adminForm }, async (c) => {
        const form = c.req.valid("form");
        const { imageName } = await replaceEventPicture(deps, form.eventid, form.eventImage);
        logActivity(c, deps, { action: "event edited", eventId: form.eventid, detail: "picture" });
        return c.json({ success: true as const, event_image: imageName }, 200);
      })
      .openapi({ ...cancelEventRoute, middleware: admin }, async (c) => {
        const { eventId } = c.req.valid("json");
        const result = await cancelEvent(deps, eventId);
        logActivity(c, deps, { action: "event cancelled", eventId });
        return c.json({ success: true as const, ...result }, 200);
      })
      .openapi({ ...waitlistRoute, middleware: admin }, (c) => {
        const event = findEvent(deps.db, c.req.valid("param").id);
        if (!event) throw NotFound("no such event");
        // listWaitlist reads only the LISTED statuses; its rows are typed with every status there is.
        const waitlist = listWaitlist(deps.db, event).map((entry) => ({ ...entry, status: entry.status as Listed }));
        return c.json({ success: true as const, waitlist }, 200);
      })
      .openapi({ ...summaryRoute, middleware: admin }, (c) => {
        return c.json(eventSummary(deps.db, c.req.valid("param").id, deps.now()), 200);
      })
      .openapi({ ...participantsCsvRoute, middleware: admin }, (c) => {
        const { fileName, csv } = participantsCsv(deps.db, c.req.valid("param").id);
        return c.body(csv, 200, {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="${fileName}"`,
        });
      })
      .openapi({ ...startEventRoute, middleware: admin }, async (c) => {
        const { eventId } = c.req.valid("json");
        const result = await startEvent(deps, eventId);
        logActivity(c, deps, { action: "event started", eventId });
        notifyRoom(deps, eventId, "event");
        return c.json({ success: true as const, ...result }, 200);
      })
      .openapi({ ...endEventRoute, middleware: admin }, async (c) => {
        const { eventId } = c.req.valid("json");
        const result = await endEvent(deps, eventId);
        logActivity(c, deps, { action: "event ended", eventId });
        notifyRoom(deps, eventId, "event");
        return c.json({ success: true as const, ...result }, 200);
      })
      .openapi({ ...participantsRoute, middleware: admin }, (c) => {
        return c.json(listEventParticipants(deps.db, c.req.valid("param").id), 200);
      })
      .openapi({ ...adminInvoiceRoute, middleware: admin }, async (c) => {
        const doc = documentByNumber(deps.db, c.req.valid("param").number);
        if (!doc) throw NotFound("no such document");
        return pdfDownload(doc);
      })
      .openapi({ ...refundRoute, middleware: admin }, async (c) => {
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
