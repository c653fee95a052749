import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { feedbackToken } from "../api/lib/capability.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, callsOf, desktop, newContext, noBrowser, phone, signInAsOrganiser } from "./harness.ts";
import { checkedInNight } from "./steps.ts";

// Issue 38, part 3: the room in step. A guest's phone follows Next, Announce and Next again from the
// room's stream alone: once the phone has shown its night, every read of its round view is refused,
// so no poll can be what moved it. The room's screen follows the same taps.

const env = { SESSION_SECRET: "e2e-secret-e2e-secret-e2e-secret-012345" };

const test = browserSuite();

describe.skipIf(noBrowser)("the room's stream", () => {
  let server: AppServer;
  let browser: Browser;
  let eventId: number;
  let guest: { userId: number };

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    ({ eventId, guest } = await checkedInNight(server, "Stream Night"));
  });

  it("moves a guest's phone on Next and Announce with every poll refused, and the room's screen with it", async () => {
    const { context, pageErrors } = await newContext(browser, server.url, desktop);
    const host = await context.newPage();
    await signInAsOrganiser(host, "/admin?tab=rounds");
    const tap = async (path: string, data: Record<string, unknown>) =>
      expect((await callsOf(host.request).post(path, data)).status()).toBe(200);
    await tap("/api/start-event", { eventId });
    await tap("/api/plan-rounds", { eventID: eventId });
    await tap("/api/run-rounds", { eventID: eventId, action: "start" });

    // The guest's phone shows round 1, from the server, with its stream open.
    const guestContext = await newContext(browser, server.url, phone);
    const guestPage = await guestContext.context.newPage();
    const streamOpened = guestPage.waitForResponse((r) => r.url().includes("/api/round-events") && r.status() === 200);
    const t = feedbackToken(env, "start", guest.userId, eventId);
    await guestPage.goto(`/ParticipantFeedback?par1=${guest.userId}&par2=${eventId}&t=${t}`);
    await guestPage.getByRole("heading", { name: "Round 1 of 2" }).waitFor();
    await streamOpened;

    // From here on the phone cannot read its round view at all: only the stream can move it.
    await guestContext.context.route("**/api/my-rounds", (route) => route.abort());

    // The room's screen, on the host's laptop.
    const picker = host.getByLabel("Event", { exact: true });
    await expect
      .poll(async () => (await picker.locator("option").allTextContents()).some((o) => o.includes("Stream Night")))
      .toBe(true);
    await picker.selectOption({
      label: (await picker.locator("option").allTextContents()).find((o) => o.includes("Stream Night"))!,
    });
    await host.getByRole("button", { name: "Full screen", exact: true }).click();
    await host.getByRole("dialog", { name: "Round clock" }).getByText("Round 1 of 2").waitFor();

    await tap("/api/run-rounds", { eventID: eventId, action: "next", current: 1, phase: "round" });
    await guestPage.getByRole("heading", { name: "Change tables" }).waitFor();
    await host.getByRole("dialog", { name: "Break" }).getByText("Round 2 starts in").waitFor();

    await tap("/api/room-announcement", { eventID: eventId, text: "Water is on the bar" });
    await guestPage.getByText("Water is on the bar").waitFor();
    await host.getByRole("dialog", { name: "Break" }).getByText("Water is on the bar").waitFor();

    await tap("/api/run-rounds", { eventID: eventId, action: "next", current: 1, phase: "break" });
    await guestPage.getByRole("heading", { name: "Round 2 of 2" }).waitFor();
    await host.getByRole("dialog", { name: "Round clock" }).getByText("Round 2 of 2").waitFor();

    expect([...pageErrors, ...guestContext.pageErrors]).toEqual([]);
    await guestContext.context.close();
    await context.close();
  });
});
