import { Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import type { AppDeps } from "../deps.ts";
import { Forbidden, NotFound } from "../lib/errors.ts";
import { jsonId, personName, validate } from "../lib/validate.ts";
import { browserVerified, rememberVerifiedPhone } from "./booking-cookie.ts";
import { findEvent } from "./holds.ts";
import { auMobile } from "./phone.ts";
import { countJoin, joinWaitlist, leaveWaitlist } from "./waitlist.ts";
import { claimOffer, offerFreedSeatsNow } from "./waitlist-offers.ts";

// The waitlist of a full event (docs/decisions/015-balanced-rooms-and-waitlist.md).

const id = jsonId(z);

const joinBody = z.object({
  eventID: id,
  phone: auMobile,
  gender: z.enum(["male", "female"], "must be male or female"),
  name: personName(z),
});
const leaveBody = z.object({ eventID: id, phone: auMobile });
const claimBody = z.object({ o: id, t: z.string().min(1).max(200) });

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
  return new Hono()
    .post("/join-waitlist", verifiedPhoneFirst, validate("json", joinBody), (c) => {
      const body = c.req.valid("json");
      countJoin(deps.db, body.phone, deps.now());
      const event = findEvent(deps.db, body.eventID);
      if (!event) throw NotFound("no such event");
      // A seat the clock freed goes to those already waiting before this phone is told "book it".
      offerFreedSeatsNow(deps, event.id);
      const { position } = joinWaitlist(deps.db, {
        event,
        phone: body.phone,
        gender: body.gender,
        name: body.name,
        now: deps.now(),
      });
      return c.json({ success: true as const, position });
    })
    .post("/leave-waitlist", verifiedPhoneFirst, validate("json", leaveBody), (c) => {
      const body = c.req.valid("json");
      leaveWaitlist(deps, { eventId: body.eventID, phone: body.phone });
      return c.json({ success: true as const });
    })
    .post("/claim-offer", validate("json", claimBody), (c) => {
      const body = c.req.valid("json");
      const offer = claimOffer(deps, { offerId: body.o, token: body.t, now: deps.now() });
      // The link went to this phone, so opening it proves the phone as a code would.
      rememberVerifiedPhone(c, deps, offer.phone);
      return c.json(offer);
    });
};
