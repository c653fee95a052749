import { createHmac, timingSafeEqual } from "node:crypto";

export function hmac(secret: string, purpose: string, value: string): string {
  return createHmac("sha256", secret).update(`${purpose}\n${value}`).digest("base64url");
}

/** Compares two strings in time that does not depend on where they differ. */
export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  if (x.length !== y.length) {
    // Still do the work when lengths differ, so the timing doesn't reveal how close a guess was.
    timingSafeEqual(x, x);
    return false;
  }
  return timingSafeEqual(x, y);
}

/** `value.expiresAtMs.signature`, for cookies that must not be forged or extended. */
export function signValue(secret: string, purpose: string, value: string, expiresAt: number): string {
  const body = `${Buffer.from(value).toString("base64url")}.${expiresAt}`;
  return `${body}.${hmac(secret, purpose, body)}`;
}

export function verifySignedValue(
  secret: string,
  purpose: string,
  token: string | undefined,
  now: number,
): string | null {
  if (!token) return null;
  const parts = token.split(".");
  if (parts.length !== 3) return null;
  const [value, exp, sig] = parts as [string, string, string];
  if (!safeEqual(sig, hmac(secret, purpose, `${value}.${exp}`))) return null;
  if (!/^\d+$/.test(exp) || Number(exp) < now) return null;
  return Buffer.from(value, "base64url").toString();
}
