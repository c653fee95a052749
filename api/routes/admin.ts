import { Hono } from "hono";
import type { AppDeps } from "../deps.ts";

// Issue 5: admin-login, save-event, update-event, start-event, end-event, get-event-user, refund.
export const adminRoutes = (_deps: AppDeps) => new Hono();
