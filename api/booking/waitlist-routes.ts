import { createRoute } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { FORMAT_LABELS } from "../../common/formats.ts";
import { type Event, type PersonGender, personGenders } from "../../db/schema.ts";
import type { AppDeps } from "../deps.ts";
import { BadRequest, Forbidden, NotFound } from "../lib/errors.ts";
import { apiRouter, done, errors, json, jsonBody, z } from "../lib/openapi.ts";
import { jsonId, personName } from "../lib/validate.ts";
import { browserVerified, rememberVerifiedPhone } from "./booking-cookie.ts";
import { findEvent } from "./event-lookup.ts";
import { auMobile } from "./phone.ts";
import { countJoin, joinWaitlist, leaveWaitlist } from "./waitlist.ts";
import { claimOffer, offerFreedSeatsNow } from "./waitlist-offers.ts";

// The waitlist of a full event (docs/decisions/015-balanced-rooms-and-waitlist.md).

const id = jsonId(z);
const gender = z.enum(["male", "female"], "must be male or female");

const joinBody = z.object({
  eventID: id,
  phone: auMobile,
  // Women meet men only: one pool of seats (One group, Mixed) has one line, and asks no gender.
  gender: gender.optional(),
  name: personName(z),
  // **Text me about future events** (issue 36), unticked by default; only the text box here, since
  // the waitlist asks for no email. False or absent records nothing (it is not a withdrawal).
  marketingSms: z.boolean("must be true or false").optional(),
});
/** The line's gender: Woman or Man at Women meet men; none asked (`unasked`) at a one-pool format. */
function waitlistGender(event: Event, gender: "male" | "female" | undefined): PersonGender {
  if (event.format === "women_men") {
    if (gender === undefined) throw BadRequest("Gender must be male or female.");
    return gender;
  }
  if (gender !== undefined) throw BadRequest(`${FORMAT_LABELS[event.format]} nights do not ask for a gender.`);
  return "unasked";
}

const leaveBody = z.object({ eventID: id, phone: auMobile });
const claimBody = z.object({ o: id, t: z.string().min(1).max(200) });

const joinRoute = createRoute({
  method: "post",
  path: "/join-waitlist",
  summary: "Joins the line of a full event (or a full gender) for this verified phone",
  description: [
    "- **Who:** verified-phone browser (for this `phone`).",
    "- **Body (JSON):**",
    "  - `gender`: `male` or `female` at a `women_men` event; left out at `one_group` and `mixed`, whose",
    "    one pool of seats has one line (a gender there is 400).",
    "  - `marketingSms?`: boolean (**Text me about future events**, unticked). `true` records a yes for",
    "    this phone's texts (source `waitlist`) with the place in line; `false` or absent records nothing.",
    "- **200:** `{success: true, position}`: 1 for the first in line (per gender at a balanced event).",
    "- A phone's earlier place that it left (with no offer made on it) is replaced by the new one, at the",
    "  end of the line: one row per phone and event.",
  ].join("\n"),
  request: jsonBody(joinBody),
  responses: {
    200: json(z.strictObject({ success: z.literal(true), position: z.number().int().min(1) })),
    ...errors(
      "post",
      [
        "phone_not_verified",
        "not_found",
        "booking_closed",
        "not_taking_bookings",
        "already_booked",
        "already_holding",
        "seat_free",
        "already_waiting",
        "rate_limited",
      ],
      {
        400: "`invalid_request` (a name with control characters too).",
        404: "`not_found` (event).",
        409: "`booking_closed`, `not_taking_bookings`, `already_booked`, `already_holding`, `seat_free` (book it instead), `already_waiting`.",
        429: "`rate_limited` (more than 10 joins by one phone in an hour).",
      },
    ),
  },
});

const leaveRoute = createRoute({
  method: "post",
  path: "/leave-waitlist",
  summary: "Leaves the line; an offer still out is withdrawn and its seat offered to the next person",
  description: [
    "- **Who:** verified-phone browser (for this `phone`).",
    "- **200:** `{success: true}`; an offer still out is withdrawn and its seat offered to the next person.",
  ].join("\n"),
  request: jsonBody(leaveBody),
  responses: {
    200: json(done),
    ...errors("post", ["phone_not_verified", "not_found"], {
      404: "`not_found` (this phone is not waiting for this event).",
    }),
  },
});

const claimRoute = createRoute({
  method: "post",
  path: "/claim-offer",
  summary: "Opens a texted offer link: proves its phone (the sdt_phone cookie) and answers what the form needs",
  description: [
    "- **Who:** capability link token (the offer link's `o` and `t`).",
    "- **200:** `{success: true, eventID, phone, gender, name, expiresAt}` (`name`: the one given when",
    "  joining the waitlist; `expiresAt`: until when the seat is kept), and the `sdt_phone` cookie for",
    "  `phone`: the link went to that phone, so opening it proves the phone as a code would. The browser",
    "  then books with `save-user-details`.",
  ].join("\n"),
  request: jsonBody(claimBody),
  responses: {
    200: json(
      z.strictObject({
        success: z.literal(true),
        eventID: z.number().int(),
        phone: z.string(),
        gender: z.enum(personGenders),
        name: z.string(),
        expiresAt: z.iso.datetime(),
      }),
    ),
    ...errors("post", ["invalid_link", "not_found", "gone"], {
      404: "`not_found` (offer).",
      410: "`gone` (already claimed, expired, withdrawn, or the event stopped taking bookings).",
    }),
  },
});

export const waitlistRoutes = (deps: AppDeps) => {
  /**
   * 403 unless this browser verified the body's phone, decided before the other fields are judged,
   * as save-user-details does: a browser that proved nothing learns nothing about the form either.
   * A phone that is not a mobile number at all is left to the validator's 400.
   */
  const verifiedPhoneFirst: MiddlewareHandler = async (c, next) => {
    let phone: unknown;
    try {
      phone = ((await c.req.json()) as { phone?: unknown } | null)?.phone;
    } catch {
      // Not JSON: the validator answers 400.
    }
    const parsed = auMobile.safeParse(phone);
    if (parsed.success && !browserVerified(c, deps, parsed.data))
      throw Forbidden("verify this phone number first", "phone_not_verified");
    return next();
  };

  // Who waits and the offers' phones are never cached: the API's answers are no-store by default (decision 013).
  return apiRouter()
    .openapi({ ...joinRoute, middleware: verifiedPhoneFirst }, (c) => {
      const body = c.req.valid("json");
      countJoin(deps.db, body.phone, deps.now());
      const event = findEvent(deps.db, body.eventID);
      if (!event) throw NotFound("no such event");
      // A seat the clock freed goes to those already waiting before this phone is told "book it".
      offerFreedSeatsNow(deps, event.id);
      const { position } = joinWaitlist(deps.db, {
        event,
        phone: body.phone,
        gender: waitlistGender(event, body.gender),
        name: body.name,
        marketingSms: body.marketingSms === true,
        now: deps.now(),
      });
      return c.json({ success: true as const, position }, 200);
    })
    .openapi({ ...leaveRoute, middleware: verifiedPhoneFirst }, (c) => {
      const body = c.req.valid("json");
      leaveWaitlist(deps, { eventId: body.eventID, phone: body.phone });
      return c.json({ success: true as const }, 200);
    })
    .openapi(claimRoute, (c) => {
      const body = c.req.valid("json");
      const offer = claimOffer(deps, { offerId: body.o, token: body.t, now: deps.now() });
      // The link went to this phone, so opening it proves the phone as a code would.
      rememberVerifiedPhone(c, deps, offer.phone);
      return c.json(offer, 200);
    });
};
