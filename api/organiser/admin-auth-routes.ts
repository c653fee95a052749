import { createRoute } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { BlankEnv } from "hono/types";
import type { AppDeps } from "../deps.ts";
import { adminSessionIdOf, endAdminSession, isAdmin, noStore, startAdminSession } from "../lib/admin-session.ts";
import { clientAddress } from "../lib/client-address.ts";
import { hmac, safeEqual } from "../lib/crypto.ts";
import { Unauthorized } from "../lib/errors.ts";
import { apiRouter, done, errors, json, jsonBody, z } from "../lib/openapi.ts";
import { assertUnderLimit, isOverLimit, type Limit, recordHit } from "../lib/rate-limit.ts";
import { endStreamsFor } from "../night/room-events.ts";
import { recordFailedLogin } from "./activity.ts";

const WINDOW_MS = 15 * 60 * 1000;
/** Failed logins from every address together, per 15 minutes, before each attempt is slowed. */
export const ADMIN_LOGIN_SITE_CEILING = 50;
/** How long an attempt waits past the ceiling before it is judged. */
export const ADMIN_LOGIN_SLOWDOWN_MS = 2000;

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// Set before the handler runs, so the 400, 401 and 429 answers carry it too. Typed with no variables,
// so a handler behind it has no `c.var.caller` (api/lib/caller.ts).
const noStoreFirst: MiddlewareHandler<BlankEnv> = (c, next) => {
  noStore(c);
  return next();
};

const adminLoginRoute = createRoute({
  method: "post",
  path: "/admin-login",
  summary: "Signs the organiser in: the sdt_admin session cookie (12 hours)",
  description: [
    "- **Who:** public.",
    "- **Body (JSON):** `password`: string ≤ 1000, compared in constant time.",
    "- **200:** `{success: true}` and the `sdt_admin` session cookie (12 hours).",
  ].join("\n"),
  request: jsonBody(z.object({ password: z.string().max(1000) })),
  responses: { 200: json(done), ...errors("post", ["invalid_credentials", "rate_limited"]) },
});

const adminLogoutRoute = createRoute({
  method: "post",
  path: "/admin-logout",
  summary: "Ends this browser's organiser session on the server and drops the cookie",
  description: [
    "- **Who:** anyone; ends the caller's session if it has one.",
    "- **200:** `{success: true}`; the session is revoked on the server (a copy of the cookie stops",
    "  working too) and the cookie deleted.",
  ].join("\n"),
  responses: { 200: json(done), ...errors("post", []) },
});

const adminSessionRoute = createRoute({
  method: "get",
  path: "/admin-session",
  summary: "Whether this browser holds a live organiser session",
  description: [
    "- **Who:** anyone.",
    "- **200:** `{admin: boolean}`: whether this browser holds a live organiser session.",
  ].join("\n"),
  responses: { 200: json(z.strictObject({ admin: z.boolean() })), ...errors("get", []) },
});

/** admin-login, admin-logout and admin-session (which lets the panel skip the modal while the cookie lives). */
export const adminAuthRoutes = (deps: AppDeps) => {
  const perAddress: Limit = {
    bucket: "admin-login-failure",
    max: deps.env.ADMIN_LOGIN_MAX_FAILURES,
    windowMs: WINDOW_MS,
  };
  // Every failure is also counted under one key, so guesses spread over many addresses add up.
  const siteWide: Limit = { bucket: "admin-login-failure-site", max: ADMIN_LOGIN_SITE_CEILING, windowMs: WINDOW_MS };
  const SITE = "*";
  const sleep = deps.sleep ?? realSleep;
  // Comparing digests keeps the lengths equal, so the compare's time says nothing about the password's length.
  const digest = (password: string) => hmac(deps.env.SESSION_SECRET, "admin-password", password);
  const expected = digest(deps.env.ADMIN_PASSWORD);

  return apiRouter()
    .openapi({ ...adminLoginRoute, middleware: noStoreFirst }, async (c) => {
      const address = clientAddress(c);
      // Checked before the password, so a locked-out guesser learns nothing, not even a right guess.
      assertUnderLimit(deps.db, perAddress, address, deps.now());
      if (isOverLimit(deps.db, siteWide, SITE, deps.now())) {
        // Slowed, never refused: refusing everybody would lock the organiser out too. Every attempt
        // waits, right or wrong, so the wait itself says nothing about the guess.
        await sleep(ADMIN_LOGIN_SLOWDOWN_MS);
        // Again after the wait: attempts sent side by side all passed the first check together.
        assertUnderLimit(deps.db, perAddress, address, deps.now());
      }
      if (!safeEqual(digest(c.req.valid("json").password), expected)) {
        recordHit(deps.db, perAddress, address, deps.now());
        recordHit(deps.db, siteWide, SITE, deps.now());
        deps.log("warn", "admin login failed", { address });
        recordFailedLogin(deps.db, deps.now());
        throw Unauthorized("Invalid credentials", "invalid_credentials");
      }
      startAdminSession(c, deps);
      return c.json({ success: true as const }, 200);
    })
    .openapi({ ...adminLogoutRoute, middleware: noStoreFirst }, (c) => {
      endStreamsFor(deps.db, { adminSession: adminSessionIdOf(c, deps) });
      endAdminSession(c, deps);
      return c.json({ success: true as const }, 200);
    })
    .openapi({ ...adminSessionRoute, middleware: noStoreFirst }, (c) => c.json({ admin: isAdmin(c, deps) }, 200));
};
