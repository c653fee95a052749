import { type Context, Hono, type Next } from "hono";
import { z } from "zod";
import type { AppDeps } from "../deps.ts";
import { endAdminSession, isAdmin, noStore, startAdminSession } from "../lib/admin-session.ts";
import { clientAddress } from "../lib/client-address.ts";
import { hmac, safeEqual } from "../lib/crypto.ts";
import { Unauthorized } from "../lib/errors.ts";
import { assertUnderLimit, isOverLimit, type Limit, recordHit } from "../lib/rate-limit.ts";
import { validate } from "../lib/validate.ts";
import { recordFailedLogin } from "./activity.ts";

const WINDOW_MS = 15 * 60 * 1000;
/** Failed logins from every address together, per 15 minutes, before each attempt is slowed. */
export const ADMIN_LOGIN_SITE_CEILING = 50;
/** How long an attempt waits past the ceiling before it is judged. */
export const ADMIN_LOGIN_SLOWDOWN_MS = 2000;

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// Set before the handler runs, so the 400, 401 and 429 answers carry it too.
const noStoreFirst = (c: Context, next: Next) => {
  noStore(c);
  return next();
};

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

  return new Hono()
    .post("/admin-login", noStoreFirst, validate("json", z.object({ password: z.string().max(1000) })), async (c) => {
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
      return c.json({ success: true as const });
    })
    .post("/admin-logout", noStoreFirst, (c) => {
      endAdminSession(c, deps);
      return c.json({ success: true as const });
    })
    .get("/admin-session", noStoreFirst, (c) => c.json({ admin: isAdmin(c, deps) }));
};
