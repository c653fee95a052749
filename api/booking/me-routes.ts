import { createRoute } from "@hono/zod-openapi";
import { consentChannels, consentSources } from "../../db/marketing-schema.ts";
import { bookingStatuses, feedbackValues, outboxStatuses, personGenders } from "../../db/schema.ts";
import type { AppDeps } from "../deps.ts";
import { noStore } from "../lib/admin-session.ts";
import { endGuestSession, requireGuest } from "../lib/guest-session.ts";
import { apiRouter, done, errors, json, jsonBody, z } from "../lib/openapi.ts";
import { jsonId } from "../lib/validate.ts";
import { endStreamsFor } from "../night/room-events.ts";
import { cancelBooking } from "./cancel-booking.ts";
import { cancellationPolicy } from "./events-schemas.ts";
import { myNights } from "./me.ts";
import { myConsent, saveMyConsent } from "./me-consent.ts";
import { deleteMyDetails, myData, phoneTag } from "./my-data.ts";
import { ticketReply } from "./payments-schemas.ts";

// My nights (docs/decisions/027-guest-identity.md). Signing in is verify-otp with `signIn`
// (booking-routes.ts); these are what the signed-in guest reads, and Sign out.

const isoTime = z.iso.datetime({ offset: true });
const id = jsonId(z);

const nightBase = {
  bookingId: z.number().int(),
  eventID: z.number().int(),
  userID: z.number().int(),
  eventName: z.string(),
  eventDate: isoTime,
  eventLocation: z.string(),
  timeZone: z.string(),
  durationHours: z.number(),
  amountCents: z.number().int(),
  invoiceNumber: z.string().nullable(),
  adjustmentNumber: z.string().nullable(),
};

const myNight = z.discriminatedUnion("standing", [
  z.strictObject({
    ...nightBase,
    standing: z.literal("upcoming"),
    ticket: ticketReply.omit({ success: true }),
    cancellationPolicy,
  }),
  z.strictObject({
    ...nightBase,
    standing: z.literal("past"),
    results: z.strictObject({ released: z.boolean(), resultsAt: isoTime, reportPath: z.string().nullable() }),
  }),
  z.strictObject({
    ...nightBase,
    standing: z.enum(["cancelled", "refunded"]),
    refundedCents: z.number().int().nullable(),
    byYou: z.boolean(),
  }),
]);

const meRoute = createRoute({
  method: "get",
  path: "/me",
  summary:
    "Every night of the signed-in guest's mobile: upcoming with its ticket, past with its results, cancelled and refunded",
  responses: {
    200: json(z.strictObject({ phone: z.string(), nights: z.array(myNight) })),
    ...errors("get", ["guest_session_required"]),
  },
});

const cancelBookingRoute = createRoute({
  method: "post",
  path: "/cancel-booking",
  summary:
    "The signed-in guest cancels one of their bookings under the event's policy: refunds what it gives back, frees the seat; a repeat answers the same",
  request: {
    body: {
      required: true,
      content: {
        "application/json": {
          schema: z.strictObject({ eventID: id, userID: id }),
        },
      },
    },
  },
  responses: {
    200: json(z.strictObject({ refundCents: z.number().int().min(0), status: z.enum(["refunded", "cancelled"]) })),
    ...errors("post", [
      "guest_session_required",
      "forbidden",
      "not_paid",
      "event_cancelled",
      "too_late_to_cancel",
      "provider_failed",
    ]),
  },
});

const meLogoutRoute = createRoute({
  method: "post",
  path: "/me-logout",
  summary: "Sign out: ends this browser's guest session on the server and drops the cookie",
  responses: { 200: json(done), ...errors("post", []) },
});

/** `yes`, `pending` (an email address asked to confirm, docs/decisions/039) or `no`. */
const consentState = z.enum(["yes", "pending", "no"]);

const myConsentReply = z.strictObject({
  sms: z.boolean(),
  email: z.boolean(),
  emailState: consentState,
  emailAddress: z.string().nullable(),
});

const meConsentRoute = createRoute({
  method: "get",
  path: "/me-consent",
  summary:
    "Messages about future events: the signed-in guest's current choices (texts to their mobile, email to the newest address they booked with)",
  responses: {
    200: json(myConsentReply),
    ...errors("get", ["guest_session_required"]),
  },
});

const saveMeConsentRoute = createRoute({
  method: "post",
  path: "/me-consent",
  summary:
    "Saves the signed-in guest's boxes on /me: records a choice only for a box that changed, and answers the choices now",
  request: jsonBody(
    z.strictObject({
      sms: z.boolean("must be true or false").optional(),
      email: z.boolean("must be true or false").optional(),
    }),
  ),
  responses: {
    200: json(myConsentReply),
    ...errors("post", ["guest_session_required"]),
  },
});

const nullableIso = isoTime.nullable();
const myDataReply = z.strictObject({
  phone: z.string(),
  downloadedAt: isoTime,
  keptDetails: z
    .strictObject({
      name: z.string(),
      email: z.string(),
      dateOfBirth: z.string(),
      gender: z.enum(personGenders),
      hasPhoto: z.boolean(),
    })
    .nullable(),
  bookings: z.array(
    z.strictObject({
      eventName: z.string(),
      eventDate: nullableIso,
      eventLocation: z.string(),
      status: z.enum(bookingStatuses),
      amountCents: z.number().int(),
      paidAt: nullableIso,
      checkedInAt: nullableIso,
      ticketCode: z.string().nullable(),
      refunds: z.array(z.strictObject({ amountCents: z.number().int(), at: nullableIso })),
      details: z.strictObject({
        name: z.string(),
        email: z.string(),
        dateOfBirth: z.string().nullable(),
        gender: z.enum(personGenders),
        photo: z.boolean(),
      }),
      bookedAt: nullableIso,
    }),
  ),
  waitlist: z.array(z.strictObject({ eventName: z.string(), name: z.string(), status: z.string() })),
  ratingsGiven: z.array(
    z.strictObject({
      eventName: z.string(),
      about: z.string(),
      choice: z.enum(feedbackValues),
      ratedBy: z.enum(["guest", "staff"]),
      at: nullableIso,
    }),
  ),
  matches: z.array(z.strictObject({ eventName: z.string(), name: z.string(), phone: z.string() })),
  textsSent: z.array(
    z.strictObject({
      body: z.string(),
      status: z.enum(outboxStatuses),
      createdAt: nullableIso,
      sentAt: nullableIso,
    }),
  ),
  messagesSent: z.array(
    z.strictObject({
      channel: z.enum(["sms", "email"]),
      subject: z.string().nullable(),
      status: z.enum(outboxStatuses),
      createdAt: nullableIso,
      sentAt: nullableIso,
    }),
  ),
  marketingConsents: z.array(
    z.strictObject({
      channel: z.enum(consentChannels),
      given: z.boolean(),
      state: consentState,
      source: z.enum(consentSources),
      wording: z.string(),
      at: isoTime,
    }),
  ),
});

const meDataRoute = createRoute({
  method: "get",
  path: "/me-data",
  summary:
    "Download my data: everything held about the signed-in guest's number, as a JSON file (kept details, bookings, ratings given, matches, texts sent, choices about messages on future events)",
  responses: {
    200: json(myDataReply),
    ...errors("get", ["guest_session_required"]),
  },
});

const meDeleteDetailsRoute = createRoute({
  method: "post",
  path: "/me-delete-details",
  summary:
    "Delete my details: erases the signed-in number's names, emails, dates of birth, photos and kept details now, withdraws its yes to messages about future events, keeps the bookings' money records, and ends its guest sessions",
  responses: {
    200: json(z.strictObject({ success: z.literal(true), erasedBookings: z.number().int() })),
    ...errors("post", ["guest_session_required"]),
  },
});

export const meRoutes = (deps: AppDeps) =>
  apiRouter()
    .openapi({ ...meRoute, middleware: requireGuest(deps) }, async (c) => {
      return c.json(await myNights(deps, c.var.guest.phone), 200);
    })
    .openapi({ ...meDataRoute, middleware: requireGuest(deps) }, (c) => {
      const data = myData(deps, c.var.guest.phone);
      // Logged without the number: a tag that is the same for the same number (decision 029).
      deps.log("info", "guest downloaded their data", { guest: phoneTag(deps.env.SESSION_SECRET, data.phone) });
      c.header("Content-Disposition", 'attachment; filename="my-data.json"');
      return c.json(data, 200);
    })
    .openapi({ ...meDeleteDetailsRoute, middleware: requireGuest(deps) }, async (c) => {
      const phone = c.var.guest.phone;
      const { erasedBookings } = await deleteMyDetails(
        { db: deps.db, now: deps.now, uploadsDir: deps.env.UPLOADS_DIR },
        phone,
      );
      deps.log("info", "guest deleted their details", {
        guest: phoneTag(deps.env.SESSION_SECRET, phone),
        erasedBookings,
      });
      endStreamsFor(deps.db, { phone });
      // The session just ended on the server; this browser's cookie goes too.
      endGuestSession(c, deps);
      return c.json({ success: true as const, erasedBookings }, 200);
    })
    .openapi({ ...meConsentRoute, middleware: requireGuest(deps) }, (c) => {
      return c.json(myConsent(deps.db, c.var.guest.phone), 200);
    })
    .openapi({ ...saveMeConsentRoute, middleware: requireGuest(deps) }, (c) => {
      const choice = c.req.valid("json");
      return c.json(saveMyConsent(deps.db, deps.env, c.var.guest.phone, choice, deps.now()), 200);
    })
    .openapi({ ...cancelBookingRoute, middleware: requireGuest(deps) }, async (c) => {
      const { eventID, userID } = c.req.valid("json");
      const result = await cancelBooking(deps, c.var.guest.phone, { eventId: eventID, userId: userID });
      return c.json(result, 200);
    })
    .openapi(meLogoutRoute, (c) => {
      noStore(c);
      endGuestSession(c, deps);
      return c.json({ success: true as const }, 200);
    });
