import { describe, expect, it } from "vitest";
import { lastSignInLabel, signInLabel } from "./member-list.tsx";

describe("a team row's words", () => {
  it("says how the member signs in, or that the set-up link is not used yet", () => {
    expect(signInLabel([])).toBe("Not set up yet");
    expect(signInLabel(["passkey"])).toBe("Passkey");
    expect(signInLabel(["totp"])).toBe("Password and authenticator app");
    expect(signInLabel(["passkey", "totp"])).toBe("Passkey, Password and authenticator app");
  });

  it("gives the last sign-in on the owner's own clock, or Never", () => {
    expect(lastSignInLabel(null, "Australia/Sydney")).toBe("Never");
    expect(lastSignInLabel("2025-12-01T08:05:00.000Z", "Australia/Sydney")).toBe("2025-12-01 07:05 PM AEDT");
    expect(lastSignInLabel("2025-12-01T08:05:00.000Z", "Europe/London")).toBe("2025-12-01 08:05 AM GMT");
  });
});
