import { Hono } from "hono";
import { z } from "zod";
import { eventId, eventImageForm, eventUpdateBody, newEventForm } from "../../common/event-fields.ts";
import { getEvent } from "../booking/events.ts";
import { findEvent } from "../booking/holds.ts";
import { listWaitlist } from "../booking/waitlist.ts";
import type { AppDeps } from "../deps.ts";
import { requireAdmin } from "../lib/admin-session.ts";
import { NotFound } from "../lib/errors.ts";
import { logActivity } from "../lib/staff.ts";
import { idParam, validate } from "../lib/validate.ts";
import { adminAuthRoutes } from "./admin-auth-routes.ts";
import { changedEventFields, listAdminEvents } from "./admin-events.ts";
import { cancelEvent } from "./cancel-event.ts";
import { endEvent, startEvent } from "./event-lifecycle.ts";
import { eventSummary } from "./event-summary.ts";
import { addEvent, editEvent, replaceEventPicture } from "./organiser-events.ts";
import { listEventParticipants } from "./participants.ts";
import { participantsCsv } from "./participants-csv.ts";
import { bookingOfPayment, refundPayment } from "./refunds.ts";

const idParams = z.object({ id: idParam(z) });
const eventIdBody = z.object({ eventId });

export const adminRoutes = (deps: AppDeps) => {
  const admin = requireAdmin(deps);
  return (
    new Hono()
      .route("/", adminAuthRoutes(deps))
      // The panel's own reads of the public event calls: never cached anywhere. The service worker
      // answers /get-events and /get-event/{id} stale-while-revalidate for attendees, which would show
      // an organiser the status and fields from before their own last change.
      .get("/admin-events", admin, (c) => {
        return c.json(listAdminEvents(deps.db, deps.now()));
      })
      .get("/admin-event/:id", admin, validate("param", idParams), (c) => {
        return c.json(getEvent(deps.db, c.req.valid("param").id, deps.now()));
      })
      .post("/save-event", admin, validate("form", newEventForm), async (c) => {
        const { id } = await addEvent(deps, c.req.valid("form"));
        logActivity(c, deps, { action: "event created", eventId: id });
        return c.json({ success: true as const, id });
      })
      .post("/update-event", admin, validate("json", eventUpdateBody), (c) => {
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
        return c.json({ success: true as const });
      })
      .post("/update-event-image", admin, validate("form", eventImageForm), async (c) => {
        const form = c.req.valid("form");
        const { imageName } = await replaceEventPicture(deps, form.eventid, form.eventImage);
        logActivity(c, deps, { action: "event edited", eventId: form.eventid, detail: "picture" });
        return c.json({ success: true as const, event_image: imageName });
      })
      .post("/cancel-event", admin, validate("json", eventIdBody), async (c) => {
        const { eventId } = c.req.valid("json");
        const result = await cancelEvent(deps, eventId);
        logActivity(c, deps, { action: "event cancelled", eventId });
        return c.json({ success: true as const, ...result });
      })
      .get("/admin-event/:id/waitlist", admin, validate("param", idParams), (c) => {
        const event = findEvent(deps.db, c.req.valid("param").id);
        if (!event) throw NotFound("no such event");
        return c.json({ success: true as const, waitlist: listWaitlist(deps.db, event) });
      })
      .get("/admin-event-summary/:id", admin, validate("param", idParams), (c) => {
        return c.json(eventSummary(deps.db, c.req.valid("param").id, deps.now()));
      })
      .get("/admin-event/:id/participants.csv", admin, validate("param", idParams), (c) => {
        const { fileName, csv } = participantsCsv(deps.db, c.req.valid("param").id);
        return c.body(csv, 200, {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="${fileName}"`,
        });
      })
      .post("/start-event", admin, validate("json", eventIdBody), async (c) => {
        const { eventId } = c.req.valid("json");
        const result = await startEvent(deps, eventId);
        logActivity(c, deps, { action: "event started", eventId });
        return c.json({ success: true as const, ...result });
      })
      .post("/end-event", admin, validate("json", eventIdBody), async (c) => {
        const { eventId } = c.req.valid("json");
        const result = await endEvent(deps, eventId);
        logActivity(c, deps, { action: "event ended", eventId });
        return c.json({ success: true as const, ...result });
      })
      .get("/get-event-user/:id", admin, validate("param", idParams), (c) => {
        return c.json(listEventParticipants(deps.db, c.req.valid("param").id));
      })
      .post(
        "/refund",
        admin,
        validate("json", z.object({ paymentIntentId: z.string().trim().min(1).max(255) })),
        async (c) => {
          const { paymentIntentId } = c.req.valid("json");
          const { refundId, refundedNow } = await refundPayment(deps, paymentIntentId);
          // A repeat, or a second click that joined the refund under way, changed nothing.
          if (refundedNow) {
            const booking = bookingOfPayment(deps.db, paymentIntentId);
            logActivity(c, deps, { action: "refund", eventId: booking?.eventId, userId: booking?.userId });
          }
          return c.json({ success: true as const, refundId });
        },
      )
  );
};
