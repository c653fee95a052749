import { type Context, Hono } from "hono";
import { z } from "zod";
import { localDateTime } from "../../common/event-fields.ts";
import { EVENT_LIMITS as L } from "../../common/event-limits.ts";
import type { AppDeps } from "../deps.ts";
import { requireAdmin } from "../lib/admin-session.ts";
import { clientAddress } from "../lib/client-address.ts";
import { Forbidden } from "../lib/errors.ts";
import { logActivity } from "../lib/staff.ts";
import { idParam, jsonId, validate } from "../lib/validate.ts";
import { browserVerified } from "./booking-cookie.ts";
import { findBookingContext } from "./checkout.ts";
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

export const promoCodeRoutes = (deps: AppDeps) => {
  const admin = requireAdmin(deps);
  // As create-checkout-session: only the browser that verified the booking's phone may change its price.
  const requireProof = (c: Context, phone: string | undefined) => {
    if (phone === undefined || !browserVerified(c, deps, phone)) throw Forbidden(NO_PROOF, "phone_not_verified");
  };
  return new Hono()
    .post("/promo-codes", admin, validate("json", newCode), (c) => {
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
      return c.json({ success: true as const, promoCode: code });
    })
    .get("/admin-event/:id/promo-codes", admin, validate("param", z.object({ id: idParam(z) })), (c) => {
      return c.json({
        success: true as const,
        promoCodes: listPromoCodes(deps.db, c.req.valid("param").id, deps.now()),
      });
    })
    .post("/disable-promo-code", admin, validate("json", z.object({ id })), (c) => {
      const disabled = disablePromoCode(deps.db, c.req.valid("json").id, deps.now());
      if (disabled.disabledNow) {
        logActivity(c, deps, { action: "promo code disabled", eventId: disabled.eventId, detail: disabled.code });
      }
      return c.json({ success: true as const });
    })
    .post(
      "/apply-promo",
      validate("json", z.object({ userID: id, eventID: id, code: z.string().trim().min(1).max(64) })),
      (c) => {
        const body = c.req.valid("json");
        const phone = findBookingContext(deps.db, body.userID, body.eventID)?.booking.phone;
        requireProof(c, phone);
        const input = { userId: body.userID, eventId: body.eventID, code: body.code, phone: phone ?? "" };
        return c.json(applyPromoLimited(deps.db, { ...input, address: clientAddress(c) }, deps.now()));
      },
    );
};
