import { createRoute } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { BlankEnv } from "hono/types";
import { teamRoles } from "../../db/team-schema.ts";
import type { AppDeps } from "../deps.ts";
import { adminSessionIdOf, adminSessionOf, endAdminSession, noStore, startAdminSession } from "../lib/admin-session.ts";
import { clientAddress } from "../lib/client-address.ts";
import { hmac, safeEqual, verifyPassword } from "../lib/crypto.ts";
import { Unauthorized } from "../lib/errors.ts";
import { apiRouter, done, errors, json, jsonBody, z } from "../lib/openapi.ts";
import { endStreamsFor } from "../night/room-events.ts";
import { ownerNeedsSecondFactor, ownerSecondFactor } from "./second-factor.ts";
import { type Account, signInLimits } from "./sign-in-limits.ts";
import { liveMember, memberByEmail, memberSecondFactor, recordSignIn } from "./team.ts";

// Set before the handler runs, so the 400, 401 and 429 answers carry it too. Typed with no variables,
// so a handler behind it has no `c.var.caller` (api/lib/caller.ts).
export const noStoreFirst: MiddlewareHandler<BlankEnv> = (c, next) => {
  noStore(c);
  return next();
};

/** A second factor as typed: an authenticator app's 6 digits or a recovery code (`xxxxx-xxxxx`). */
export const secondFactorCode = z.string().trim().min(1).max(40);

const adminLoginRoute = createRoute({
  method: "post",
  path: "/admin-login",
  summary: "Signs the owner in with ADMIN_PASSWORD: the sdt_admin session cookie (12 hours)",
  description: [
    "- **Who:** public.",
    "- **Body (JSON):** `password`: string ≤ 1000, compared in constant time; `code?`: the owner's",
    "  authenticator code or an unused recovery code, needed only once **Require a second factor for",
    "  the owner password** is on (`owner-second-factor`).",
    "- **200:** `{success: true}` and the `sdt_admin` session cookie (12 hours), the **Owner**'s.",
    "- **Limits:** 5 wrong passwords or codes in 15 minutes lock the owner's password for 15 minutes",
    "  (429 `account_locked`, even to the right password); `ADMIN_LOGIN_MAX_FAILURES` failures per",
    "  address (default 50, every sign-in together) answer 429 `rate_limited`.",
  ].join("\n"),
  request: jsonBody(z.object({ password: z.string().max(1000), code: secondFactorCode.optional() })),
  responses: {
    200: json(done),
    ...errors("post", ["invalid_credentials", "second_factor_required", "rate_limited", "account_locked"], {
      401: "`invalid_credentials` (a wrong password, or a wrong `code`); `second_factor_required` (the right password without `code` while a second factor is required).",
    }),
  },
});

const teamLoginRoute = createRoute({
  method: "post",
  path: "/team-login",
  summary: "Signs a team member in with their email, password and a code: the sdt_admin session cookie",
  description: [
    "- **Who:** public.",
    "- **Body (JSON):** `email`; `password`: string ≤ 200; `code`: the member's authenticator code",
    "  (6 digits, each time step once) or one unused recovery code.",
    "- **200:** `{success: true}` and the `sdt_admin` session cookie (12 hours), the member's.",
    "- **401** `invalid_credentials` for any wrong part, an unknown email, a member not set up yet or",
    "  removed: the answer does not say which.",
    "- **Limits:** 5 wrong tries for one email in 15 minutes lock it for 15 minutes (429",
    "  `account_locked`, and the member gets an email); the per-address limit is `admin-login`'s.",
  ].join("\n"),
  request: jsonBody(
    z.object({ email: z.string().trim().max(254), password: z.string().max(200), code: secondFactorCode }),
  ),
  responses: {
    200: json(done),
    ...errors("post", ["invalid_credentials", "rate_limited", "account_locked"]),
  },
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

/** The person behind an organiser session, for the panel: null for the owner. */
export const sessionMember = z
  .strictObject({ id: z.number().int(), name: z.string(), role: z.enum(teamRoles) })
  .openapi("SessionMember")
  .nullable();

const adminSessionRoute = createRoute({
  method: "get",
  path: "/admin-session",
  summary: "Whether this browser holds a live organiser session, and whose",
  description: [
    "- **Who:** anyone.",
    "- **200:** `{admin, member}`: `admin` whether this browser holds a live organiser session;",
    "  `member` `{id, name, role}` when it is a team member's, null for the owner's (or none).",
  ].join("\n"),
  responses: {
    200: json(z.strictObject({ admin: z.boolean(), member: sessionMember })),
    ...errors("get", []),
  },
});

/** admin-login, team-login, admin-logout and admin-session (which lets the panel skip the modal while the cookie lives). */
export const adminAuthRoutes = (deps: AppDeps) => {
  const limits = signInLimits(deps);
  // Comparing digests keeps the lengths equal, so the compare's time says nothing about the password's length.
  const digest = (password: string) => hmac(deps.env.SESSION_SECRET, "admin-password", password);
  const expected = digest(deps.env.ADMIN_PASSWORD);
  const owner: Account = { kind: "owner" };

  return apiRouter()
    .openapi({ ...adminLoginRoute, middleware: noStoreFirst }, async (c) => {
      const address = clientAddress(c);
      const { password, code } = c.req.valid("json");
      // Checked before the password, so a locked-out guesser learns nothing, not even a right guess.
      const attempt = await limits.before(address, owner);
      if (!safeEqual(digest(password), expected)) {
        limits.failed(attempt);
        throw Unauthorized("Invalid credentials", "invalid_credentials");
      }
      if (ownerNeedsSecondFactor(deps.db)) {
        // The right password alone: the modal asks for the second factor; not a failure.
        if (code === undefined) {
          limits.undecided(attempt);
          throw Unauthorized(
            "A second factor is required: a passkey, or a code from your app",
            "second_factor_required",
          );
        }
        if (!ownerSecondFactor(deps, code)) {
          limits.failed(attempt);
          throw Unauthorized("Invalid credentials", "invalid_credentials");
        }
      }
      limits.succeeded(attempt);
      startAdminSession(c, deps, null);
      return c.json({ success: true as const }, 200);
    })
    .openapi({ ...teamLoginRoute, middleware: noStoreFirst }, async (c) => {
      const address = clientAddress(c);
      const body = c.req.valid("json");
      const email = body.email.toLowerCase();
      const found = memberToSignIn(deps, email);
      const account: Account = { kind: "member", email, member: found };
      const attempt = await limits.before(address, account);
      // The password is hashed even for an unknown email, so the time taken says nothing either.
      const passwordOk = await verifyPassword(body.password, found?.passwordHash ?? null);
      // Read again after the hash's wait: removed meanwhile is out.
      const member = found ? liveMember(deps.db, found.id) : undefined;
      if (!member || !passwordOk || !memberSecondFactor(deps, member, body.code)) {
        limits.failed(attempt);
        throw Unauthorized("Invalid credentials", "invalid_credentials");
      }
      limits.succeeded(attempt);
      recordSignIn(deps.db, member.id, deps.now());
      startAdminSession(c, deps, member.id);
      return c.json({ success: true as const }, 200);
    })
    .openapi({ ...adminLogoutRoute, middleware: noStoreFirst }, (c) => {
      endStreamsFor(deps.db, { adminSession: adminSessionIdOf(c, deps) });
      endAdminSession(c, deps);
      return c.json({ success: true as const }, 200);
    })
    .openapi({ ...adminSessionRoute, middleware: noStoreFirst }, (c) => {
      const session = adminSessionOf(c, deps);
      const person = session?.person;
      const member = person?.kind === "member" ? { id: person.id, name: person.name, role: person.role } : null;
      return c.json({ admin: session !== null, member }, 200);
    });
};

/** The live, set-up member with this email (and a password), for team-login. */
function memberToSignIn(deps: AppDeps, email: string) {
  const member = memberByEmail(deps.db, email);
  return member && liveMember(deps.db, member.id) ? member : undefined;
}
