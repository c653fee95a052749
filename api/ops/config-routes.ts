import { Hono } from "hono";
import type { AppDeps } from "../deps.ts";

/** Public, non-secret settings the PWA needs (landing page links, the payment provider's publishable key). */
export const configRoutes = (deps: AppDeps) =>
  new Hono().get("/public-config", (c) =>
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
      },
      200,
      { "cache-control": "public, max-age=300" },
    ),
  );
