import { Hono } from "hono";
import type { AppDeps } from "../deps.ts";

// Issue 4: create-checkout-session, checkout-session, send-confirmation, stripe/webhook,
// get-event-details, confirm-booking, dev/checkout.
export const paymentsRoutes = (_deps: AppDeps) => new Hono();
