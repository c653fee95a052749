import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppDeps } from "../deps.ts";
import { clientAddress } from "../lib/client-address.ts";
import { Forbidden, NotFound } from "../lib/errors.ts";
import { apiRouter, errors, json, jsonBody } from "../lib/openapi.ts";
import { actorKindOf, actorName, isStaffFor, staffOf } from "../lib/staff.ts";
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
  description: [
    "- **Who:** verified-phone browser, for the phone of the booking (`userID`, `eventID`). An unknown",
    "  booking gets the same 403 as someone else's.",
    "- **Body (JSON):**",
    "  - `amount?`: anything, ignored: the price charged is the booking's, fixed when the seat was held",
    "    and changed only by `apply-promo`.",
    "  - `userEmail?`, `eventName?`: text ≤ 500 or null, ignored.",
    "  - `useCredit?`: `true` to pay with the number's credit first (issue 52, docs/decisions/057-credit.md):",
    "    the card checkout is for the rest, and the credit it used comes back if it expires or is cancelled;",
    "    when credit pays it all the answer is `{paidByCredit: true, url}` (no `sessionId`; `url` is My nights)",
    "    and the booking is paid at once, its ticket texted as a paid booking's. An open checkout is reused as it is.",
    "- **200:** `{sessionId, paymentIntentId, url}`: open `url` to pay (Stripe Checkout, or the local",
    "  checkout page). `paymentIntentId` is `null` until payment. An open checkout of the booking is",
    "  reused; creating one stretches the hold to 31 minutes so it covers the checkout, and the checkout",
    "  expires with the hold, never after it. When the hold can no longer stretch that far (its cap,",
    "  `HOLD_MINUTES` plus one checkout from the first hold), the answer is 409 `hold_expired` and the",
    "  hold is let go, so booking again starts a fresh one. After payment",
    "  the buyer returns to",
    "  `/success?session_id={id}&userID=…&eventID=…&eventName=…&amount=…&userEmail=…&phone=…`. Cancel on",
    "  the payment page returns to the held booking:",
    "  `/confirmation?payment=cancelled&userID=…&eventID=…&heldUntil=…` (`heldUntil`: until when the seat",
    "  stays held, ISO 8601 UTC; left out when the hold is gone). The page finds the name, email and",
    "  phone in the tab's own storage, never in the URL.",
  ].join("\n"),
  request: jsonBody(createCheckoutBody),
  responses: {
    200: json(checkoutReply),
    ...errors(
      "post",
      [
        "phone_not_verified",
        "already_paid",
        "booking_closed",
        "hold_expired",
        "credit_changed",
        "not_an_image",
        "provider_failed",
      ],
      {
        409: "`already_paid`, `booking_closed`, `hold_expired` (expired or released: book again), `credit_changed` (another checkout spent the credit meanwhile: ask again).",
        415: "`not_an_image` (the booking's photo, stored after the save's reply, could not be read: its seat was given back; book again with another photo).",
      },
    ),
  },
});

const checkoutSessionRoute = createRoute({
  method: "get",
  path: "/checkout-session",
  summary: "Whether a checkout was paid, and with which payment intent, for the browser that proved its phone",
  description: [
    "- **Who:** verified-phone browser, for the phone of the session's booking (an unknown session gets",
    "  the same 403).",
    "- **200:** `{paymentIntentId, paid}`: `paid` boolean; `paymentIntentId` a string once paid, else `null`.",
  ].join("\n"),
  request: { query: checkoutSessionQuery },
  responses: {
    200: json(checkoutStatusReply),
    ...errors("get", ["invalid_request", "phone_not_verified", "not_found", "provider_failed"], {
      404: "`not_found` (the provider does not know the session).",
    }),
  },
});

const sendConfirmationRoute = createRoute({
  method: "post",
  path: "/send-confirmation",
  summary: "The ticket of a paid booking (its door code and QR), texted once, for the browser that proved its phone",
  description: [
    "- **Who:** verified-phone browser, for the phone of the booking.",
    "- **Body (JSON):**",
    "  - `paymentIntentId`: string 1–255; must be the booking's payment.",
    "  - `userEmail?`, `eventName?`, `userPhone?`: text ≤ 500 or null, ignored.",
    "- **200:** `TicketReply`. Confirms only a booking the provider reports paid (asking the provider",
    "  when the webhook has not arrived yet). Idempotent: the same `uniqueCode` and QR every time, and",
    "  one SMS.",
    "",
    "`TicketReply` is described under `POST /api/ticket`.",
  ].join("\n"),
  request: jsonBody(sendConfirmationBody),
  responses: {
    200: json(ticketReply),
    ...errors(
      "post",
      ["phone_not_verified", "not_found", "payment_not_completed", "payment_mismatch", "refunded", "provider_failed"],
      {
        404: "`not_found` (the provider does not know the checkout).",
        409: "`payment_not_completed`, `payment_mismatch`, `refunded` (refunded, or the payment arrived when no seat was left and was refunded).",
      },
    ),
  },
});

const stripeWebhookRoute = createRoute({
  method: "post",
  path: "/stripe/webhook",
  summary: "Stripe's events: a checkout paid or expired (exists only when Stripe is configured)",
  description: [
    "- **Who:** Stripe: exists only when Stripe is configured (404 otherwise). The body is Stripe's",
    "  event JSON, read raw; the `Stripe-Signature` header must verify with `STRIPE_WEBHOOK_SECRET`.",
    "- **Handles:** `checkout.session.completed` and `checkout.session.async_payment_succeeded` confirm",
    "  the booking (even if the buyer never returns); `checkout.session.expired` releases the hold. A",
    "  payment that completes after its hold was released takes a seat if one is free, and is otherwise",
    "  refunded. Other event types are recorded and ignored. Replays are harmless (event ids are kept).",
    "- **200:** `{received: true, outcome}` (`outcome`: `paid`, `refunded`, `released` or `ignored`), or",
    "  `{received: true, duplicate: true}` for an event already processed.",
    "",
    "The body is Stripe's event JSON, read raw (never parsed and re-serialised) because the `Stripe-Signature` header signs its exact bytes with `STRIPE_WEBHOOK_SECRET`; so no body is declared here, and nothing validates it before the signature is checked.",
  ].join("\n"),
  responses: {
    200: json(webhookReply),
    // Server to server, proven by its signature: exempt from the cross-origin check every other
    // call with a body has, so its codes are listed one by one instead of errors("post", ...).
    ...errors("get", ["invalid_request", "too_large", "not_found", "provider_failed"], {
      400: "`invalid_request` (bad signature, malformed event).",
      404: "`not_found` (no Stripe).",
      502: "`provider_failed` (an automatic refund failed; Stripe retries).",
    }),
  },
});

const ticketRoute = createRoute({
  method: "post",
  path: "/ticket",
  summary: "Opens the confirmation text's ticket link (its `add` and `t`) on any phone",
  description: [
    "Opens the confirmation SMS's ticket link on any phone.",
    "",
    "- **Who:** capability link token (the link's `add` and `t`).",
    "- **200:** `TicketReply`.",
    "",
    "The **ticket** reply (`TicketReply`), answered by `send-confirmation` and `ticket`:",
    "`{success: true, qrCodeImage, uniqueCode, eventName, eventDate, eventLocation, time_zone,",
    "event_duration, name, phone, userID, eventID, bookingId, ticketToken, amountCents, cancellationPolicy,",
    "invoiceNumber}`. `qrCodeImage` is a",
    "`data:image/png;base64,…` URL of a QR code encoding `{PUBLIC_BASE_URL}/confirm-booking?eventID=…&userID=…`",
    "(the door page staff scan); `uniqueCode` is the 10-character door code; `eventDate` is the start",
    "(ISO 8601 UTC); `phone` is E.164. `bookingId` and `ticketToken` are the `add` and `t` of the signed",
    "ticket link `/tickets?add={bookingId}&t={token}`: a saved ticket keeps them to ask",
    "`ticket-status`. `amountCents` (what the seat cost) and",
    "`cancellationPolicy` `{fullRefundHours, laterPercent}` let the ticket show the policy and what",
    "**Cancel my booking** would give back now. `invoiceNumber` is the",
    "booking's receipt or tax invoice (`INV-000123`, its PDF from `invoice`), or `null`",
    "for a booking paid before documents existed, so the ticket offers **Download invoice** only when",
    "there is one. The first confirmation texts the attendee, once, the code",
    "and that ticket link, which shows the ticket with its QR (never the door page, which is an empty",
    "code box).",
  ].join("\n"),
  request: jsonBody(ticketCapability),
  responses: {
    200: json(ticketReply),
    ...errors(
      "post",
      [
        "invalid_link",
        "not_found",
        "refunded",
        "booking_cancelled",
        "not_transferable",
        "not_paid",
        "payment_not_completed",
        "gone",
      ],
      {
        409: "`refunded`, `booking_cancelled` (the guest cancelled it with nothing due), `not_transferable` (given to a friend: their own ticket gets in), `not_paid`, `payment_not_completed`.",
        410: "`gone` (the event's personal data has been erased: `RETENTION_DAYS` after it).",
      },
    ),
  },
});

const ticketStatusRoute = createRoute({
  method: "post",
  path: "/ticket-status",
  summary: "What a saved ticket is worth now: paid, refunded, cancelled, cancelled by its guest or ended",
  description: [
    "What a saved ticket is worth now. My tickets asks it for every saved ticket while online, so a",
    "refunded or cancelled ticket stops looking valid and an ended night moves under **Past**.",
    "",
    "- **Who:** capability link token: the ticket's own `bookingId` and `ticketToken` (the texted link's",
    "  `add` and `t`). It answers for that booking only.",
    "- **200:** `{status, eventName, eventDate, eventLocation, time_zone, event_duration, amountCents,",
    "  cancellationPolicy, invoiceNumber}`. `status` is `transferred` (its guest gave it to a friend,",
    "  whose own ticket gets in: this one shows NOT VALID, Given to a friend), else `booking_cancelled`",
    "  (its guest cancelled it with nothing due),",
    "  else `cancelled` (the event was cancelled), else `refunded` (the booking was refunded), else `ended`",
    "  (the organiser ended the night, or 3 hours have passed since its planned end, `eventDate` plus",
    "  `event_duration` hours), else `paid` (valid at the door). The event fields, `amountCents`,",
    "  `cancellationPolicy` and `invoiceNumber` are as in `TicketReply`, so a saved ticket follows an edited time, address or",
    "  policy. Nothing personal: it still answers after the",
    "  event's personal data is erased.",
  ].join("\n"),
  request: jsonBody(ticketCapability),
  responses: {
    200: json(ticketStatusReply),
    ...errors("post", ["invalid_link", "not_found", "not_paid"], {
      403: "`invalid_link` (a token that is not this booking's).",
      409: "`not_paid` (the booking was never paid).",
    }),
  },
});

const eventDetailsRoute = createRoute({
  method: "get",
  path: "/get-event-details",
  summary: "The header of the door page a ticket's QR opens (the door code only for the organiser or the event's host)",
  description: [
    "The header of the door page a ticket's QR opens.",
    "",
    "- **Who:** public; `uniqueCode` only with the organiser session or a host session for the event.",
    "- **200:** `{event: {eventName, eventDate, eventLocation, time_zone}, uniqueCode}`: the public details",
    "  of any existing event, whatever the `userID`; `eventDate` is the start (ISO 8601 UTC);",
    "  `uniqueCode` is the booking's door code for the organiser, `null` for everyone else.",
  ].join("\n"),
  request: { query: eventDetailsQuery },
  responses: {
    200: json(eventDetailsReply),
    ...errors("get", ["invalid_request", "not_found"], { 404: "`not_found` (event)." }),
  },
});

const confirmBookingRoute = createRoute({
  method: "post",
  path: "/confirm-booking",
  summary: "Checks a door code; records the arrival during the night, or at any time for staff once the doors open",
  description: [
    "Checks a door code on the server.",
    "",
    "- **Who:** public; arrivals outside the night only with the organiser session or a host session for the event.",
    "- **Body (JSON):** `eventID`: id; `userID`: id; `uniqueCode`: string 1–64 (letter case and",
    "  surrounding spaces ignored).",
    "- **200:** `{confirmed: false}` for a wrong code, and for an unknown or unpaid booking. For the right",
    "  code of a paid booking, `{confirmed: true, checkedIn, checkedInAt?}`: the code is right, and the",
    "  arrival is recorded (the first check-in is kept) only once the event's doors are open",
    "  (`doorsOpenAt`, as for `check-in`), and then only when the caller holds the organiser session or a",
    "  host session for the event, or from 2 hours before the start (or the organiser's early start) until the night's end (the",
    "  planned end, `event_duration` hours after the start or the late start; sooner if the organiser",
    "  ended it; never for a cancelled event). Typing the code at home days ahead is not arriving.",
    "  `checkedIn` says whether the booking has an arrival on record after the call, and `checkedInAt`",
    "  (ISO 8601 UTC) is that first arrival, present only when `checkedIn` is true. Staff (organiser or",
    "  host session) also get `name`, whose ticket it is, and, before the doors open, `doorsOpenAt`",
    "  (ISO 8601 UTC): no arrival is recorded until then.",
  ].join("\n"),
  request: jsonBody(confirmBookingBody),
  responses: {
    200: json(confirmBookingReply),
    ...errors("post", ["rate_limited"], { 429: "`rate_limited` (wrong codes per booking and per address)." }),
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
      return c.json(
        await createCheckoutSession(deps, { userId: body.userID, eventId: body.eventID, useCredit: body.useCredit }),
        200,
      );
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
        recordActivity(
          deps.db,
          { ...entry, actor: actorName(staff), actorKind: actorKindOf(staff), action: "check-in" },
          now,
        );
      }
      return c.json(reply, 200);
    })
    .route("/", devCheckoutRoutes(deps));
};
