import { describe, expect, it } from "vitest";
import { INVALID_CREDENTIALS, signInOutcome } from "./admin-session.ts";

const refused = (status: number, code: string, extra: object = {}) => ({
  ok: false as const,
  status,
  data: { success: false, error: "words that may change", code, ...extra },
});

describe("what a sign-in's answer means for the modal", () => {
  it("is in on 200", () => {
    expect(signInOutcome({ ok: true, status: 200, data: { success: true } })).toEqual({ kind: "signed-in" });
  });

  it("asks for the code when the owner's password needs a second factor", () => {
    expect(signInOutcome(refused(401, "second_factor_required"))).toEqual({
      kind: "code-needed",
      text: "Enter the code from your authenticator app or a recovery code, or sign in with a passkey.",
    });
  });

  it("says the spec's words for a wrong password, email or code", () => {
    expect(signInOutcome(refused(401, "invalid_credentials"))).toEqual({ kind: "refused", text: INVALID_CREDENTIALS });
    expect(INVALID_CREDENTIALS).toBe("Invalid credentials. Please try again.");
  });

  it("says a locked account waits its 15 minutes", () => {
    expect(signInOutcome(refused(429, "account_locked"))).toEqual({
      kind: "refused",
      text: INVALID_CREDENTIALS,
      detail: "This account is locked after too many wrong passwords or codes. Wait 15 minutes before trying again.",
    });
  });

  it("keeps today's words when too many tries came from this network", () => {
    expect(signInOutcome(refused(429, "rate_limited"))).toEqual({
      kind: "refused",
      text: INVALID_CREDENTIALS,
      detail: "Too many failed attempts. Wait 15 minutes before trying again.",
    });
  });
});
