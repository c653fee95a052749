import type { Context } from "hono";
import { getCookie, setCookie } from "hono/cookie";
import type { AppDeps } from "../deps.ts";
import { signValue, verifySignedValue } from "../lib/crypto.ts";

const COOKIE = "sdt_phone";
const PURPOSE = "verified-phone";
const LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Records in this browser that it proved it holds `phone` (E.164). It is the only thing that lets
 * send-otp skip a code and save-user-details accept a phone: a number alone never does.
 */
export function rememberVerifiedPhone(c: Context, deps: AppDeps, phone: string) {
  setCookie(c, COOKIE, signValue(deps.env.SESSION_SECRET, PURPOSE, phone, deps.now() + LIFETIME_MS), {
    httpOnly: true,
    sameSite: "Lax",
    secure: deps.env.PUBLIC_BASE_URL.startsWith("https://"),
    path: "/",
    maxAge: LIFETIME_MS / 1000,
  });
}

/** True when this browser's cookie is genuine, unexpired and names this phone. */
export function browserVerified(c: Context, deps: AppDeps, phone: string): boolean {
  return verifySignedValue(deps.env.SESSION_SECRET, PURPOSE, getCookie(c, COOKIE), deps.now()) === phone;
}
