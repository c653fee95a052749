import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { feedbackToken } from "../api/lib/capability.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, callsOf, desktop, newContext, noBrowser, phone, signInAsOrganiser } from "./harness.ts";
import { expectAccessible } from "./page-checks.ts";
import { checkedInNight } from "./steps.ts";

// Issue 37 at 1366 px: the Rounds tab's Full screen as the room's screen. The host announces a line;
// the screen shows it under the round, a guest's phone shows it too, and at the changeover the screen
// turns into a break card that says when the next round starts, the line still on it.

const env = { SESSION_SECRET: "e2e-secret-e2e-secret-e2e-secret-012345" };

const test = browserSuite();

describe.skipIf(noBrowser)("the room's screen", () => {
  let server: AppServer;
  let browser: Browser;
  let eventId: number;
  let guest: { userId: number };

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    ({ eventId, guest } = await checkedInNight(server, "Screen Night"));
  });

  it("shows the round, the clock and the host's announcement, then a break card at the changeover", async () => {
    const { context, pageErrors } = await newContext(browser, server.url, desktop);
    const page = await context.newPage();
    await signInAsOrganiser(page, "/admin?tab=rounds");
    expect((await callsOf(page.request).post("/api/start-event", { eventId })).status()).toBe(200);
    const picker = page.getByLabel("Event", { exact: true });
    await expect
      .poll(async () => (await picker.locator("option").allTextContents()).some((o) => o.includes("Screen Night")))
      .toBe(true);
    await picker.selectOption({
      label: (await picker.locator("option").allTextContents()).find((o) => o.includes("Screen Night"))!,
    });
    await page.getByRole("button", { name: "Plan rounds", exact: true }).click();
    await page.getByRole("button", { name: "Start rounds", exact: true }).click();
    await page.getByRole("heading", { name: "Round 1 of 2" }).waitFor();

    await page.getByLabel("Announcement for the room (until the next round)").fill("Drinks are on the bar");
    await page.getByRole("button", { name: "Announce", exact: true }).click();
    await page.getByText("On the screen and the phones: Drinks are on the bar").waitFor();
    await expectAccessible(page, "the Rounds console with an announcement");

    // A guest's phone shows it in their round view.
    const phoneContext = await newContext(browser, server.url, phone);
    const guestPage = await phoneContext.context.newPage();
    const t = feedbackToken(env, "start", guest.userId, eventId);
    await guestPage.goto(`/ParticipantFeedback?par1=${guest.userId}&par2=${eventId}&t=${t}`);
    await guestPage.getByText("Drinks are on the bar").waitFor();
    await guestPage.getByRole("heading", { name: "Round 1 of 2" }).waitFor();

    // The room's screen.
    await page.getByRole("button", { name: "Full screen", exact: true }).click();
    const screen = page.getByRole("dialog", { name: "Round clock" });
    await screen.getByText("Round 1 of 2").waitFor();
    await screen.getByText("Drinks are on the bar").waitFor();
    await expect.poll(() => screen.locator(".rounds-fs-time").textContent()).toMatch(/^\d+:\d\d$/);
    await expectAccessible(page, "the room's screen during a round");

    // Next, from the console behind the screen (the host's other window in a real room).
    expect((await callsOf(page.request).post("/api/run-rounds", { eventID: eventId, action: "next" })).status()).toBe(
      200,
    );
    const breakCard = page.getByRole("dialog", { name: "Break" });
    await breakCard.getByText("Break", { exact: true }).waitFor();
    await breakCard.getByText("Round 2 starts in").waitFor();
    await breakCard.getByText("Drinks are on the bar").waitFor();
    await expectAccessible(page, "the room's screen at the changeover");

    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Full screen", exact: true }).waitFor();
    expect([...pageErrors, ...phoneContext.pageErrors]).toEqual([]);
    await phoneContext.context.close();
    await context.close();
  });
});
