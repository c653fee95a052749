import { randomBytes } from "node:crypto";
import type { RouteConfig } from "@hono/zod-openapi";
import { eq, lt, sql } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { preparedPerDb } from "../../db/prepared.ts";
import { adminSessions } from "../../db/team-schema.ts";
import type { AppDeps } from "../deps.ts";
import { liveMember } from "../organiser/team.ts";
import type { CallerEnv, Person } from "./caller.ts";
import { hmac, safeEqual, signValue, verifySignedValue } from "./crypto.ts";
import { Forbidden, Unauthorized } from "./errors.ts";
import { hostSessionOf } from "./host-session.ts";
import { ACCESS, type Access, assertRole, withRoles } from "./roles.ts";

// A session is a row in admin_sessions; the cookie carries its random id, signed so a guessed or
// tampered cookie costs no database read (docs/decisions/009-admin-login-and-sessions.md).
export const COOKIE = "sdt_admin";
const PURPOSE = "admin-session";
const LIFETIME_MS = 12 * 60 * 60 * 1000;

/**
 * Which password a session was opened with, without storing the password: an owner's session only
 * lives while ADMIN_PASSWORD is the one it was opened with, so changing the password ends every owner
 * session. A member's session is checked against the member's row instead (adminSessionOf).
 */
const passwordFingerprint = (env: AppDeps["env"]) =>
  hmac(env.SESSION_SECRET, "admin-session-password", env.ADMIN_PASSWORD);

/** Admin answers are the organiser's alone: no browser, proxy or service worker may keep one. */
export function noStore(c: Context) {
  c.header("cache-control", "no-store");
}

/**
 * Opens a session row for a person (`memberId`: a team member, db/team-schema.ts; null: the owner's
 * password) and answers the signed cookie value that names it. startAdminSession sets it on a reply;
 * the role walks (api/organiser/roles-matrix.test.ts) open one per call with it.
 */
export function openAdminSession(deps: AppDeps, memberId: number | null): { cookie: string; expiresAt: number } {
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
  return { cookie: signValue(deps.env.SESSION_SECRET, PURPOSE, id, expiresAt), expiresAt };
}

/**
 * Starts an admin session after a correct sign-in: a signed, HttpOnly, SameSite=Strict cookie.
 * `memberId` is the team member who signed in (db/team-schema.ts), or null for the owner's password.
 */
export function startAdminSession(c: Context, deps: AppDeps, memberId: number | null = null) {
  const { cookie } = openAdminSession(deps, memberId);
  setCookie(c, COOKIE, cookie, {
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

/** A session by its id, read on every organiser call: built once per database (db/prepared.ts). */
const sessionById = preparedPerDb((db) =>
  db
    .select()
    .from(adminSessions)
    .where(eq(adminSessions.id, sql.placeholder("id")))
    .prepare(),
);

/** The live organiser session the request's cookie names: its id and whose it is; null when none. */
export function adminSessionOf(c: Context, deps: AppDeps): { sessionId: string; person: Person } | null {
  const id = sessionId(c, deps);
  if (!id) return null;
  const session = sessionById(deps.db).get({ id });
  if (session === undefined || session.revokedAt !== null || session.expiresAt <= deps.now()) return null;
  if (session.memberId === null) {
    // The owner's password: a session lives while ADMIN_PASSWORD is the one it was opened with.
    return safeEqual(session.passwordFingerprint, passwordFingerprint(deps.env))
      ? { sessionId: id, person: { kind: "owner" } }
      : null;
  }
  // A member's: read on every call, so removing them ends it at once (docs/decisions/050-the-team.md).
  const member = liveMember(deps.db, session.memberId);
  return member
    ? { sessionId: id, person: { kind: "member", id: member.id, name: member.name, role: member.role } }
    : null;
}

export const isAdmin = (c: Context, deps: AppDeps): boolean => adminSessionOf(c, deps) !== null;

/** What requireAdmin answers, for a route's declared errors: no session (401), a host's or another role's session (403). */
export const ADMIN_ERRORS = ["admin_session_required", "forbidden"] as const;

/**
 * 401 unless the request carries a live organiser session; 403 for a live host session, which opens
 * only the door and the rounds (docs/decisions/022-host-access.md), and for a team member whose role
 * `access` does not name (api/lib/roles.ts). Every route behind it declares its access here, once:
 * the argument is required. Put it before validation: no hints without it. Every answer behind it,
 * the 401 included, is marked no-store. The handler behind it finds the person in `c.var.caller`.
 */
export const requireAdmin =
  (deps: AppDeps, access: Access): MiddlewareHandler<CallerEnv> =>
  async (c, next) => {
    noStore(c);
    const session = adminSessionOf(c, deps);
    if (!session) {
      const host = hostSessionOf(c, deps);
      if (host !== null && host !== "ended") throw Forbidden("a host link does not open this");
      throw Unauthorized();
    }
    assertRole(session.person, ACCESS[access]);
    c.set("caller", { role: "organiser", person: session.person, sessionId: session.sessionId });
    await next();
    // A handler may answer with a Response of its own (a download), which drops headers set before it.
    noStore(c);
  };

/**
 * An organiser-only route with its rule, declared once (docs/decisions/050-the-team.md): requireAdmin
 * for `access` first, then `then` (a form read once), and the route's description gains its **Roles**.
 *
 *     .openapi(adminRoute(deps, refundRoute, "money"), (c) => { … })
 */
export function adminRoute<R extends RouteConfig>(
  deps: AppDeps,
  route: R,
  access: Access,
): R & { middleware: MiddlewareHandler<CallerEnv> };
export function adminRoute<R extends RouteConfig>(
  deps: AppDeps,
  route: R,
  access: Access,
  then: MiddlewareHandler<CallerEnv>,
): R & { middleware: [MiddlewareHandler<CallerEnv>, MiddlewareHandler<CallerEnv>] };
export function adminRoute(deps: AppDeps, route: RouteConfig, access: Access, then?: MiddlewareHandler<CallerEnv>) {
  const guard = requireAdmin(deps, access);
  return { ...withRoles(route, access), middleware: then ? [guard, then] : guard };
}
