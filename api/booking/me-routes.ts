import { createRoute } from "@hono/zod-openapi";
import type { AppDeps } from "../deps.ts";
import { noStore } from "../lib/admin-session.ts";
import { endGuestSession, requireGuest } from "../lib/guest-session.ts";
import { apiRouter, done, errors, json, z } from "../lib/openapi.ts";
import { jsonId } from "../lib/validate.ts";
import { cancelBooking } from "./cancel-booking.ts";
import { myNights } from "./me.ts";
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
};

const myNight = z.discriminatedUnion("standing", [
  z.strictObject({
    ...nightBase,
    standing: z.literal("upcoming"),
    ticket: ticketReply.omit({ success: true }),
    cancellationPolicy: z.strictObject({
      fullRefundHours: z.number().int().min(0),
      laterPercent: z.number().int().min(0).max(100),
    }),
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

export const meRoutes = (deps: AppDeps) =>
  apiRouter()
    .openapi({ ...meRoute, middleware: requireGuest(deps) }, async (c) => {
      return c.json(await myNights(deps, c.var.guest.phone), 200);
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
