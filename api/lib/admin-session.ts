import type { Context, MiddlewareHandler } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { AppDeps } from "../deps.ts";
import { signValue, verifySignedValue } from "./crypto.ts";
import { Unauthorized } from "./errors.ts";

const COOKIE = "sdt_admin";
const PURPOSE = "admin-session";
const LIFETIME_MS = 12 * 60 * 60 * 1000;

/** Starts an admin session after a correct password: a signed, HttpOnly, SameSite=Strict cookie. */
export function startAdminSession(c: Context, deps: AppDeps) {
  const expiresAt = deps.now() + LIFETIME_MS;
  setCookie(c, COOKIE, signValue(deps.env.SESSION_SECRET, PURPOSE, "admin", expiresAt), {
    httpOnly: true,
    sameSite: "Strict",
    secure: deps.env.PUBLIC_BASE_URL.startsWith("https://"),
    path: "/",
    maxAge: LIFETIME_MS / 1000,
  });
}

export function endAdminSession(c: Context) {
  deleteCookie(c, COOKIE, { path: "/" });
}

export function isAdmin(c: Context, deps: AppDeps): boolean {
  return verifySignedValue(deps.env.SESSION_SECRET, PURPOSE, getCookie(c, COOKIE), deps.now()) === "admin";
}

/** 401 unless the request carries a live admin session. Put it before validation: no hints without it. */
export const requireAdmin =
  (deps: AppDeps): MiddlewareHandler =>
  async (c, next) => {
    if (!isAdmin(c, deps)) throw Unauthorized();
    await next();
  };
