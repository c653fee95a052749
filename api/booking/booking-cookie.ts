import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { AppDeps } from "../deps.ts";
import { hmac, safeEqual } from "../lib/crypto.ts";

export const COOKIE = "sdt_phone";
const PURPOSE = "verified-phone";
const LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * The cookie's value: `expiresAt.HMAC(phone, expiresAt)`. Opaque: the number is not in it, in any
 * encoding, so a browser, its extensions or a log that sees the cookie learn nothing (issue 46).
 * Every reader already has the number it asks about (the request names it), so the server checks
 * the signature against that number instead of reading one back. Cookies of the old form (the
 * number in base64) are refused: their browsers verify once more.
 */
export function verifiedPhoneToken(secret: string, phone: string, expiresAt: number): string {
  return `${expiresAt}.${hmac(secret, PURPOSE, `${phone}\n${expiresAt}`)}`;
}

function provesPhone(secret: string, token: string | undefined, phone: string, now: number): boolean {
  const match = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(token ?? "");
  if (!match) return false;
  const expiresAt = Number(match[1]);
  return safeEqual(match[2] ?? "", hmac(secret, PURPOSE, `${phone}\n${expiresAt}`)) && expiresAt >= now;
}

/**
 * Records in this browser that it proved it holds `phone` (E.164). It is the only thing that lets
 * send-otp skip a code and save-user-details accept a phone: a number alone never does.
 */
export function rememberVerifiedPhone(c: Context, deps: AppDeps, phone: string) {
  setCookie(c, COOKIE, verifiedPhoneToken(deps.env.SESSION_SECRET, phone, deps.now() + LIFETIME_MS), {
    httpOnly: true,
    sameSite: "Lax",
    secure: deps.env.PUBLIC_BASE_URL.startsWith("https://"),
    path: "/",
    maxAge: LIFETIME_MS / 1000,
  });
}

/** True when this browser's cookie is genuine, unexpired and was issued for this phone. */
export function browserVerified(c: Context, deps: AppDeps, phone: string): boolean {
  return provesPhone(deps.env.SESSION_SECRET, getCookie(c, COOKIE), phone, deps.now());
}
