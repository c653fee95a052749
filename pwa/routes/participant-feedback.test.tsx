// @vitest-environment happy-dom
import "fake-indexeddb/auto";
import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { IDBFactory } from "fake-indexeddb";
import { MemoryRouter } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { resetTapQueueForTests, whenIdle } from "../features/feedback/tap-queue.ts";
import { YourNight } from "../features/night/components/your-night.tsx";
import type { MyRounds } from "../features/night/my-rounds.ts";
import { resetOfflineDbForTests } from "../lib/offline-db.ts";
import { ParticipantFeedbackPage } from "./participant-feedback.tsx";

const anika = { id: 2, username: "Anika", image_name: "a.jpg" };
const priya = { id: 3, username: "Priya", image_name: "p.jpg" };
const schedule = [
  { round: 1, table: 4, partner: anika },
  { round: 2, table: null, partner: null },
  { round: 3, table: 5, partner: priya },
];
/** The phone's clock is 10 minutes behind the server's: the countdowns must not care. */
const SKEW = 10 * 60_000;

/**
 * The API at the network edge: `night` is what my-rounds answers (its serverNow is stamped at each
 * answer), `offline` fails every call as a dropped connection would, `refuse` answers 403.
 */
function stubApi(initial: Partial<MyRounds>) {
  const server = {
    offline: false,
    refuse: false,
    night: { status: "running", current: 1, phase: "round", phaseEndsAt: null, schedule } as Omit<
      MyRounds,
      "serverNow"
    >,
    /** Seconds left in the phase, counted from each answer. */
    secondsLeft: 250,
    partners: [anika, priya],
    /** Once the results are out: what get-participants adds (ratings closed, the report). */
    closed: null as null | { ratingsClosedAt: string; timeZone: string; reportPath: string },
    calls: [] as string[],
  };
  Object.assign(server.night, initial);
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      server.calls.push(url);
      if (server.offline) throw new TypeError("Failed to fetch");
      if (server.refuse)
        return Response.json({ success: false, error: "bad link", code: "invalid_link" }, { status: 403 });
      if (url === "/api/get-participants") return Response.json({ participants: server.partners, ...server.closed });
      const serverNow = Date.now() + SKEW;
      return Response.json({
        ...server.night,
        serverNow: new Date(serverNow).toISOString(),
        phaseEndsAt: server.night.phase ? new Date(serverNow + server.secondsLeft * 1000).toISOString() : null,
      });
    }),
  );
  return server;
}

const link = { userID: 1, eventID: 7, token: "tok" };

function Night({ pollMs = 40 }: { pollMs?: number }) {
  return (
    <MemoryRouter initialEntries={[`/ParticipantFeedback?par1=${link.userID}&par2=${link.eventID}&t=${link.token}`]}>
      <ParticipantFeedbackPage pollMs={pollMs} />
    </MemoryRouter>
  );
}

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  resetOfflineDbForTests();
  resetTapQueueForTests();
});
afterEach(async () => {
  cleanup();
  await whenIdle();
  resetTapQueueForTests();
  vi.unstubAllGlobals();
});

const timer = () => screen.getByRole("timer").textContent ?? "";

describe("the guest's night on the rating page", () => {
  it("during a round: the round of how many, the table, the partner's name and photo, and the time left", async () => {
    stubApi({});
    render(<Night />);
    await screen.findByRole("heading", { name: "Round 1 of 3" });
    expect(screen.getByText("Table 4")).toBeTruthy();
    const night = screen.getByRole("region", { name: "Round 1 of 3" });
    expect(night.textContent).toContain("With Anika");
    expect(night.querySelector("img")?.getAttribute("src")).toBe("/api/images/a.jpg");
    // 4:10 on the server's clock, though this phone's clock is 10 minutes behind it.
    expect(["4:10", "4:09"]).toContain(timer());
  });

  it("before the start: the first table", async () => {
    stubApi({ status: "planned", current: null, phase: null });
    render(<Night />);
    await screen.findByRole("heading", { name: "The rounds start soon" });
    expect(screen.getByText("Table 4")).toBeTruthy();
    expect(screen.getByText("Round 1 of 3")).toBeTruthy();
    expect(screen.queryByRole("timer")).toBeNull();
  });

  it("after the rounds, asks to rate those met, and tells a guest who sat in no round there is nobody to rate", async () => {
    const server = stubApi({ status: "finished", current: 3, phase: null });
    render(<Night />);
    await screen.findByRole("heading", { name: "The rounds are over" });
    expect(screen.getByText("Rate everyone you met below.")).toBeTruthy();
    cleanup();

    server.night = { ...server.night, schedule: [] };
    server.partners = [];
    render(<Night />);
    await screen.findByText("You didn't meet anyone in the rounds, so there's nobody to rate.");
    expect(screen.queryByText("Rate everyone you met below.")).toBeNull();
  });

  // Issue 46, item 7: after the release the header says ratings are closed, and nothing asks for one.
  it("after the release, says ratings are closed and asks for no rating", async () => {
    const server = stubApi({ status: "finished", current: 3, phase: null });
    server.closed = {
      ratingsClosedAt: "2026-12-01T19:49:00.000Z",
      timeZone: "Australia/Sydney",
      reportPath: "/EventFeedback?par1=1&par2=7&t=r",
    };
    render(<Night />);
    await screen.findByText(/^Ratings closed at .*; your earlier choices stand\.$/);
    await screen.findByRole("heading", { name: "Ratings are closed" });
    expect(screen.queryByRole("heading", { name: "The rounds are over" })).toBeNull();
    expect(screen.queryByText(/Rate everyone/)).toBeNull();
    expect(document.body.textContent).not.toMatch(/\brate\b/i);
  });

  it("says Break this round when this guest sits the round out", async () => {
    stubApi({ current: 2 });
    render(<Night />);
    await screen.findByRole("heading", { name: "Round 2 of 3" });
    expect(screen.getByText("Break this round")).toBeTruthy();
    expect(screen.queryByText(/^Table \d$/)).toBeNull();
  });

  it("follows the host into the changeover: the next table and partner, with a buzz", async () => {
    const server = stubApi({ current: 2 });
    const vibrate = vi.fn(() => true);
    Object.defineProperty(navigator, "vibrate", { value: vibrate, configurable: true });
    onTestFinished(() => {
      Reflect.deleteProperty(navigator, "vibrate");
    });
    render(<Night />);
    await screen.findByText("Break this round");
    expect(vibrate).not.toHaveBeenCalled();

    server.night = { ...server.night, phase: "break" };
    server.secondsLeft = 45;
    await screen.findByText("Next: Table 5");
    expect(screen.getByText("Round 2 of 3 is over")).toBeTruthy();
    expect(screen.getByRole("region", { name: "Change tables" }).textContent).toContain("Next you meet Priya");
    expect(["0:45", "0:44"]).toContain(timer());
    expect(vibrate).toHaveBeenCalledTimes(1);
  });

  it("after a reload with no network, still shows the schedule and the countdown goes on", async () => {
    const server = stubApi({});
    const first = render(<Night />);
    await screen.findByRole("heading", { name: "Round 1 of 3" });
    await waitFor(() => expect(server.calls.filter((c) => c === "/api/my-rounds").length).toBeGreaterThan(1));
    first.unmount();

    server.offline = true;
    const seenAt = Date.now();
    render(<Night />);
    await screen.findByRole("heading", { name: "Round 1 of 3" });
    expect(screen.getByText("Table 4")).toBeTruthy();
    expect(screen.getByText("Offline: showing the last update this phone received.")).toBeTruthy();
    expect(screen.getByText("Round 3: Table 5, Priya")).toBeTruthy();
    // The countdown keeps going from the kept answer: it ticks down, past what it showed at first.
    const shown = timer();
    await waitFor(() => expect(timer()).not.toBe(shown), { timeout: 2_500 });
    const [m, s] = timer().split(":").map(Number);
    expect(m! * 60 + s!).toBeLessThanOrEqual(250 - Math.floor((Date.now() - seenAt) / 1000) + 1);
  });

  it("lists the partners met newest first, and adds a new one when the next round starts", async () => {
    const server = stubApi({ current: 1 });
    server.partners = [anika];
    render(<Night />);
    await screen.findByRole("heading", { name: "Round 1 of 3" });
    await screen.findByRole("heading", { name: "Anika" });

    server.partners = [anika, priya];
    server.night = { ...server.night, current: 3 };
    await screen.findByRole("heading", { name: "Priya" });
    const names = screen.getAllByRole("heading", { level: 2 }).map((h) => h.textContent);
    expect(names.slice(1)).toEqual(["Priya", "Anika"]);
  });

  it("shows nothing of the night for a link the server refuses, leaving the grid to explain", async () => {
    const server = stubApi({});
    server.refuse = true;
    render(<Night />);
    await screen.findByText(/This feedback link isn't valid/);
    await waitFor(() => expect(screen.queryByText("Loading your rounds…")).toBeNull());
    expect(screen.queryByRole("region")).toBeNull();
    expect(screen.getAllByRole("alert")).toHaveLength(1);
  });

  it("says so when offline with nothing kept on this phone", () => {
    render(<YourNight night={{ status: "unavailable", reason: "offline" }} />);
    expect(screen.getByText(/You're offline, and your rounds aren't saved on this phone yet/)).toBeTruthy();
  });
});
