// @vitest-environment happy-dom
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { useAdminStore } from "../../../lib/admin-store.ts";
import { AdminPanel, SESSION_CHECK_MS } from "./admin-panel.tsx";

// The panel by who is signed in (issue 49): its tabs, the Door link, the header's name and the
// sign-out buttons; and an open panel that learns its session ended. The API is faked at the network
// edge: `session` is what GET /api/admin-session answers, every other read an empty list.

let session: object = { admin: true, member: null };

beforeEach(() => {
  useAdminStore.setState({ status: "checking" });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      const body = url === "/api/admin-session" ? session : [];
      return new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json" } });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const Rounds = () => <p>The rounds console</p>;
const Reports = () => <p>The reports</p>;
const open = () =>
  render(
    <MemoryRouter initialEntries={["/admin"]}>
      <AdminPanel Rounds={Rounds} Reports={Reports} />
    </MemoryRouter>,
  );
const tabs = async () => {
  await screen.findByRole("tablist");
  return screen.getAllByRole("tab").map((t) => t.textContent);
};

describe("the panel by who is signed in", () => {
  it("gives the owner every tab and Team, the Door link, and their Sign out everywhere on the Team tab only", async () => {
    session = { admin: true, member: null };
    open();
    expect(await tabs()).toEqual([
      "Overview",
      "Add Event",
      "Edit Event",
      "User Details",
      "Rounds",
      "Host access",
      "Invite",
      "Reports",
      "Team",
    ]);
    expect(screen.getByText("Owner")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Door" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Sign out" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Sign out everywhere" })).toBeNull();
  });

  it("gives a Door member the Rounds (opened first) and the door, named in the header", async () => {
    session = { admin: true, member: { id: 4, name: "Dev Kumar", role: "door" } };
    open();
    expect(await tabs()).toEqual(["Rounds"]);
    expect(screen.getByText("The rounds console")).toBeTruthy();
    expect(screen.getByText("Dev Kumar (Door)")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Door" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Sign out everywhere" })).toBeTruthy();
  });

  it("gives Finance the Overview, User Details and Reports and no door", async () => {
    session = { admin: true, member: { id: 5, name: "Priya Nair", role: "finance" } };
    open();
    expect(await tabs()).toEqual(["Overview", "User Details", "Reports"]);
    expect(screen.getByText("Priya Nair (Finance)")).toBeTruthy();
    expect(screen.queryByRole("link", { name: "Door" })).toBeNull();
  });

  it("gives a Manager every tab but Team", async () => {
    session = { admin: true, member: { id: 6, name: "Asha Patel", role: "manager" } };
    open();
    expect(await tabs()).not.toContain("Team");
    expect(await tabs()).toContain("Reports");
    expect((await tabs()).length).toBe(8);
  });

  it("shows the sign-in when its session ends while it is open, at the next check", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    session = { admin: true, member: { id: 5, name: "Priya Nair", role: "finance" } };
    open();
    await tabs();
    session = { admin: false, member: null };
    await act(async () => {
      await vi.advanceTimersByTimeAsync(SESSION_CHECK_MS + 100);
    });
    await waitFor(() => expect(screen.getByRole("heading", { name: "Admin login" })).toBeTruthy());
    expect(screen.queryByRole("tablist")).toBeNull();
  });
});
