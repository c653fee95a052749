import { createRoute } from "@hono/zod-openapi";
import type { AppDeps } from "../deps.ts";
import { noStore } from "../lib/admin-session.ts";
import { NotFound } from "../lib/errors.ts";
import { guestSessionOf } from "../lib/guest-session.ts";
import { apiRouter, errors, json, z } from "../lib/openapi.ts";
import { idParam } from "../lib/validate.ts";
import { googleSaveLink } from "./google-pass.ts";
import { ensureWalletPass, passFacts } from "./pass-facts.ts";
import { provenTicket } from "./ticket-proof.ts";

const googleRoute = createRoute({
  method: "get",
  path: "/wallet/google/{bookingId}",
  summary: "The ticket's Google Wallet save link (a JWT signed with the organiser's service account)",
  description: [
    "**Add to Google Wallet** on the ticket, in My nights, and the ticket email's link (through the ticket page).",
    "",
    "- **Who:** anyone with the ticket link's token `t` (checked before anything is read), or, without `t`,",
    "  the guest session of the booking's number.",
    "- **Path:** `bookingId`: id (booking). **Query:** `t` (optional): the ticket link's token.",
    "- **200:** `{url}`: `https://pay.google.com/gp/v/save/{jwt}`, the JWT (RS256, the service account's",
    "  key) carrying the event's `EventTicketClass` (`{issuerId}.event-{eventId}`) and the ticket's",
    "  `EventTicketObject` (`{issuerId}.ticket-{serialNumber}`): the event, the venue's time with its",
    "  offset, the venue, the guest's name, the door code and the QR the door scans. A refunded or",
    "  cancelled ticket's object is `INACTIVE` and says `NOT VALID` and why. Nothing is fetched from Google.",
    "  `Cache-Control: no-store`.",
  ].join("\n"),
  request: {
    params: z.object({ bookingId: idParam(z) }),
    query: z.object({ t: z.string().min(1).max(200).optional() }),
  },
  responses: {
    200: json(z.strictObject({ url: z.url() })),
    ...errors("get", ["invalid_request", "invalid_link", "not_found", "not_paid", "gone"], {
      403: "`invalid_link`: a wrong `t`, or no `t` and no guest session of the booking's number.",
      404: "`not_found`: Google Wallet is not configured (`GOOGLE_WALLET_ISSUER_ID`), or no such booking.",
      409: "`not_paid`: the booking was never paid, so it has no ticket.",
      410: "`gone`: the event's personal data was erased.",
    }),
  },
});

/** GET /api/wallet/google/{bookingId}: the ticket's Google Wallet save link (issue 50). */
export const googleWalletRoutes = (deps: AppDeps) =>
  apiRouter().openapi(googleRoute, (c) => {
    noStore(c);
    const keys = deps.wallet.google;
    if (!keys) throw NotFound("Google Wallet is not set up");
    const { bookingId } = c.req.valid("param");
    const { t } = c.req.valid("query");
    provenTicket(deps, bookingId, { token: t, guest: t === undefined ? guestSessionOf(c, deps) : null });
    const now = deps.now();
    ensureWalletPass(deps.db, bookingId, "google", now);
    const facts = passFacts(deps.db, deps.env, bookingId);
    if (!facts) throw NotFound("no such ticket");
    return c.json({ url: googleSaveLink(keys, deps.env, facts, now) }, 200, { "cache-control": "no-store" });
  });
