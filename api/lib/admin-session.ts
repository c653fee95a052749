import { randomBytes } from "node:crypto";
import { eq, lt } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { adminSessions } from "../../db/schema.ts";
import type { AppDeps } from "../deps.ts";
import type { CallerEnv } from "./caller.ts";
import { hmac, safeEqual, signValue, verifySignedValue } from "./crypto.ts";
import { Forbidden, Unauthorized } from "./errors.ts";
import { hostSessionOf } from "./host-session.ts";

// A session is a row in admin_sessions; the cookie carries its random id, signed so a guessed or
// tampered cookie costs no database read (docs/decisions/009-admin-login-and-sessions.md).
export const COOKIE = "sdt_admin";
const PURPOSE = "admin-session";
const LIFETIME_MS = 12 * 60 * 60 * 1000;

/**
 * Which password a session was opened with, without storing the password: a session only lives
 * while ADMIN_PASSWORD is the one it was opened with, so changing the password ends every session.
 */
const passwordFingerprint = (env: AppDeps["env"]) =>
  hmac(env.SESSION_SECRET, "admin-session-password", env.ADMIN_PASSWORD);

/** Admin answers are the organiser's alone: no browser, proxy or service worker may keep one. */
export function noStore(c: Context) {
  c.header("cache-control", "no-store");
}

/**
 * Starts an admin session after a correct sign-in: a signed, HttpOnly, SameSite=Strict cookie.
 * `memberId` is the team member who signed in (db/team-schema.ts), or null for the owner's password.
 */
export function startAdminSession(c: Context, deps: AppDeps, memberId: number | null = null) {
  const now = deps.now();
  const id = randomBytes(32).toString("base64url");
  const expiresAt = now + LIFETIME_MS;
  deps.db.transaction((tx) => {
    // Sessions past their end are never read again; a login is a rare enough moment to sweep them.
    tx.delete(adminSessions).where(lt(adminSessions.expiresAt, now)).run();
    tx.insert(adminSessions)
      .values({ id, memberId, passwordFingerprint: passwordFingerprint(deps.env), expiresAt })
      .run();
  });
  setCookie(c, COOKIE, signValue(deps.env.SESSION_SECRET, PURPOSE, id, expiresAt), {
    httpOnly: true,
    sameSite: "Strict",
    secure: deps.env.PUBLIC_BASE_URL.startsWith("https://"),
    path: "/",
    maxAge: LIFETIME_MS / 1000,
  });
}

/** The id of the session the request's cookie names (live or not), or null: what its streams are keyed by. */
export function adminSessionIdOf(c: Context, deps: AppDeps): string | null {
  return sessionId(c, deps);
}

function sessionId(c: Context, deps: AppDeps): string | null {
  return verifySignedValue(deps.env.SESSION_SECRET, PURPOSE, getCookie(c, COOKIE), deps.now());
}

/** Ends the session on the server, so a copy of the cookie stops working too, and drops the cookie. */
export function endAdminSession(c: Context, deps: AppDeps) {
  const id = sessionId(c, deps);
  if (id) {
    deps.db.update(adminSessions).set({ revokedAt: deps.now() }).where(eq(adminSessions.id, id)).run();
  }
  deleteCookie(c, COOKIE, { path: "/" });
}

export function isAdmin(c: Context, deps: AppDeps): boolean {
  const id = sessionId(c, deps);
  if (!id) return false;
  const session = deps.db.select().from(adminSessions).where(eq(adminSessions.id, id)).get();
  return (
    session !== undefined &&
    session.revokedAt === null &&
    session.expiresAt > deps.now() &&
    safeEqual(session.passwordFingerprint, passwordFingerprint(deps.env))
  );
}

/** What requireAdmin answers, for a route's declared errors: no session (401), a host's session (403). */
export const ADMIN_ERRORS = ["admin_session_required", "forbidden"] as const;

/**
 * 401 unless the request carries a live admin session; 403 for a live host session, which opens only
 * the door and the rounds (docs/decisions/022-host-access.md). Put it before validation: no hints
 * without it. Every answer behind it, the 401 included, is marked no-store. The handler behind it
 * finds the organiser in `c.var.caller`.
 */
export const requireAdmin =
  (deps: AppDeps): MiddlewareHandler<CallerEnv> =>
  async (c, next) => {
    noStore(c);
    if (!isAdmin(c, deps)) {
      const host = hostSessionOf(c, deps);
      if (host !== null && host !== "ended") throw Forbidden("a host link does not open this");
      throw Unauthorized();
    }
    c.set("caller", { role: "organiser" });
    await next();
    // A handler may answer with a Response of its own (a download), which drops headers set before it.
    noStore(c);
  };
