import { Hono } from "hono";
import { z } from "zod";
import { canonicalTimeZone } from "../../common/time-zone.ts";
import type { AppDeps } from "../deps.ts";
import { requireAdmin } from "../lib/admin-session.ts";
import { BadRequest, NotFound, TooLarge } from "../lib/errors.ts";
import { idParam, validate } from "../lib/validate.ts";
import {
  createEvent,
  type EventTime,
  listAdminEvents,
  replaceEventImage,
  updateEvent,
} from "../services/admin-events.ts";
import { cancelEvent } from "../services/cancel-event.ts";
import { endEvent, startEvent } from "../services/event-lifecycle.ts";
import { eventSummary } from "../services/event-summary.ts";
import { getEvent } from "../services/events.ts";
import { findEvent } from "../services/holds.ts";
import { MAX_IMAGE_BYTES, removeStoredImage, STORED_NAME, storeImage } from "../services/images.ts";
import { listEventParticipants } from "../services/participants.ts";
import { participantsCsv } from "../services/participants-csv.ts";
import { refundPayment } from "../services/refunds.ts";
import { listWaitlist, offerFreedSeatsNow } from "../services/waitlist.ts";
import { adminAuthRoutes } from "./admin-auth.ts";

// Multipart fields arrive as text and JSON clients may send either, so numbers accept both; only
// plain decimals are read as numbers ("1e3", "0x10" and "" stay text and fail).
const numeric = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v), schema);

const text = (max: number) => z.string().trim().min(1, "is required").max(max);
const id = numeric(z.number().int().positive().max(Number.MAX_SAFE_INTEGER));
const seats = numeric(z.number().int().min(1).max(10_000));
// Seats kept for one gender (decision 015); a gender may have none. Both or neither: the service checks.
const genderSeats = numeric(z.number().int("must be a whole number").min(0).max(10_000));
const age = numeric(z.number().int().min(18).max(99));
const hours = numeric(z.number().gt(0).max(24));
const amountCents = numeric(
  z
    .number()
    // Card payments have a floor (Stripe's is 0.50 AUD): a cheaper price could never be paid.
    .min(0.5)
    .max(100_000)
    .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, "at most 2 decimals"),
).transform((v) => Math.round(v * 100));

const date = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be YYYY-MM-DD")
  .refine((v) => {
    const d = new Date(`${v}T00:00:00.000Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
  }, "is not a real date");

// SPEC.md sends "H:M" (so "9:0"); "09:00" is the same time. Minutes come in quarter hours.
const time = z
  .string()
  .trim()
  .regex(/^\d{1,2}:\d{1,2}$/, "must be H:M")
  .transform((v): EventTime => {
    const [hour, minute] = v.split(":").map(Number) as [number, number];
    return { hour, minute };
  })
  .refine((t) => t.hour <= 23, "hours must be 0-23")
  .refine((t) => [0, 15, 30, 45].includes(t.minute), "minutes must be 0, 15, 30 or 45");

// An IANA zone name, stored in its canonical spelling; "Mars/Olympus" and "" are 400.
const timeZone = z
  .string()
  .trim()
  .max(64)
  .transform((v, ctx) => {
    const zone = canonicalTimeZone(v);
    if (!zone) ctx.addIssue({ code: "custom", message: "is not an IANA time zone such as Australia/Sydney" });
    return zone ?? z.NEVER;
  });

const saveEventForm = z.object({
  eventName: text(120),
  eventDate: date,
  eventTime: time,
  eventAddress: text(300),
  totalSeats: seats,
  bookingAmount: amountCents,
  eventImage: z.instanceof(File, { message: "an image file is required" }),
  eventduration: hours,
  fromage: age,
  toage: age,
  timeZone: timeZone.optional(),
  seatsMale: genderSeats.optional(),
  seatsFemale: genderSeats.optional(),
});

const updateEventBody = z.object({
  eventid: id,
  eventName: text(120),
  eventDate: date,
  totalSeats: seats,
  eventTime: time.optional(),
  eventduration: hours.optional(),
  fromage: age.optional(),
  toage: age.optional(),
  timeZone: timeZone.optional(),
  eventAddress: text(300).optional(),
  bookingAmount: amountCents.optional(),
  // null and null: back to one pool of seats; left out: the plan stays.
  seatsMale: genderSeats.nullable().optional(),
  seatsFemale: genderSeats.nullable().optional(),
});

const updateImageForm = z.object({
  eventid: id,
  eventImage: z.instanceof(File, { message: "an image file is required" }),
});

const eventIdBody = z.object({ eventId: id });

/** An uploaded event picture, checked as save-event checks it (size, then its bytes), and stored. */
async function readEventImage(uploadsDir: string, file: File) {
  if (file.size === 0) throw BadRequest("eventImage: an image file is required");
  if (file.size > MAX_IMAGE_BYTES) throw TooLarge("eventImage: must be at most 5 MB");
  return storeImage(uploadsDir, new Uint8Array(await file.arrayBuffer()));
}

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
      .get("/admin-event/:id", admin, validate("param", z.object({ id: idParam(z) })), (c) => {
        return c.json(getEvent(deps.db, c.req.valid("param").id, deps.now()));
      })
      .post("/save-event", admin, validate("form", saveEventForm), async (c) => {
        const form = c.req.valid("form");
        const stored = await readEventImage(deps.env.UPLOADS_DIR, form.eventImage);
        let id: number;
        try {
          ({ id } = createEvent(
            deps.db,
            {
              name: form.eventName,
              date: form.eventDate,
              time: form.eventTime,
              address: form.eventAddress,
              totalSeats: form.totalSeats,
              priceCents: form.bookingAmount,
              durationHours: form.eventduration,
              fromAge: form.fromage,
              toAge: form.toage,
              imageName: stored.imageName,
              timeZone: form.timeZone ?? deps.env.EVENT_TIME_ZONE,
              seatsMale: form.seatsMale,
              seatsFemale: form.seatsFemale,
            },
            deps.now(),
          ));
        } catch (error) {
          // createEvent refuses a past date or crossed ages: the picture must not stay behind.
          await removeStoredImage(deps.env.UPLOADS_DIR, stored);
          throw error;
        }
        return c.json({ success: true as const, id });
      })
      .post("/update-event", admin, validate("json", updateEventBody), (c) => {
        const body = c.req.valid("json");
        updateEvent(
          deps.db,
          {
            id: body.eventid,
            name: body.eventName,
            date: body.eventDate,
            totalSeats: body.totalSeats,
            time: body.eventTime,
            durationHours: body.eventduration,
            fromAge: body.fromage,
            toAge: body.toage,
            timeZone: body.timeZone,
            address: body.eventAddress,
            priceCents: body.bookingAmount,
            seatsMale: body.seatsMale,
            seatsFemale: body.seatsFemale,
          },
          deps.now(),
        );
        // Seats added (overall or for a gender) go at once to whoever waits for them (decision 015).
        offerFreedSeatsNow(deps, body.eventid);
        return c.json({ success: true as const });
      })
      .post("/update-event-image", admin, validate("form", updateImageForm), async (c) => {
        const form = c.req.valid("form");
        const dir = deps.env.UPLOADS_DIR;
        const stored = await readEventImage(dir, form.eventImage);
        let previous: string;
        try {
          ({ previous } = replaceEventImage(deps.db, form.eventid, stored.imageName));
        } catch (error) {
          await removeStoredImage(dir, stored);
          throw error;
        }
        // Names are random and one event's own, so nothing else points at the old picture. A phone
        // showing a cached list meanwhile gets the new name on its next revalidation.
        if (STORED_NAME.test(previous)) {
          await removeStoredImage(dir, { imageName: previous, thumbName: previous.replace(/\.jpg$/, "-thumb.jpg") });
        }
        return c.json({ success: true as const, event_image: stored.imageName });
      })
      .post("/cancel-event", admin, validate("json", eventIdBody), async (c) => {
        const result = await cancelEvent(deps, c.req.valid("json").eventId);
        return c.json({ success: true as const, ...result });
      })
      .get("/admin-event/:id/waitlist", admin, validate("param", z.object({ id: idParam(z) })), (c) => {
        const event = findEvent(deps.db, c.req.valid("param").id);
        if (!event) throw NotFound("no such event");
        return c.json({ success: true as const, waitlist: listWaitlist(deps.db, event) });
      })
      .get("/admin-event-summary/:id", admin, validate("param", z.object({ id: idParam(z) })), (c) => {
        return c.json(eventSummary(deps.db, c.req.valid("param").id, deps.now()));
      })
      .get("/admin-event/:id/participants.csv", admin, validate("param", z.object({ id: idParam(z) })), (c) => {
        const eventId = c.req.valid("param").id;
        const csv = participantsCsv(deps.db, eventId);
        return c.body(csv, 200, {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="event-${eventId}-participants.csv"`,
        });
      })
      .post("/start-event", admin, validate("json", eventIdBody), async (c) => {
        const result = await startEvent(deps, c.req.valid("json").eventId);
        return c.json({ success: true as const, ...result });
      })
      .post("/end-event", admin, validate("json", eventIdBody), async (c) => {
        const result = await endEvent(deps, c.req.valid("json").eventId);
        return c.json({ success: true as const, ...result });
      })
      .get("/get-event-user/:id", admin, validate("param", z.object({ id: idParam(z) })), (c) => {
        return c.json(listEventParticipants(deps.db, c.req.valid("param").id));
      })
      .post(
        "/refund",
        admin,
        validate("json", z.object({ paymentIntentId: z.string().trim().min(1).max(255) })),
        async (c) => {
          const { refundId } = await refundPayment(deps, c.req.valid("json").paymentIntentId);
          return c.json({ success: true as const, refundId });
        },
      )
  );
};
