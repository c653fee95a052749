import { describe, expect, it } from "vitest";
import { yearLike } from "../../test/clock.ts";
import { decryptSecret, encryptSecret, hashPassword, verifyPassword } from "./crypto.ts";
import { acceptedTotpStep, newTotpSecret, TOTP_STEP_MS, totpCode } from "./totp.ts";

// TOTP with a moved clock (issue 49): ±1 step, a step used once; the secret encrypted at rest with a
// key from SESSION_SECRET; passwords hashed with scrypt (docs/decisions/050-the-team.md).

const SECRET = "test-secret-test-secret-test-secret-0123";
// The middle of a step, far from any edge: 4 March 05:06:15 UTC of a year ahead.
const T = Date.UTC(yearLike(2031), 2, 4, 5, 6, 15);
const step = Math.floor(T / TOTP_STEP_MS);

describe("an authenticator code", () => {
  const secret = newTotpSecret();

  it("is taken in its own step and one step either side, and refused two steps away", () => {
    for (const [offset, accepted] of [
      [0, true],
      [-1, true],
      [1, true],
      [-2, false],
      [2, false],
    ] as const) {
      const code = totpCode(secret, T + offset * TOTP_STEP_MS);
      expect(acceptedTotpStep(secret, code, T, null), `${offset} steps`).toBe(accepted ? step + offset : null);
    }
  });

  it("is taken at the very edges of the window: the first millisecond of the step before, the last of the step after", () => {
    const start = step * TOTP_STEP_MS;
    expect(acceptedTotpStep(secret, totpCode(secret, start - TOTP_STEP_MS), start, null)).toBe(step - 1);
    expect(acceptedTotpStep(secret, totpCode(secret, start + 2 * TOTP_STEP_MS - 1), start, null)).toBe(step + 1);
    expect(acceptedTotpStep(secret, totpCode(secret, start - TOTP_STEP_MS - 1), start, null)).toBeNull();
    expect(acceptedTotpStep(secret, totpCode(secret, start + 2 * TOTP_STEP_MS), start, null)).toBeNull();
  });

  it("is refused when its step is not later than the last one used (a code used twice)", () => {
    const code = totpCode(secret, T);
    expect(acceptedTotpStep(secret, code, T, step - 1)).toBe(step);
    expect(acceptedTotpStep(secret, code, T, step)).toBeNull();
    // Nor may an older code in the window come after a newer one.
    expect(acceptedTotpStep(secret, totpCode(secret, T - TOTP_STEP_MS), T, step)).toBeNull();
    expect(acceptedTotpStep(secret, totpCode(secret, T + TOTP_STEP_MS), T, step)).toBe(step + 1);
  });

  it("is refused when it is not six digits, or from another secret", () => {
    for (const bad of ["", "12345", "1234567", "abcdef", "12 34 5"]) {
      expect(acceptedTotpStep(secret, bad, T, null), bad).toBeNull();
    }
    expect(acceptedTotpStep(newTotpSecret(), totpCode(secret, T), T, null)).toBeNull();
  });
});

describe("secrets at rest", () => {
  it("an encrypted secret reads back only with the same SESSION_SECRET, and never holds the plain text", () => {
    const sealed = encryptSecret(SECRET, "JBSWY3DPEHPK3PXP");
    expect(sealed).not.toContain("JBSWY3DPEHPK3PXP");
    expect(encryptSecret(SECRET, "JBSWY3DPEHPK3PXP")).not.toBe(sealed);
    expect(decryptSecret(SECRET, sealed)).toBe("JBSWY3DPEHPK3PXP");
    expect(decryptSecret(`${SECRET}x`, sealed)).toBeNull();
    expect(decryptSecret(SECRET, `${sealed.slice(0, -2)}AA`)).toBeNull();
    expect(decryptSecret(SECRET, null)).toBeNull();
  });

  it("a password hash is scrypt's, salted, and checks only the same password", async () => {
    const hash = await hashPassword("a long enough passphrase");
    expect(hash).toMatch(/^scrypt\$32768\$8\$1\$[\w-]+\$[\w-]+$/);
    expect(await hashPassword("a long enough passphrase")).not.toBe(hash);
    expect(await verifyPassword("a long enough passphrase", hash)).toBe(true);
    expect(await verifyPassword("a long enough passphrasE", hash)).toBe(false);
    expect(await verifyPassword("a long enough passphrase", null)).toBe(false);
    expect(await verifyPassword("a long enough passphrase", "scrypt$bad")).toBe(false);
  });
});
