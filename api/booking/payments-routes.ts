import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppDeps } from "../deps.ts";
import { clientAddress } from "../lib/client-address.ts";
import { Forbidden, NotFound } from "../lib/errors.ts";
import { apiRouter, errors, json, jsonBody } from "../lib/openapi.ts";
import { actorName, isStaffFor, staffOf } from "../lib/staff.ts";
import { confirmBooking, getEventDetails } from "../night/check-in.ts";
import { recordActivity } from "../organiser/activity.ts";
import { browserVerified } from "./booking-cookie.ts";
import { bookingOfCheckout, createCheckoutSession, findBookingContext, getCheckoutStatus } from "./checkout.ts";
import { sendConfirmation } from "./confirmation.ts";
import { handlePaymentEvent } from "./payment-completion.ts";
import { devCheckoutRoutes } from "./payments-dev-routes.ts";
import {
  checkoutReply,
  checkoutSessionQuery,
  checkoutStatusReply,
  confirmBookingBody,
  confirmBookingReply,
  createCheckoutBody,
  eventDetailsQuery,
  eventDetailsReply,
  sendConfirmationBody,
  ticketCapability,
  ticketReply,
  ticketStatusReply,
  webhookReply,
} from "./payments-schemas.ts";
import { photoJobsOf } from "./photo-jobs.ts";
import { NO_PROOF, openTicketLink, ticketStatus } from "./ticket.ts";

const createCheckoutRoute = createRoute({
  method: "post",
  path: "/create-checkout-session",
  summary: "Starts (or reuses) the card checkout of the booking's live hold, for the browser that proved its phone",
  request: jsonBody(createCheckoutBody),
  responses: {
    200: json(checkoutReply),
    ...errors("post", [
      "phone_not_verified",
      "already_paid",
      "booking_closed",
      "hold_expired",
      "not_an_image",
      "provider_failed",
    ]),
  },
});

const checkoutSessionRoute = createRoute({
  method: "get",
  path: "/checkout-session",
  summary: "Whether a checkout was paid, and with which payment intent, for the browser that proved its phone",
  request: { query: checkoutSessionQuery },
  responses: {
    200: json(checkoutStatusReply),
    ...errors("get", ["invalid_request", "phone_not_verified", "not_found", "provider_failed"]),
  },
});

const sendConfirmationRoute = createRoute({
  method: "post",
  path: "/send-confirmation",
  summary: "The ticket of a paid booking (its door code and QR), texted once, for the browser that proved its phone",
  request: jsonBody(sendConfirmationBody),
  responses: {
    200: json(ticketReply),
    ...errors("post", [
      "phone_not_verified",
      "not_found",
      "payment_not_completed",
      "payment_mismatch",
      "refunded",
      "provider_failed",
    ]),
  },
});

const stripeWebhookRoute = createRoute({
  method: "post",
  path: "/stripe/webhook",
  summary: "Stripe's events: a checkout paid or expired (exists only when Stripe is configured)",
  description:
    "The body is Stripe's event JSON, read raw (never parsed and re-serialised) because the `Stripe-Signature` header signs its exact bytes with `STRIPE_WEBHOOK_SECRET`; so no body is declared here, and nothing validates it before the signature is checked.",
  responses: {
    200: json(webhookReply),
    // Server to server, proven by its signature: exempt from the cross-origin check every other
    // call with a body has, so its codes are listed one by one instead of errors("post", ...).
    ...errors("get", ["invalid_request", "too_large", "not_found", "provider_failed"]),
  },
});

const ticketRoute = createRoute({
  method: "post",
  path: "/ticket",
  summary: "Opens the confirmation text's ticket link (its `add` and `t`) on any phone",
  request: jsonBody(ticketCapability),
  responses: {
    200: json(ticketReply),
    ...errors("post", [
      "invalid_link",
      "not_found",
      "refunded",
      "booking_cancelled",
      "not_paid",
      "payment_not_completed",
      "gone",
    ]),
  },
});

const ticketStatusRoute = createRoute({
  method: "post",
  path: "/ticket-status",
  summary: "What a saved ticket is worth now: paid, refunded, cancelled, cancelled by its guest or ended",
  request: jsonBody(ticketCapability),
  responses: {
    200: json(ticketStatusReply),
    ...errors("post", ["invalid_link", "not_found", "not_paid"]),
  },
});

const eventDetailsRoute = createRoute({
  method: "get",
  path: "/get-event-details",
  summary: "The header of the door page a ticket's QR opens (the door code only for the organiser or the event's host)",
  request: { query: eventDetailsQuery },
  responses: {
    200: json(eventDetailsReply),
    ...errors("get", ["invalid_request", "not_found"]),
  },
});

const confirmBookingRoute = createRoute({
  method: "post",
  path: "/confirm-booking",
  summary: "Checks a door code; records the arrival during the night, or at any time for staff once the doors open",
  request: jsonBody(confirmBookingBody),
  responses: {
    200: json(confirmBookingReply),
    ...errors("post", ["rate_limited"]),
  },
});

export const paymentsRoutes = (deps: AppDeps) => {
  /**
   * Booking ids are sequential and the success URL is not a secret (history, screenshots), so only the
   * browser that proved the booking's phone gets past this. An unknown, unpaid or someone else's
   * booking gets the same 403, decided from the database before any provider call (docs/decisions/010).
   */
  const requireProof = (c: Context, phone: string | undefined) => {
    if (phone === undefined || !browserVerified(c, deps, phone)) throw Forbidden(NO_PROOF, "phone_not_verified");
  };

  return apiRouter()
    .openapi(createCheckoutRoute, async (c) => {
      const body = c.req.valid("json");
      // The checkout pre-fills the buyer's email, its success URL names their phone, and it stretches the hold.
      const booking = findBookingContext(deps.db, body.userID, body.eventID)?.booking;
      if (booking) requireProof(c, booking.phone);
      else {
        // No booking: perhaps a photo that failed after its save's answer gave the seat back. Only the
        // browser that proved that phone is told so (createCheckoutSession throws it); anyone else
        // gets the 403 of an unknown booking.
        const photos = photoJobsOf(deps.db);
        await photos.wait(body.userID);
        requireProof(c, photos.failure(body.userID, deps.now())?.phone);
      }
      return c.json(await createCheckoutSession(deps, { userId: body.userID, eventId: body.eventID }), 200);
    })
    .openapi(checkoutSessionRoute, async (c) => {
      const { session_id } = c.req.valid("query");
      requireProof(c, bookingOfCheckout(deps.db, session_id)?.booking.phone);
      return c.json(await getCheckoutStatus(deps, session_id), 200);
    })
    .openapi(sendConfirmationRoute, async (c) => {
      const body = c.req.valid("json");
      requireProof(c, findBookingContext(deps.db, body.userID, body.eventID)?.booking.phone);
      const ticket = await sendConfirmation(deps, {
        userId: body.userID,
        eventId: body.eventID,
        paymentIntentId: body.paymentIntentId,
      });
      return c.json(ticket, 200);
    })
    .openapi(stripeWebhookRoute, async (c) => {
      if (!deps.payments.verifyWebhook) throw NotFound("no such endpoint");
      // The signature covers the exact bytes, so the body is read raw, never parsed and re-serialised.
      const event = await deps.payments.verifyWebhook(await c.req.text(), c.req.header("stripe-signature"));
      return c.json(await handlePaymentEvent(deps, event), 200);
    })
    .openapi(ticketRoute, async (c) => {
      const body = c.req.valid("json");
      return c.json(await openTicketLink(deps, { bookingId: body.bookingId, token: body.t }), 200);
    })
    .openapi(ticketStatusRoute, (c) => {
      const body = c.req.valid("json");
      return c.json(ticketStatus(deps, { bookingId: body.bookingId, token: body.t }), 200);
    })
    .openapi(eventDetailsRoute, (c) => {
      const q = c.req.valid("query");
      return c.json(
        getEventDetails(deps.db, { userId: q.userID, eventId: q.eventID, admin: isStaffFor(c, deps, q.eventID) }),
        200,
      );
    })
    .openapi(confirmBookingRoute, (c) => {
      const body = c.req.valid("json");
      const staff = staffOf(c, deps, body.eventID);
      const now = deps.now();
      const reply = confirmBooking(deps.db, {
        userId: body.userID,
        eventId: body.eventID,
        uniqueCode: body.uniqueCode,
        address: clientAddress(c),
        now,
        // Door staff confirm at any time; an attendee's own code is an arrival only during the night.
        staff: staff !== null,
      });
      // Staff whose confirmation recorded the arrival just now (not an earlier one) checked someone in.
      if (staff && reply.confirmed && reply.checkedIn && Date.parse(reply.checkedInAt) === now) {
        const entry = { eventId: body.eventID, userId: body.userID, detail: "ticket code" };
        recordActivity(deps.db, { ...entry, actor: actorName(staff), actorKind: staff.role, action: "check-in" }, now);
      }
      return c.json(reply, 200);
    })
    .route("/", devCheckoutRoutes(deps));
};
