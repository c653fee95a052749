import { authenticator } from "otplib";

// Codes from an authenticator app (RFC 6238 TOTP: 6 digits, 30-second steps, SHA-1, as every app
// reads an otpauth:// link), through otplib (docs/decisions/050-the-team.md). The clock is the app's
// (`deps.now`), so tests move it.

export const TOTP_STEP_MS = 30_000;

/** A new base32 secret (20 bytes, as the apps expect). */
export const newTotpSecret = (): string => authenticator.generateSecret(20);

/** The link an authenticator app scans: `otpauth://totp/{issuer}:{account}?secret=…&issuer=…`. */
export const otpauthUri = (secret: string, account: string, issuer: string): string =>
  authenticator.keyuri(account, issuer, secret);

/** The code an app shows at `now` (tests, and nothing else, need it). */
export const totpCode = (secret: string, now: number): string => authenticator.clone({ epoch: now }).generate(secret);

const stepOf = (now: number) => Math.floor(now / TOTP_STEP_MS);

/**
 * The time step `code` belongs to, within one step either side of `now` (a phone's clock a little
 * off, a code typed as it turned over), or null. A step not later than `lastStep` is refused: a
 * code is good once, even inside its window.
 */
export function acceptedTotpStep(secret: string, code: string, now: number, lastStep: number | null): number | null {
  const digits = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(digits)) return null;
  let delta: number | null;
  try {
    delta = authenticator.clone({ epoch: now, window: 1 }).checkDelta(digits, secret);
  } catch {
    return null;
  }
  if (delta === null) return null;
  const step = stepOf(now) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}
