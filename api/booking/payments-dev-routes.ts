import { createRoute } from "@hono/zod-openapi";
import type { AppDeps } from "../deps.ts";
import { NotFound } from "../lib/errors.ts";
import { apiRouter, errors, file, z } from "../lib/openapi.ts";
import {
  cancelCheckout,
  cancelUrl,
  findCheckoutSession,
  heldUntil,
  loadBookingContextById,
  successUrl,
} from "./checkout.ts";
import { payLocalCheckout } from "./payment-completion.ts";

// The local checkout (docs/operations.md, "Real payments and SMS"; `/api/dev/checkout/{id}` in docs/api.md): a stand-in
// for Stripe's hosted page while Stripe is not configured. It never exists in production or next to the real
// provider.

const checkoutParams = z.object({
  id: z
    .string()
    .regex(/^cs_local_[a-f0-9]{24}$/, "no such checkout")
    .openapi({ param: { name: "id", in: "path" }, description: "`cs_local_` followed by 24 hex digits" }),
});

/** A 303 to another page of the app (the success page, or the held booking). */
const redirect = (description: string) => ({ description, headers: z.object({ location: z.string() }) });

const checkoutPageRoute = createRoute({
  method: "get",
  path: "/dev/checkout/{id}",
  summary: 'The local checkout page ("Test checkout") that stands in for Stripe\'s (development only)',
  description: [
    'The local checkout page ("Test checkout") that `create-checkout-session`\'s `url` points at without',
    "Stripe.",
    "",
    "- **Who:** dev-only local providers (the local checkout, not in production).",
    "- **200:** HTML page with the event, the amount and the buttons **Pay** and **Cancel** (form posts",
    "  to `POST /api/dev/checkout/{id}/pay` and `POST /api/dev/checkout/{id}/cancel`); for a paid checkout, a link to the ticket.",
    "- **410:** HTML page: the checkout expired, or was cancelled (with a link back to the booking).",
  ].join("\n"),
  request: { params: checkoutParams },
  responses: {
    200: file(
      "text/html",
      "The page with the event, the amount and the Pay and Cancel buttons, or a paid checkout's link to the ticket",
    ),
    410: file("text/html", "The page saying the checkout expired or was cancelled (with a link back to the booking)"),
    ...errors("get", ["invalid_request", "not_found"], {
      400: "`invalid_request` (malformed id).",
      404: "`not_found` (unknown checkout, Stripe configured, or production).",
    }),
  },
});

const payRoute = createRoute({
  method: "post",
  path: "/dev/checkout/{id}/pay",
  summary: "The local checkout's Pay button, a form post with no fields (development only)",
  description: [
    "- **Who:** dev-only local providers.",
    "- **Path:** `id`: as for `GET /api/dev/checkout/{id}`. No body.",
    "- **303:** to the success URL, after marking the checkout paid with a payment intent `pi_local_…`",
    "  (a second Pay charges nothing more and redirects the same way).",
    "- **409:** HTML page: the checkout expired or was cancelled, nothing was charged.",
  ].join("\n"),
  request: { params: checkoutParams },
  responses: {
    303: redirect("To the success URL, the checkout paid (a second Pay charges nothing more)"),
    409: file("text/html", "The page saying the checkout expired or was cancelled, so nothing was charged"),
    ...errors("post", ["not_found"]),
  },
});

const cancelRoute = createRoute({
  method: "post",
  path: "/dev/checkout/{id}/cancel",
  summary: "The local checkout's Cancel button, a form post with no fields (development only)",
  description: [
    "- **Who:** dev-only local providers.",
    "- **Path:** `id`: as for `GET /api/dev/checkout/{id}`. No body.",
    "- **303:** to the held booking,",
    "  `{PUBLIC_BASE_URL}/confirmation?payment=cancelled&userID=…&eventID=…&heldUntil=…`, after",
    "  cancelling the checkout (it can no longer be paid). The seat stays held until the hold runs out,",
    "  as when a buyer leaves Stripe's page by its cancel link, so the buyer can pay again through a new",
    "  checkout; `heldUntil` is left out when the hold has already run out or was released.",
  ].join("\n"),
  request: { params: checkoutParams },
  responses: {
    303: redirect("To the held booking (the seat stays held until its hold runs out), the checkout cancelled"),
    ...errors("post", ["not_found"]),
  },
});

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

const aud = (cents: number) =>
  new Intl.NumberFormat("en-AU", { style: "currency", currency: "AUD" }).format(cents / 100);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
  body { margin: 0; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; background: #faf7fb; color: #1f1a24; }
  main { max-width: 420px; margin: 0 auto; padding: 1.5rem 1rem; }
  .card { background: #fff; border-radius: 14px; padding: 1.25rem; box-shadow: 0 6px 20px rgb(31 26 36 / 8%); }
  h1 { font-size: 1.5rem; margin: 0 0 1rem; }
  .note { color: #6b6275; font-size: 0.9rem; }
  .amount { font-size: 2rem; font-weight: 700; margin: 0.25rem 0 1rem; }
  form { margin: 0.75rem 0 0; }
  button, .link { display: block; box-sizing: border-box; width: 100%; min-height: 48px; border-radius: 12px; font: inherit; font-weight: 700; font-size: 1.05rem; cursor: pointer; text-align: center; padding: 0.7rem; }
  .pay { background: #c2366b; border: 1px solid #c2366b; color: #fff; }
  .cancel { background: #fff; border: 1px solid #e7e1ec; color: #1f1a24; }
  .link { text-decoration: none; background: #c2366b; color: #fff; }
</style>
</head>
<body><main><div class="card">${body}</div></main></body>
</html>`;
}

export const devCheckoutRoutes = (deps: AppDeps) => {
  const available = () => deps.payments.name === "local" && deps.env.NODE_ENV !== "production";
  const load = (id: string) => {
    if (!available()) throw NotFound("no such endpoint");
    const session = findCheckoutSession(deps.db, id);
    const ctx = session && loadBookingContextById(deps.db, session.bookingId);
    if (!session || !ctx) throw NotFound("no such checkout");
    return { session, ctx };
  };

  return apiRouter()
    .openapi(checkoutPageRoute, (c) => {
      const { session, ctx } = load(c.req.valid("param").id);
      const now = deps.now();
      const heading = `<h1>Test checkout</h1><p class="note">No card is charged: this page stands in for the card payment provider.</p>`;
      const summary = `<p><strong>${escapeHtml(ctx.event.name)}</strong></p><p class="amount">${escapeHtml(aud(session.amountCents))} AUD</p>`;
      if (session.status === "paid") {
        const done = escapeHtml(successUrl(deps.env, session.id, ctx));
        return c.html(
          page(
            "Test checkout",
            `${heading}${summary}<p>This checkout is already paid.</p><a class="link" href="${done}">See your ticket</a>`,
          ),
          200,
        );
      }
      if (session.status === "cancelled") {
        const back = escapeHtml(
          cancelUrl(deps.env, { userId: ctx.user.id, eventId: ctx.event.id, heldUntil: heldUntil(ctx.booking, now) }),
        );
        return c.html(
          page(
            "Test checkout",
            `${heading}${summary}<p>This checkout was cancelled, so nothing was charged.</p><a class="link" href="${back}">Back to your booking</a>`,
          ),
          410,
        );
      }
      if (session.status !== "open" || session.expiresAt <= now) {
        return c.html(
          page(
            "Test checkout",
            `${heading}${summary}<p>This checkout has expired or was cancelled. Please book again.</p><a class="link" href="/">Back to events</a>`,
          ),
          410,
        );
      }
      const action = `/api/dev/checkout/${encodeURIComponent(session.id)}`;
      return c.html(
        page(
          "Test checkout",
          `${heading}${summary}
<form method="post" action="${action}/pay"><button type="submit" class="pay">Pay</button></form>
<form method="post" action="${action}/cancel"><button type="submit" class="cancel">Cancel</button></form>`,
        ),
        200,
      );
    })
    .openapi(payRoute, async (c) => {
      const { session, ctx } = load(c.req.valid("param").id);
      const { outcome } = await payLocalCheckout(deps, session.id);
      const after = findCheckoutSession(deps.db, session.id);
      // A second Pay (double submit, back button) finds the session paid and charges nothing more.
      if (outcome === "paid" || outcome === "refunded" || after?.status === "paid") {
        return c.redirect(successUrl(deps.env, session.id, ctx), 303);
      }
      return c.html(
        page(
          "Test checkout",
          `<h1>Test checkout</h1><p>This checkout has expired or was cancelled, so nothing was charged. Please book again.</p><a class="link" href="/">Back to events</a>`,
        ),
        409,
      );
    })
    .openapi(cancelRoute, (c) => {
      const { session } = load(c.req.valid("param").id);
      // The checkout ends; the seat stays held, and the buyer goes back to the booking to pay again.
      const ctx = cancelCheckout(deps.db, session.id, deps.now());
      if (!ctx) throw NotFound("no such checkout");
      const until = heldUntil(ctx.booking, deps.now());
      return c.redirect(cancelUrl(deps.env, { userId: ctx.user.id, eventId: ctx.event.id, heldUntil: until }), 303);
    });
};
