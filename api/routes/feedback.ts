import { Hono } from "hono";
import type { AppDeps } from "../deps.ts";

// Issue 6: get-participants, save-feedback, get-feedback.
export const feedbackRoutes = (_deps: AppDeps) => new Hono();
