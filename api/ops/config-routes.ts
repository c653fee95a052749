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
});

const publicConfigRoute = createRoute({
  method: "get",
  path: "/public-config",
  summary: "Public, non-secret settings the PWA needs",
  description: [
    "- **Who:** public.",
    "- **200:** `{supportEmail, companySiteUrl, navbarScriptUrl, navbarScriptIntegrity,",
    "  stripePublishableKey, eventTimeZone, retentionDays, businessName}`: the non-secret settings the PWA needs",
    "  (`stripePublishableKey` is `null` without Stripe; `navbarScriptIntegrity` is the landing page",
    "  script's Subresource Integrity hash; `eventTimeZone` is the admin form's default zone;",
    "  `retentionDays` is `RETENTION_DAYS`, which the `/privacy` page names, as it names `businessName`",
    "  (`BUSINESS_NAME`) as the sender of messages about future events).",
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
      },
      200,
      { "cache-control": "public, max-age=300" },
    ),
  );
