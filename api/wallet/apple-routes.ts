import type { AppDeps } from "../deps.ts";
import { apiRouter } from "../lib/openapi.ts";

/** GET /api/wallet/apple/{bookingId}: the ticket as an Apple Wallet pass (issue 50). */
export const appleWalletRoutes = (_deps: AppDeps) => apiRouter();
