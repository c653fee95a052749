import type { AppDeps } from "../deps.ts";
import { apiRouter } from "../lib/openapi.ts";

/** GET /api/wallet/google/{bookingId}: the ticket's Google Wallet save link (issue 50). */
export const googleWalletRoutes = (_deps: AppDeps) => apiRouter();
