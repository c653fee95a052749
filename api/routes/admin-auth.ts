import { Hono } from "hono";
import { z } from "zod";
import type { AppDeps } from "../deps.ts";
import { endAdminSession, isAdmin, startAdminSession } from "../lib/admin-session.ts";
import { clientAddress } from "../lib/client-address.ts";
import { hmac, safeEqual } from "../lib/crypto.ts";
import { Unauthorized } from "../lib/errors.ts";
import { assertUnderLimit, type Limit, recordHit } from "../lib/rate-limit.ts";
import { validate } from "../lib/validate.ts";

const WINDOW_MS = 15 * 60 * 1000;

/** admin-login, admin-logout and admin-session (which lets the panel skip the modal while the cookie lives). */
export const adminAuthRoutes = (deps: AppDeps) => {
  const limit: Limit = { bucket: "admin-login-failure", max: deps.env.ADMIN_LOGIN_MAX_FAILURES, windowMs: WINDOW_MS };
  // Comparing digests keeps the lengths equal, so the compare's time says nothing about the password's length.
  const digest = (password: string) => hmac(deps.env.SESSION_SECRET, "admin-password", password);
  const expected = digest(deps.env.ADMIN_PASSWORD);

  return new Hono()
    .post("/admin-login", validate("json", z.object({ password: z.string().max(1000) })), (c) => {
      const address = clientAddress(c);
      // Checked before the password, so a locked-out guesser learns nothing, not even a right guess.
      assertUnderLimit(deps.db, limit, address, deps.now());
      if (!safeEqual(digest(c.req.valid("json").password), expected)) {
        recordHit(deps.db, limit, address, deps.now());
        deps.log("warn", "admin login failed", { address });
        throw Unauthorized("Invalid credentials");
      }
      startAdminSession(c, deps);
      return c.json({ success: true as const });
    })
    .post("/admin-logout", (c) => {
      endAdminSession(c);
      return c.json({ success: true as const });
    })
    .get("/admin-session", (c) => {
      c.header("cache-control", "no-store");
      return c.json({ admin: isAdmin(c, deps) });
    });
};
