import { Hono } from "hono";
import type { AppDeps } from "../deps.ts";

// Issue 3: send-otp, verify-otp, save-user-details, GET /dev/outbox.
export const bookingRoutes = (_deps: AppDeps) => new Hono();
