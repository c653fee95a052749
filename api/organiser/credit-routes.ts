import { randomUUID } from "node:crypto";
import { createRoute } from "@hono/zod-openapi";
import { eq } from "drizzle-orm";
import { audFromCents } from "../../common/money.ts";
import { users } from "../../db/schema.ts";
import { addCredit, creditBalance, creditKeyOf } from "../booking/credit.ts";
import type { AppDeps } from "../deps.ts";
import { ADMIN_ERRORS, adminRoute } from "../lib/admin-session.ts";
import { NotFound } from "../lib/errors.ts";
import { apiRouter, errors, json, jsonBody, z } from "../lib/openapi.ts";
import { logActivity } from "../lib/staff.ts";
import { jsonId } from "../lib/validate.ts";
import { deliverPending, enqueueSms } from "../messaging/outbox.ts";
import { creditIssuedText } from "../messaging/templates/credit.ts";

// **Give credit** on the participants list (issue 52, docs/decisions/057-credit.md): Finance's work,
// like a refund. The credit goes to the guest's verified number (its key), never to the user row.

/** The most one call gives: a night's price many times over, and a typo of an extra zero or two caught. */
export const GIVE_CREDIT_MAX_CENTS = 100_000;

const giveCreditRoute = createRoute({
  method: "post",
  path: "/give-credit",
  summary: "Gives a guest credit towards any night, on their verified number (Give credit)",
  description: [
    "**Give credit** on the participants list (docs/decisions/057-credit.md).",
    "",
    "- **Who:** organiser session.",
    "- **Body:** `{userID, amountCents, reason}`: `userID` a participant's id (`get-event-user`);",
    `  \`amountCents\` whole cents 1–${GIVE_CREDIT_MAX_CENTS}; \`reason\` one line of 1–200 characters, shown in the`,
    "  guest's credit history on /me.",
    "- **200:** `{success: true, creditCents}`. Each call gives once more (it is a gift, not a retry);",
    "  the guest is texted once per gift (transactional), and Activity logs `credit given` with the amount.",
  ].join("\n"),
  request: jsonBody(
    z.strictObject({
      userID: jsonId(z),
      amountCents: z.number().int("must be whole cents").min(1).max(GIVE_CREDIT_MAX_CENTS),
      reason: z
        .string()
        .trim()
        .min(1)
        .max(200)
        .regex(/^[^\p{Cc}\p{Cf}]*$/u, "must be one line of plain text"),
    }),
  ),
  responses: {
    200: json(z.strictObject({ success: z.literal(true), creditCents: z.number().int() })),
    ...errors("post", [...ADMIN_ERRORS, "not_found"], {
      403: "`forbidden` (a host session, or a role without money).",
      404: "`not_found` (no such participant, or their number was erased).",
    }),
  },
});

export const creditRoutes = (deps: AppDeps) =>
  apiRouter().openapi(adminRoute(deps, giveCreditRoute, "money"), (c) => {
    const { userID, amountCents, reason } = c.req.valid("json");
    const now = deps.now();
    const user = deps.db.select({ phone: users.phone }).from(users).where(eq(users.id, userID)).get();
    if (!user?.phone) throw NotFound("no such participant");
    const phone = user.phone;
    const key = `given:${randomUUID()}`;
    deps.db.transaction(
      (tx) => {
        const guestKey = creditKeyOf(deps.env, phone);
        addCredit(tx, { guestKey, amountCents, kind: "given", reason, uniqueKey: key }, now);
        enqueueSms(tx, {
          dedupeKey: `credit:${key}`,
          to: phone,
          body: creditIssuedText({ amountCents, balanceCents: creditBalance(tx, guestKey) }),
        });
      },
      { behavior: "immediate" },
    );
    logActivity(c, deps, { action: "credit given", userId: userID, detail: `${audFromCents(amountCents)}: ${reason}` });
    deliverPending(deps, { dedupePrefix: "credit:" }).catch((error: unknown) =>
      deps.log("warn", "credit text not sent yet; the outbox retries", { error: String(error).slice(0, 200) }),
    );
    return c.json({ success: true as const, creditCents: amountCents }, 200);
  });
