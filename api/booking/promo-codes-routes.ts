import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import { localDateTime } from "../../common/event-fields.ts";
import { EVENT_LIMITS as L } from "../../common/event-limits.ts";
import type { AppDeps } from "../deps.ts";
import { ADMIN_ERRORS, adminRoute } from "../lib/admin-session.ts";
import { clientAddress } from "../lib/client-address.ts";
import { Forbidden } from "../lib/errors.ts";
import { apiRouter, done, errors, json, jsonBody, z } from "../lib/openapi.ts";
import { logActivity } from "../lib/staff.ts";
import { idParam, jsonId } from "../lib/validate.ts";
import { browserVerified } from "./booking-cookie.ts";
import { findBookingContext } from "./checkout.ts";
import { appliedPromo } from "./payments-schemas.ts";
import { applyPromoLimited, createPromoCode, disablePromoCode, listPromoCodes } from "./promo-codes.ts";
import { NO_PROOF } from "./ticket.ts";

// Promo codes (docs/decisions/023-prices-and-ages.md): the organiser's three calls and the buyer's one.

const id = jsonId(z);
const codeText = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{2,32}$/, "must be 2–32 letters, digits, - or _");

const newCode = z
  .object({
    eventID: id,
    code: codeText,
    percentOff: z.number().int("must be a whole percentage").min(1).max(100).nullish(),
    amountOff: z
      .number()
      .min(0.01)
      .max(L.price.max)
      .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, "at most 2 decimals")
      .transform((v) => Math.round(v * 100))
      .nullish(),
    maxUses: z.number().int().min(1).max(100_000).nullish(),
    validUntil: localDateTime.nullish(),
    gender: z.enum(["male", "female"], "must be male or female").nullish(),
  })
  .refine((b) => (b.percentOff ?? null) === null || (b.amountOff ?? null) === null, {
    message: "give percentOff or amountOff, not both",
    path: ["percentOff"],
  })
  .refine((b) => (b.percentOff ?? null) !== null || (b.amountOff ?? null) !== null, {
    message: "give percentOff or amountOff",
    path: ["percentOff"],
  });

/** A code as the organiser's list shows it (PromoCodeView of promo-codes.ts). */
const promoCode = z.strictObject({
  id: z.number().int(),
  code: z.string(),
  percentOff: z.number().int().nullable(),
  amountOff: z.number().nullable(),
  maxUses: z.number().int().nullable(),
  uses: z.number().int(),
  overruns: z.number().int(),
  validUntil: z.iso.datetime().nullable(),
  gender: z.enum(["male", "female"]).nullable(),
  disabled: z.boolean(),
});

const newCodeRoute = createRoute({
  method: "post",
  path: "/promo-codes",
  summary: "Adds a promo code to an event (organiser)",
  description: [
    "- **Who:** organiser session.",
    "- **Body (JSON):** `eventID`: id; `code`: 2–32 letters, digits, `-` or `_` (stored upper case,",
    "  matched ignoring case); exactly one of `percentOff` (integer 1–100) or `amountOff` (AUD dollars,",
    "  at most 2 decimals); `maxUses?` (integer ≥ 1 or `null`: no limit); `validUntil?`",
    "  (`YYYY-MM-DDTHH:MM` on the venue's clock, or `null`: no expiry); `gender?` (`male`, `female` or",
    "  `null`: anyone).",
    "- **200:** `{success: true, promoCode}`: a code as `GET /api/admin-event/{id}/promo-codes` lists it.",
  ].join("\n"),
  request: jsonBody(newCode),
  responses: {
    200: json(z.strictObject({ success: z.literal(true), promoCode })),
    ...errors("post", [...ADMIN_ERRORS, "not_found", "promo_code_taken", "wrong_state"], {
      403: "`forbidden` (a host session).",
      404: "`not_found` (event).",
      409: "`promo_code_taken`, `wrong_state` (ended or cancelled).",
    }),
  },
});

const listRoute = createRoute({
  method: "get",
  path: "/admin-event/{id}/promo-codes",
  summary: "An event's promo codes with their uses, oldest first (organiser)",
  description: [
    "- **Who:** organiser session.",
    "- **200:** `{success: true, promoCodes: [{id, code, percentOff, amountOff, maxUses, uses, overruns,",
    "  validUntil, gender, disabled}]}`, oldest first: `amountOff` AUD dollars or `null`; `uses` bookings",
    "  held or paid with it now; `overruns` paid bookings that went past `maxUses` (a payment page that",
    "  outlived its hold), charged what they were shown; `validUntil` ISO 8601 UTC or `null`.",
  ].join("\n"),
  request: { params: z.object({ id: idParam(z) }) },
  responses: {
    200: json(z.strictObject({ success: z.literal(true), promoCodes: z.array(promoCode) })),
    ...errors("get", ["invalid_request", ...ADMIN_ERRORS, "not_found"], { 403: "`forbidden` (a host session)." }),
  },
});

const disableRoute = createRoute({
  method: "post",
  path: "/disable-promo-code",
  summary: "Stops a code being applied from now on; again changes nothing (organiser)",
  description: [
    "Stops a code being applied from now on (**Disable**); bookings that used it keep their price. Again",
    "on a disabled code changes nothing.",
    "",
    "- **Who:** organiser session.",
    "- **200:** `{success: true}`.",
  ].join("\n"),
  request: jsonBody(z.object({ id })),
  responses: {
    200: json(done),
    ...errors("post", [...ADMIN_ERRORS, "not_found"], { 403: "`forbidden` (a host session)." }),
  },
});

const applyRoute = createRoute({
  method: "post",
  path: "/apply-promo",
  summary: "Applies a code to the held booking of this verified phone and answers its new total",
  description: [
    "The buyer's **Promo code** and **Apply** on the confirmation page.",
    "",
    "- **Who:** verified-phone browser, for the phone of the booking (`userID`, `eventID`), as",
    "  `create-checkout-session`. An unknown booking gets the same 403 as someone else's.",
    "- **Body (JSON):** `userID`: id; `eventID`: id; `code`: text 1–64 (case and surrounding spaces ignored).",
    "- **200:** `{amount, discount, code}`: the held booking's new total and everything taken off its",
    "  list price (early bird and code), AUD dollars, and the code as stored. The same code again answers",
    "  the same and discounts once; another code replaces the first. An open checkout of the old total is",
    "  closed, so the next **Proceed to Payment** charges the new one.",
    "- **Limits:** a code the event does not have (`promo_not_found`) counts as a wrong guess: 10 an hour",
    "  per booking, 10 per phone and 100 per client address. Past any of them every code is 429",
    "  `rate_limited`, the right one too, until the hour has passed.",
  ].join("\n"),
  request: jsonBody(z.object({ userID: id, eventID: id, code: z.string().trim().min(1).max(64) })),
  responses: {
    200: json(appliedPromo),
    ...errors(
      "post",
      [
        "phone_not_verified",
        "not_found",
        "promo_not_found",
        "promo_expired",
        "promo_used_up",
        "promo_wrong_gender",
        "already_paid",
        "hold_expired",
        "rate_limited",
      ],
      {
        409: "`promo_not_found`, `promo_expired` (expired or disabled), `promo_used_up`, `promo_wrong_gender`, `already_paid`, `hold_expired`.",
        429: "`rate_limited`. A refused code leaves the total as it was.",
      },
    ),
  },
});

export const promoCodeRoutes = (deps: AppDeps) => {
  // As create-checkout-session: only the browser that verified the booking's phone may change its price.
  const requireProof = (c: Context, phone: string | undefined) => {
    if (phone === undefined || !browserVerified(c, deps, phone)) throw Forbidden(NO_PROOF, "phone_not_verified");
  };
  return apiRouter()
    .openapi(adminRoute(deps, newCodeRoute, "managers"), (c) => {
      const b = c.req.valid("json");
      const code = createPromoCode(deps.db, {
        eventId: b.eventID,
        code: b.code,
        percentOff: b.percentOff ?? null,
        amountOffCents: b.amountOff ?? null,
        maxUses: b.maxUses ?? null,
        validUntil: b.validUntil ?? null,
        gender: b.gender ?? null,
      });
      logActivity(c, deps, { action: "promo code created", eventId: b.eventID, detail: b.code });
      return c.json({ success: true as const, promoCode: code }, 200);
    })
    .openapi(adminRoute(deps, listRoute, "managers"), (c) => {
      return c.json(
        { success: true as const, promoCodes: listPromoCodes(deps.db, c.req.valid("param").id, deps.now()) },
        200,
      );
    })
    .openapi(adminRoute(deps, disableRoute, "managers"), (c) => {
      const disabled = disablePromoCode(deps.db, c.req.valid("json").id, deps.now());
      if (disabled.disabledNow) {
        logActivity(c, deps, { action: "promo code disabled", eventId: disabled.eventId, detail: disabled.code });
      }
      return c.json({ success: true as const }, 200);
    })
    .openapi(applyRoute, (c) => {
      const body = c.req.valid("json");
      const phone = findBookingContext(deps.db, body.userID, body.eventID)?.booking.phone;
      requireProof(c, phone);
      const input = { userId: body.userID, eventId: body.eventID, code: body.code, phone: phone ?? "" };
      return c.json(applyPromoLimited(deps.db, { ...input, address: clientAddress(c) }, deps.now()), 200);
    });
};
