import { createRoute } from "@hono/zod-openapi";
import type { AppDeps } from "../deps.ts";
import { ADMIN_ERRORS, adminRoute, noStore } from "../lib/admin-session.ts";
import { apiRouter, errors, json, z } from "../lib/openapi.ts";
import type { WalletKeys } from "./keys.ts";

/** The desk warns this long before the Apple pass certificate stops working (docs/decisions/054-wallet-buttons.md). */
export const CERTIFICATE_WARNING_MS = 30 * 24 * 60 * 60 * 1000;

const walletStatus = z.strictObject({
  apple: z.strictObject({
    configured: z.boolean(),
    certificateExpiresAt: z.iso.datetime().nullable(),
    expiresSoon: z.boolean(),
  }),
  google: z.strictObject({ configured: z.boolean() }),
});

const statusRoute = createRoute({
  method: "get",
  path: "/wallet-status",
  summary: "Which wallets are set up, and when the Apple pass certificate expires",
  description: [
    "The desk's warning before the Apple Wallet certificate runs out.",
    "",
    "- **Who:** organiser session.",
    "- **200:** `{apple: {configured, certificateExpiresAt, expiresSoon}, google: {configured}}`:",
    "  `certificateExpiresAt` is the Pass Type ID certificate's end (ISO 8601 UTC, `null` without Apple",
    "  Wallet); `expiresSoon` is true from 30 days before it (and after it). Passes already issued keep",
    "  working until then; new ones need the renewed certificate. `Cache-Control: no-store`.",
  ].join("\n"),
  responses: {
    200: json(walletStatus),
    ...errors("get", ADMIN_ERRORS),
  },
});

/** What the desk shows of the wallets' keys: a pure reading of what was loaded at start. */
export function walletStatusOf(wallet: WalletKeys, now: number): z.output<typeof walletStatus> {
  const expiresAt = wallet.apple?.certificateExpiresAt ?? null;
  return {
    apple: {
      configured: wallet.apple !== null,
      certificateExpiresAt: expiresAt === null ? null : new Date(expiresAt).toISOString(),
      expiresSoon: expiresAt !== null && expiresAt - now <= CERTIFICATE_WARNING_MS,
    },
    google: { configured: wallet.google !== null },
  };
}

/** GET /api/wallet-status: the wallets' set-up for the desk (issue 50). */
export const walletStatusRoutes = (deps: AppDeps) =>
  apiRouter().openapi(adminRoute(deps, statusRoute, "money"), (c) => {
    noStore(c);
    return c.json(walletStatusOf(deps.wallet, deps.now()), 200);
  });
