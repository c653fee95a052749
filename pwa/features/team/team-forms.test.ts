import { describe, expect, it } from "vitest";
import {
  codeError,
  EMAIL_TAKEN,
  memberErrors,
  NAME_MAX,
  PASSWORD_MIN,
  passwordErrors,
  totpCode,
} from "./team-forms.ts";

describe("Add member's fields", () => {
  it("sends a name, an email and a role", () => {
    expect(memberErrors({ name: " Priya Nair ", email: "priya@example.com ", role: "finance" })).toEqual({});
  });

  it("names every missing field, each beside its own", () => {
    expect(memberErrors({ name: " ", email: "", role: "" })).toEqual({
      name: "Enter the person's name.",
      email: "Enter the email their set-up link goes to.",
      role: "Choose what they may do: Manager, Finance or Door.",
    });
  });

  it("refuses an email that is not one, and a name too long", () => {
    for (const email of ["priya", "priya@", "@example.com", "priya@example", "pri ya@example.com"]) {
      expect(memberErrors({ name: "Priya", email, role: "door" }).email).toBe("Enter an email like priya@example.com.");
    }
    expect(memberErrors({ name: "x".repeat(NAME_MAX + 1), email: "p@example.com", role: "door" }).name).toBe(
      `Keep the name to ${NAME_MAX} characters.`,
    );
    expect(EMAIL_TAKEN).toBe("Someone on the team already has this email.");
  });
});

describe("the set-up page's fields", () => {
  it("asks for a long enough password, typed the same twice", () => {
    expect(passwordErrors("short", "short")).toEqual({ password: `Use at least ${PASSWORD_MIN} characters.` });
    expect(passwordErrors("a long enough one", "a long enough 1")).toEqual({
      confirm: "The two passwords are not the same.",
    });
    expect(passwordErrors("a long enough one", "a long enough one")).toEqual({});
  });

  it("reads an authenticator code typed with spaces, and refuses anything but six digits", () => {
    expect(totpCode("123 456")).toBe("123456");
    expect(totpCode(" 123-456 ")).toBe("123456");
    for (const bad of ["12345", "1234567", "12a456", ""]) expect(totpCode(bad)).toBeNull();
    expect(codeError("12345")).toBe("Enter the 6 digits your authenticator app shows.");
    expect(codeError("654321")).toBeUndefined();
  });
});
