import { randomBytes } from "node:crypto";
import { and, eq, gt, isNotNull, isNull, lte, or } from "drizzle-orm";
import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { guestSessions } from "../../db/access-schema.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import type { AppDeps } from "../deps.ts";
import { noStore } from "./admin-session.ts";
import { signValue, verifySignedValue } from "./crypto.ts";
import { Unauthorized } from "./errors.ts";

// A guest's session on /me (docs/decisions/027-guest-identity.md): a row in guest_sessions naming the
// verified mobile, opened only by a one-time code typed in this browser just now (verify-otp with
// `signIn`). The cookie carries the row's random id, signed like the admin's and the host's, so a
// guessed or tampered cookie costs no database read; every call reads the row, so Sign out ends the
// session for every copy of the cookie.
export const COOKIE = "sdt_me";
const PURPOSE = "guest-session";
export const GUEST_SESSION_MS = 30 * 24 * 60 * 60 * 1000;

/** Who is signed in on /me: the verified mobile (E.164) and the session's row. */
export type Guest = { phone: string; sessionId: string };

/** What requireGuest adds to a route: `c.var.guest`. A handler without it cannot name a guest. */
export type GuestEnv = { Variables: { guest: Guest } };

function cookieSessionId(c: Context, deps: AppDeps): string | null {
  return verifySignedValue(deps.env.SESSION_SECRET, PURPOSE, getCookie(c, COOKIE), deps.now());
}

/**
 * Signs this browser in as `phone` for GUEST_SESSION_MS. A session this browser held before (another
 * number, or the same) ends first: one browser, one guest.
 */
export function startGuestSession(c: Context, deps: AppDeps, phone: string) {
  const now = deps.now();
  const previous = cookieSessionId(c, deps);
  const id = randomBytes(32).toString("base64url");
  const expiresAt = now + GUEST_SESSION_MS;
  deps.db.transaction((tx) => {
    if (previous) tx.update(guestSessions).set({ revokedAt: now }).where(eq(guestSessions.id, previous)).run();
    tx.insert(guestSessions).values({ id, phone, createdAt: now, expiresAt }).run();
  });
  setCookie(c, COOKIE, signValue(deps.env.SESSION_SECRET, PURPOSE, id, expiresAt), {
    httpOnly: true,
    // Lax, as the booking's sdt_phone: /me opened from a text message's link is still signed in.
    sameSite: "Lax",
    secure: deps.env.PUBLIC_BASE_URL.startsWith("https://"),
    path: "/",
    maxAge: GUEST_SESSION_MS / 1000,
  });
}

/** The request's live guest session, or null (none, forged, expired, signed out). */
export function guestSessionOf(c: Context, deps: AppDeps): Guest | null {
  const id = cookieSessionId(c, deps);
  if (!id) return null;
  const row = deps.db
    .select({ phone: guestSessions.phone })
    .from(guestSessions)
    .where(and(eq(guestSessions.id, id), isNull(guestSessions.revokedAt), gt(guestSessions.expiresAt, deps.now())))
    .get();
  return row ? { phone: row.phone, sessionId: id } : null;
}

/** Sign out: ends the session on the server, so a copy of the cookie stops working too, and drops it. */
export function endGuestSession(c: Context, deps: AppDeps) {
  const id = cookieSessionId(c, deps);
  if (id) {
    deps.db
      .update(guestSessions)
      .set({ revokedAt: deps.now() })
      .where(and(eq(guestSessions.id, id), isNull(guestSessions.revokedAt)))
      .run();
  }
  deleteCookie(c, COOKIE, { path: "/" });
}

/** Ends every session of `phone`, on every browser (a guest erasing their details). */
export function endGuestSessionsOf(db: DbOrTx, phone: string, now: number): number {
  return db
    .update(guestSessions)
    .set({ revokedAt: now })
    .where(and(eq(guestSessions.phone, phone), isNull(guestSessions.revokedAt)))
    .run().changes;
}

/** Sessions that can never open anything again (signed out or past their end); the retention job's. */
export function deleteDeadGuestSessions(db: Db, now: number): number {
  return db
    .delete(guestSessions)
    .where(or(isNotNull(guestSessions.revokedAt), lte(guestSessions.expiresAt, now)))
    .run().changes;
}

/**
 * 401 `guest_session_required` unless the request carries a live guest session; the handler finds
 * the guest in `c.var.guest`. Every answer behind it is no-store: it is one person's own data.
 */
export const requireGuest =
  (deps: AppDeps): MiddlewareHandler<GuestEnv> =>
  async (c, next) => {
    noStore(c);
    const guest = guestSessionOf(c, deps);
    if (!guest) throw Unauthorized("sign in with your mobile number first", "guest_session_required");
    c.set("guest", guest);
    await next();
    noStore(c);
  };
