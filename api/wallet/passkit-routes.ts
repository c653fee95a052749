import type { AppDeps } from "../deps.ts";
import { apiRouter } from "../lib/openapi.ts";

/** Apple's PassKit web service at /api/passkit/v1/… (issue 50): devices register, ask what changed, fetch the latest pass. */
export const passkitRoutes = (_deps: AppDeps) => apiRouter();
