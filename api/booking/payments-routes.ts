import type { Context } from "hono";
import { Hono } from "hono";
import { z } from "zod";
import type { AppDeps } from "../deps.ts";
import { clientAddress } from "../lib/client-address.ts";
import { Forbidden, NotFound } from "../lib/errors.ts";
import { actorName, isStaffFor, staffOf } from "../lib/staff.ts";
import { idParam, jsonId, validate } from "../lib/validate.ts";
import { confirmBooking, getEventDetails } from "../night/check-in.ts";
import { recordActivity } from "../organiser/activity.ts";
import { browserVerified } from "./booking-cookie.ts";
import { bookingOfCheckout, createCheckoutSession, findBookingContext, getCheckoutStatus } from "./checkout.ts";
import { sendConfirmation } from "./confirmation.ts";
import { handlePaymentEvent } from "./payment-completion.ts";
import { devCheckoutRoutes } from "./payments-dev-routes.ts";
import { NO_PROOF, openTicketLink, ticketStatus } from "./ticket.ts";

const id = jsonId(z);
const optionalText = z.string().max(500).nullish();
const sessionId = z.string().regex(/^cs_[A-Za-z0-9_]{1,250}$/, "must be a checkout session id");
/** The texted ticket link's `add` and `t`, which every saved ticket keeps. */
const ticketCapability = z.object({ bookingId: id, t: z.string().min(1).max(200) });

export const paymentsRoutes = (deps: AppDeps) => {
  /**
   * Booking ids are sequential and the success URL is not a secret (history, screenshots), so only the
   * browser that proved the booking's phone gets past this. An unknown, unpaid or someone else's
   * booking gets the same 403, decided from the database before any provider call (docs/decisions/010).
   */
  const requireProof = (c: Context, phone: string | undefined) => {
    if (phone === undefined || !browserVerified(c, deps, phone)) throw Forbidden(NO_PROOF, "phone_not_verified");
  };

  return new Hono()
    .post(
      "/create-checkout-session",
      validate(
        "json",
        z.object({
          userID: id,
          eventID: id,
          // Clients send these, as the call always carried them; the price and the names come from the database.
          amount: z.unknown().optional(),
          userEmail: optionalText,
          eventName: optionalText,
        }),
      ),
      async (c) => {
        const body = c.req.valid("json");
        // The checkout pre-fills the buyer's email, its success URL names their phone, and it stretches the hold.
        requireProof(c, findBookingContext(deps.db, body.userID, body.eventID)?.booking.phone);
        return c.json(await createCheckoutSession(deps, { userId: body.userID, eventId: body.eventID }));
      },
    )
    .get("/checkout-session", validate("query", z.object({ session_id: sessionId })), async (c) => {
      const { session_id } = c.req.valid("query");
      requireProof(c, bookingOfCheckout(deps.db, session_id)?.booking.phone);
      return c.json(await getCheckoutStatus(deps, session_id));
    })
    .post(
      "/send-confirmation",
      validate(
        "json",
        z.object({
          userID: id,
          eventID: id,
          paymentIntentId: z.string().min(1).max(255),
          userEmail: optionalText,
          eventName: optionalText,
          userPhone: optionalText,
        }),
      ),
      async (c) => {
        const body = c.req.valid("json");
        requireProof(c, findBookingContext(deps.db, body.userID, body.eventID)?.booking.phone);
        return c.json(
          await sendConfirmation(deps, {
            userId: body.userID,
            eventId: body.eventID,
            paymentIntentId: body.paymentIntentId,
          }),
        );
      },
    )
    .post("/stripe/webhook", async (c) => {
      if (!deps.payments.verifyWebhook) throw NotFound("no such endpoint");
      // The signature covers the exact bytes, so the body is read raw, never parsed and re-serialised.
      const event = await deps.payments.verifyWebhook(await c.req.text(), c.req.header("stripe-signature"));
      return c.json(await handlePaymentEvent(deps, event));
    })
    .post("/ticket", validate("json", ticketCapability), async (c) => {
      const body = c.req.valid("json");
      return c.json(await openTicketLink(deps, { bookingId: body.bookingId, token: body.t }));
    })
    .post("/ticket-status", validate("json", ticketCapability), (c) => {
      const body = c.req.valid("json");
      return c.json(ticketStatus(deps, { bookingId: body.bookingId, token: body.t }));
    })
    .get("/get-event-details", validate("query", z.object({ eventID: idParam(z), userID: idParam(z) })), (c) => {
      const q = c.req.valid("query");
      return c.json(
        getEventDetails(deps.db, { userId: q.userID, eventId: q.eventID, admin: isStaffFor(c, deps, q.eventID) }),
      );
    })
    .post(
      "/confirm-booking",
      validate("json", z.object({ eventID: id, userID: id, uniqueCode: z.string().min(1).max(64) })),
      (c) => {
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
            { ...entry, actor: actorName(staff), actorKind: staff.role, action: "check-in" },
            now,
          );
        }
        return c.json(reply);
      },
    )
    .route("/", devCheckoutRoutes(deps));
};
