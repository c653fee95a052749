import { createRoute } from "@hono/zod-openapi";
import type { AppDeps } from "../deps.ts";
import { apiRouter, errors, json, z } from "../lib/openapi.ts";

const publicConfig = z.strictObject({
  supportEmail: z.string(),
  companySiteUrl: z.string(),
  navbarScriptUrl: z.string(),
  navbarScriptIntegrity: z.string(),
  stripePublishableKey: z.string().nullable(),
  eventTimeZone: z.string(),
  retentionDays: z.number().int(),
  businessName: z.string(),
  wallet: z.strictObject({ apple: z.boolean(), google: z.boolean() }),
});

const publicConfigRoute = createRoute({
  method: "get",
  path: "/public-config",
  summary: "Public, non-secret settings the PWA needs",
  description: [
    "- **Who:** public.",
    "- **200:** `{supportEmail, companySiteUrl, navbarScriptUrl, navbarScriptIntegrity,",
    "  stripePublishableKey, eventTimeZone, retentionDays, businessName, wallet}`: the non-secret settings the PWA needs",
    "  (`stripePublishableKey` is `null` without Stripe; `navbarScriptIntegrity` is the landing page",
    "  script's Subresource Integrity hash; `eventTimeZone` is the admin form's default zone;",
    "  `retentionDays` is `RETENTION_DAYS`, which the `/privacy` page names, as it names `businessName`",
    "  (`BUSINESS_NAME`) as the sender of messages about future events; `wallet` is `{apple, google}`,",
    "  whether each wallet's keys are set up, so the ticket shows **Add to Apple Wallet** and",
    "  **Add to Google Wallet** only where they work).",
    "  `Cache-Control: public, max-age=300`.",
  ].join("\n"),
  responses: { 200: json(publicConfig), ...errors("get", []) },
});

/** Public, non-secret settings the PWA needs (landing page links, the payment provider's publishable key). */
export const configRoutes = (deps: AppDeps) =>
  apiRouter().openapi(publicConfigRoute, (c) =>
    c.json(
      {
        supportEmail: deps.env.SUPPORT_EMAIL,
        companySiteUrl: deps.env.COMPANY_SITE_URL,
        navbarScriptUrl: deps.env.NAVBAR_SCRIPT_URL,
        // The landing page loads that script only with this Subresource Integrity hash (decision 013).
        navbarScriptIntegrity: deps.env.NAVBAR_SCRIPT_INTEGRITY,
        stripePublishableKey: deps.env.STRIPE_PUBLISHABLE_KEY ?? null,
        // The admin form's default zone for a new event.
        eventTimeZone: deps.env.EVENT_TIME_ZONE,
        // The /privacy page says how long attendees' personal data is kept after their event.
        retentionDays: deps.env.RETENTION_DAYS,
        // Who sends the messages about future events, as /privacy names it (the Spam Act's identification).
        businessName: deps.env.BUSINESS_NAME,
        // Which wallet buttons the ticket shows: only those whose keys were read at start.
        wallet: { apple: deps.wallet.apple !== null, google: deps.wallet.google !== null },
      },
      200,
      { "cache-control": "public, max-age=300" },
    ),
  );
