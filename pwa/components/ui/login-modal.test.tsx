// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useAdminStore } from "../../lib/admin-store.ts";
import { LoginModal } from "./login-modal.tsx";

// The sign-in modal (issue 49): the owner's password as it always was, a team member's email,
// password and code, and the owner's code asked when the password needs a second factor. The API is
// faked at the network edge: each call's body is recorded and answered from `answers`.

type Answer = { status: number; body: object };
let calls: { url: string; body: Record<string, unknown> }[] = [];
let answers: Answer[] = [];

beforeEach(() => {
  calls = [];
  answers = [];
  useAdminStore.setState({ status: "locked" });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ url, body: JSON.parse(String(init?.body ?? "{}")) });
      const answer = answers.shift() ?? { status: 500, body: {} };
      return new Response(JSON.stringify(answer.body), {
        status: answer.status,
        headers: { "content-type": "application/json" },
      });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const open = () =>
  render(
    <MemoryRouter>
      <LoginModal />
    </MemoryRouter>,
  );
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });
const submit = () => fireEvent.click(screen.getByRole("button", { name: "Submit" }));
const refusal = (status: number, code: string) => ({ status, body: { success: false, error: "x", code } });

describe("the sign-in modal", () => {
  it("opens as it always did: the password alone, and 200 unlocks", async () => {
    open();
    expect(screen.getByRole("heading", { name: "Admin login" })).toBeTruthy();
    expect(screen.queryByLabelText("Email")).toBeNull();
    expect(screen.queryByLabelText("Code")).toBeNull();
    answers.push({ status: 200, body: { success: true } });
    type("Password", "the password");
    submit();
    await waitFor(() => expect(useAdminStore.getState().status).toBe("unlocked"));
    expect(calls).toEqual([{ url: "/api/admin-login", body: { password: "the password" } }]);
  });

  it("asks the owner for a code after second_factor_required, keeping the password", async () => {
    open();
    answers.push(refusal(401, "second_factor_required"));
    type("Password", "the password");
    submit();
    await screen.findByText(/Enter the code from your authenticator app/);
    expect(screen.getByRole("status").textContent).toContain("recovery code");
    await waitFor(() => expect(document.activeElement?.id).toBe("admin-code"));
    expect((screen.getByLabelText("Password") as HTMLInputElement).value).toBe("the password");
    answers.push({ status: 200, body: { success: true } });
    type("Code", " 123456 ");
    submit();
    await waitFor(() => expect(useAdminStore.getState().status).toBe("unlocked"));
    expect(calls[1]).toEqual({ url: "/api/admin-login", body: { password: "the password", code: "123456" } });
  });

  it("signs a team member in with their email, password and code", async () => {
    open();
    fireEvent.click(screen.getByRole("button", { name: "Sign in as a team member" }));
    expect(screen.getByRole("heading", { name: "Team sign-in" })).toBeTruthy();
    await waitFor(() => expect(document.activeElement?.id).toBe("admin-email"));
    answers.push(refusal(401, "invalid_credentials"));
    type("Email", " priya@example.com ");
    type("Password", "wrong one");
    type("Code", "000000");
    submit();
    await screen.findByText("Invalid credentials. Please try again.");
    expect(screen.getByRole("alert")).toBeTruthy();
    expect((screen.getByLabelText("Password") as HTMLInputElement).value).toBe("");
    expect(calls[0]).toEqual({
      url: "/api/team-login",
      body: { email: "priya@example.com", password: "wrong one", code: "000000" },
    });
  });

  it("says a locked account waits", async () => {
    open();
    fireEvent.click(screen.getByRole("button", { name: "Sign in as a team member" }));
    answers.push(refusal(429, "account_locked"));
    type("Email", "priya@example.com");
    type("Password", "wrong again");
    type("Code", "111111");
    submit();
    await screen.findByText(/This account is locked after too many wrong passwords or codes\. Wait 15 minutes/);
    expect(useAdminStore.getState().status).toBe("locked");
  });
});
