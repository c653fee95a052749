import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { AppDeps } from "../deps.ts";
import { findHostSession, type HostSession, openHostSession } from "../organiser/host-links.ts";
import { clientAddress } from "./client-address.ts";
import { signValue, verifySignedValue } from "./crypto.ts";

// A host session is a row in host_sessions, tied to its host link; the cookie carries its random id,
// signed like the admin's (docs/decisions/022-host-access.md). Revoking the link ends the session for
// every copy of the cookie, because every call reads the row and its link.
export const COOKIE = "sdt_host";
const PURPOSE = "host-session";

/** Signs the phone in with a host link's token: the same cookie rules as the admin's session. */
export function startHostSession(c: Context, deps: AppDeps, token: unknown) {
  const now = deps.now();
  const { sessionId, link } = openHostSession(deps, token, clientAddress(c), now);
  setCookie(c, COOKIE, signValue(deps.env.SESSION_SECRET, PURPOSE, sessionId, link.expiresAt), {
    httpOnly: true,
    sameSite: "Strict",
    secure: deps.env.PUBLIC_BASE_URL.startsWith("https://"),
    path: "/",
    maxAge: Math.max(1, Math.floor((link.expiresAt - now) / 1000)),
  });
  return link;
}

/**
 * The request's host session: the live session, "ended" when the phone holds a host cookie whose
 * access is over (revoked, expired), or null when it holds none.
 */
export function hostSessionOf(c: Context, deps: AppDeps): HostSession | "ended" | null {
  const cookie = getCookie(c, COOKIE);
  if (!cookie) return null;
  const id = verifySignedValue(deps.env.SESSION_SECRET, PURPOSE, cookie, deps.now());
  if (!id) return "ended";
  return findHostSession(deps.db, id, deps.now()) ?? "ended";
}
