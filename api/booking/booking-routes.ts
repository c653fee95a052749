import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import { personGenders } from "../../db/schema.ts";
import type { AppDeps } from "../deps.ts";
import { noStore } from "../lib/admin-session.ts";
import { clientAddress } from "../lib/client-address.ts";
import { Forbidden, NotFound } from "../lib/errors.ts";
import { guestSessionOf, startGuestSession } from "../lib/guest-session.ts";
import { apiRouter, done, errors, file, json, jsonBody, z } from "../lib/openapi.ts";
import { jsonId } from "../lib/validate.ts";
import { outboxEntry } from "../providers/sms/types.ts";
import { browserVerified, rememberVerifiedPhone } from "./booking-cookie.ts";
import { assertBookable, findEvent } from "./event-lookup.ts";
import { readStoredImage } from "./images.ts";
import { keptDetailsOf, keptForForm } from "./kept-details.ts";
import { sendOtp, verifyOtp } from "./otp.ts";
import { auMobile, COUNTRY_CODE } from "./phone.ts";
import { saveDetailsRoutes } from "./save-details-routes.ts";

const sendOtpBody = z.object({
  phone: auMobile,
  countryCode: z.literal(COUNTRY_CODE, `must be ${COUNTRY_CODE}`),
  // The event being booked (optional, added later): no code is sent for one whose sales have closed.
  eventID: jsonId(z).optional(),
  // Signing in on /me (docs/decisions/027-guest-identity.md): a code is texted even when this browser
  // verified the phone before, since only a code typed now opens a guest session.
  signIn: z.boolean("must be true or false").optional(),
});

const verifyOtpBody = z.object({
  phone: auMobile,
  otp: z.coerce
    .string()
    .trim()
    .regex(/^\d{4,10}$/, "must be the digits of the code"),
  // Also signs this browser in on /me as this phone (the sdt_me session, 30 days).
  signIn: z.boolean("must be true or false").optional(),
});

const keptDetailsQuery = z.object({ phone: auMobile });

const sendOtpRoute = createRoute({
  method: "post",
  path: "/send-otp",
  summary:
    "Texts a one-time code to a mobile (none when this browser verified it in the last 30 days, unless signing in on /me)",
  description: [
    "- **Who:** public.",
    "- **Body (JSON):**",
    "  - `eventID?`: id; the event being booked: no code is sent for one whose sales have closed.",
    "  - `signIn?`: boolean; `true` when signing in on `/me` (docs/api.md, Sign-in and sessions): the code is texted",
    "    even when this browser verified the phone before (only a code typed now opens a guest session).",
    "    The same limits count it.",
    "- **200:** `{success: true, PhoneVerification: false}` after texting a 6-digit code (valid 10",
    "  minutes; a new code voids the earlier ones), or `{success: true, PhoneVerification: true}` with no",
    "  code sent when this browser verified this phone within the last 30 days (never with `signIn`).",
  ].join("\n"),
  request: jsonBody(sendOtpBody),
  responses: {
    200: json(z.strictObject({ success: z.literal(true), PhoneVerification: z.boolean() })),
    ...errors("post", ["not_found", "booking_closed", "not_taking_bookings", "rate_limited", "provider_failed"], {
      404: "`not_found` (`eventID`).",
      409: "`booking_closed`, `not_taking_bookings` (`eventID`).",
      502: "`provider_failed` (the code could not be sent).",
    }),
  },
});

const verifyOtpRoute = createRoute({
  method: "post",
  path: "/verify-otp",
  summary:
    "Checks the code; this browser then proves the phone (the sdt_phone cookie, 30 days), and with signIn opens its /me session (sdt_me)",
  description: [
    "- **Who:** public.",
    "- **Body (JSON):**",
    "  - `signIn?`: boolean; `true` also signs this browser in on `/me` as this phone: the `sdt_me` guest",
    "    session (30 days), replacing any session this browser held.",
    "- **200:** `{success: true}` and the `sdt_phone` cookie (this browser verified this phone, 30 days);",
    "  with `signIn`, the `sdt_me` cookie as well. Codes are single use. A refused code sets neither.",
  ].join("\n"),
  request: jsonBody(verifyOtpBody),
  responses: {
    200: json(done),
    ...errors("post", ["wrong_code", "code_expired", "rate_limited", "provider_failed"], {
      400: "`invalid_request`, `wrong_code`, `code_expired` (expired, used, voided by 5 wrong tries or by a newer code, or never sent).",
    }),
  },
});

const keptDetailsRoute = createRoute({
  method: "get",
  path: "/kept-details",
  summary:
    "The details this verified number kept for next time (to prefill the form), or null; only for a number this browser verified or its /me session",
  description: [
    "The details form's prefill (docs/decisions/029-kept-details.md).",
    "",
    "- **Who:** verified-phone browser for this `phone`, or a guest session of this `phone`.",
    "- **200:** `{kept}`: `null` when the number keeps nothing, else `{name, email, dateOfBirth, gender,",
    "  hasPhoto}` (never the stored photo's name). `Cache-Control: no-store`.",
  ].join("\n"),
  request: { query: keptDetailsQuery },
  responses: {
    200: json(
      z.strictObject({
        kept: z
          .strictObject({
            name: z.string(),
            email: z.string(),
            dateOfBirth: z.string(),
            gender: z.enum(personGenders),
            hasPhoto: z.boolean(),
          })
          .nullable(),
      }),
    ),
    ...errors("get", ["invalid_request", "phone_not_verified"], {
      403: "`phone_not_verified` (any other number, whether or not it keeps details).",
    }),
  },
});

const keptPhotoRoute = createRoute({
  method: "get",
  path: "/kept-photo",
  summary:
    "The thumbnail of the photo this verified number kept, shown beside Use my saved photo; only for a number this browser verified or its /me session",
  description: [
    "The kept photo beside **Use my saved photo** on the details form (docs/decisions/029-kept-details.md).",
    "",
    "- **Who:** verified-phone browser for this `phone`, or a guest session of this `phone`.",
    "- **200:** the kept photo's thumbnail, `image/jpeg` (re-encoded without metadata when it was",
    "  uploaded). `Cache-Control: no-store`: it is a person's photo read with their cookie.",
  ].join("\n"),
  request: { query: keptDetailsQuery },
  responses: {
    200: file("image/jpeg", "The kept photo's thumbnail (re-encoded without metadata)"),
    ...errors("get", ["invalid_request", "phone_not_verified", "not_found"], {
      403: "`phone_not_verified` (any other number, whether or not it keeps a photo).",
      404: "`not_found` (this number keeps no photo).",
    }),
  },
});

const devOutboxRoute = createRoute({
  method: "get",
  path: "/dev/outbox",
  summary: "Every text the local SMS provider sent (development only)",
  description: [
    "- **Who:** dev-only local providers (the console SMS provider, not in production).",
    "- **200:** JSON array, oldest first, of every text sent since start-up: `[{to, body, createdAt}]`",
    "  (`to` E.164, `createdAt` ISO 8601 UTC). Codes and links can be read here.",
  ].join("\n"),
  responses: {
    200: json(z.array(outboxEntry)),
    ...errors("get", ["not_found"], { 404: "`not_found` (Twilio configured, or production)." }),
  },
});

export const bookingRoutes = (deps: AppDeps) => {
  // The kept details and their photo: only the number this browser proved (the sdt_phone cookie) or
  // its /me session's. Another number's are never read, whether or not any are kept.
  const assertOwnNumber = (c: Context, phone: string) => {
    if (!browserVerified(c, deps, phone) && guestSessionOf(c, deps)?.phone !== phone)
      throw Forbidden("verify this phone number first", "phone_not_verified");
  };
  return (
    apiRouter()
      .openapi(sendOtpRoute, async (c) => {
        const { phone, eventID, signIn } = c.req.valid("json");
        if (eventID !== undefined) assertBookable(findEvent(deps.db, eventID), deps.now());
        const result = await sendOtp(deps, {
          phone,
          address: clientAddress(c),
          alreadyVerified: !signIn && browserVerified(c, deps, phone),
          limits: { perPhone: deps.env.OTP_MAX_PER_PHONE, perAddress: deps.env.OTP_MAX_PER_ADDRESS },
          now: deps.now(),
        });
        return c.json({ success: true as const, ...result }, 200);
      })
      .openapi(verifyOtpRoute, async (c) => {
        const { phone, otp, signIn } = c.req.valid("json");
        await verifyOtp(deps, phone, otp);
        rememberVerifiedPhone(c, deps, phone);
        if (signIn) startGuestSession(c, deps, phone);
        return c.json({ success: true as const }, 200);
      })
      // The details form, in its own file for its steps before the photo (save-details-routes.ts).
      .route("/", saveDetailsRoutes(deps))
      .openapi(keptDetailsRoute, (c) => {
        noStore(c);
        const { phone } = c.req.valid("query");
        assertOwnNumber(c, phone);
        return c.json({ kept: keptForForm(deps.db, phone) }, 200);
      })
      .openapi(keptPhotoRoute, async (c) => {
        const { phone } = c.req.valid("query");
        assertOwnNumber(c, phone);
        const kept = keptDetailsOf(deps.db, phone);
        // NO_PHOTO and a file gone from disk are alike a 404 (readStoredImage checks the name).
        const bytes = await readStoredImage(deps.env.UPLOADS_DIR, kept?.thumbName ?? "");
        return new Response(new Uint8Array(bytes), {
          headers: {
            "content-type": "image/jpeg",
            // A person's photo, read with their cookie: never kept by a shared cache or this browser's.
            "cache-control": "no-store",
            "x-content-type-options": "nosniff",
          },
        });
      })
      .openapi(devOutboxRoute, (c) => {
        // Exists only with the console provider, and never in production (docs/api.md, "Who may call").
        if (!deps.devOutbox || deps.env.NODE_ENV === "production") throw NotFound("no such endpoint");
        return c.json(deps.devOutbox.list(), 200);
      })
  );
};
