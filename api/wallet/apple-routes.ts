import { createRoute } from "@hono/zod-openapi";
import type { Context } from "hono";
import { loadBookingContextById } from "../booking/checkout.ts";
import { issueTicket, sendQueuedConfirmation } from "../booking/ticket.ts";
import type { AppDeps } from "../deps.ts";
import { isValidLinkToken } from "../lib/capability.ts";
import { Conflict, Forbidden, Gone, NotFound } from "../lib/errors.ts";
import { guestSessionOf } from "../lib/guest-session.ts";
import { apiRouter, errors, file, z } from "../lib/openapi.ts";
import { idParam } from "../lib/validate.ts";
import { applePassBuffer } from "./apple-pass.ts";
import { ensureWalletPass, passFacts } from "./pass-facts.ts";

// The ticket as an Apple Wallet pass (issue 50, docs/decisions/053-wallet-passes.md): the Add to Apple
// Wallet button's download. The pass itself is apple-pass.ts's; Apple's devices fetch later versions
// from the PassKit web service (passkit-routes.ts).

const applePassRoute = createRoute({
  method: "get",
  path: "/wallet/apple/{bookingId}",
  summary:
    "The ticket as an Apple Wallet pass (.pkpass); the ticket link's t, or the guest's /me session, is the proof",
  description: [
    "The **Add to Apple Wallet** button of a ticket (its page, **My nights**, the ticket email).",
    "",
    "- **Who:** anyone with the ticket link's `t` (the ticket's capability, as `ticket` takes it), or the",
    "  guest session of the booking's number. Exists only when Apple Wallet is configured",
    "  (`APPLE_PASS_TYPE_ID` and the rest, docs/operations.md#wallet-passes): 404 otherwise.",
    "- **Path:** `bookingId`: id (booking). **Query:** `t` (optional): the ticket link's token.",
    "- **200:** the signed pass: `application/vnd.apple.pkpass`,",
    '  `Content-Disposition: attachment; filename="ticket.pkpass"`, `Cache-Control: no-store`,',
    "  `Last-Modified` (the pass's last change).",
    "",
    "An event ticket pass: the event's name, the venue's date and time with its zone, the doors-open",
    "time, the guest's name, the door code, the QR of the same door link the ticket's QR encodes, the",
    "address and venue notes, the organiser and support email. Its `webServiceURL` is",
    "`{PUBLIC_BASE_URL}/api/passkit`, so the phone fetches each later version. A refunded or cancelled",
    "ticket's pass still downloads: it says `NOT VALID` with the reason and has no QR. Never the phone",
    "number, the email address, the photo, or anything about another guest.",
  ].join("\n"),
  request: {
    params: z.object({ bookingId: idParam(z) }),
    query: z.object({ t: z.string().min(1).max(200).optional() }),
  },
  responses: {
    200: file(
      "application/vnd.apple.pkpass",
      'The pass, `Content-Disposition: attachment; filename="ticket.pkpass"`, `Cache-Control: no-store`',
    ),
    ...errors("get", ["invalid_request", "invalid_link", "not_found", "not_paid", "gone"], {
      403: "`invalid_link` (no valid `t` and no guest session of the booking's number; the token is checked before anything is read).",
      404: "`not_found` (Apple Wallet is not configured here, or no such ticket).",
      409: "`not_paid` (the booking was never paid).",
      410: "`gone` (the event's personal data has been erased: `RETENTION_DAYS` after it).",
    }),
  },
});

/**
 * Whether the caller proves the booking: the ticket link's token (no read at all), or else a /me
 * session whose number is the booking's. Every failure is the same 403, so it tells nothing about
 * which bookings exist.
 */
function requirePassProof(c: Context, deps: AppDeps, bookingId: number, token: string | undefined) {
  if (token !== undefined && isValidLinkToken(deps.env, "ticket", [bookingId], token)) return;
  const guest = guestSessionOf(c, deps);
  const phone = guest ? loadBookingContextById(deps.db, bookingId)?.booking.phone : undefined;
  if (!guest || phone !== guest.phone) throw Forbidden("this ticket link is not valid", "invalid_link");
}

/** The booking's pass facts, its wallet row made on the first call; refusals as the ticket link's. */
async function applePassFacts(deps: AppDeps, bookingId: number) {
  const ctx = loadBookingContextById(deps.db, bookingId);
  if (!ctx) throw NotFound("no such ticket");
  if (ctx.event.personalDataErasedAt !== null) throw Gone("this ticket has expired");
  const { status } = ctx.booking;
  if (status !== "paid" && status !== "refunded" && status !== "cancelled")
    throw Conflict("this booking is not paid", "not_paid");
  const now = deps.now();
  if (status === "paid" && !ctx.booking.uniqueCode) {
    // Payment completion issues the code; a paid booking without one gets it as the ticket link gives it.
    deps.db.transaction(
      (tx) => {
        const fresh = loadBookingContextById(tx, bookingId);
        if (fresh?.booking.status === "paid") issueTicket(tx, deps.env, fresh, now);
      },
      { behavior: "immediate" },
    );
    await sendQueuedConfirmation(deps, bookingId);
  } else if (!ctx.booking.uniqueCode) {
    // A refunded or cancelled booking that never had a door code has no ticket to show.
    throw NotFound("no such ticket");
  }
  const facts = deps.db.transaction((tx) => {
    ensureWalletPass(tx, bookingId, "apple", now);
    return passFacts(tx, deps.env, bookingId);
  });
  if (!facts) throw NotFound("no such ticket");
  return facts;
}

export const appleWalletRoutes = (deps: AppDeps) =>
  apiRouter().openapi(applePassRoute, async (c) => {
    if (!deps.wallet.apple) throw NotFound("Apple Wallet is not set up here");
    const { bookingId } = c.req.valid("param");
    requirePassProof(c, deps, bookingId, c.req.valid("query").t);
    const facts = await applePassFacts(deps, bookingId);
    const pass = await applePassBuffer(deps, facts);
    return new Response(new Uint8Array(pass), {
      headers: {
        "content-type": "application/vnd.apple.pkpass",
        "content-disposition": 'attachment; filename="ticket.pkpass"',
        "cache-control": "no-store",
        "last-modified": new Date(facts.updatedAt).toUTCString(),
        "x-content-type-options": "nosniff",
      },
    });
  });
