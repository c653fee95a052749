import { eq } from "drizzle-orm";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../db/client.ts";
import { users } from "../db/schema.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, callsOf, devOutbox, newContext, noBrowser, phone, signInAsOrganiser } from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll, waitForServiceWorker } from "./page-checks.ts";

// The night on the phones (docs/decisions/019-running-the-night.md, 020-rounds-on-the-phones.md):
// a host phone plans and starts the rounds from who was checked in, two guests' phones show their
// table, partner and countdown, follow the host's Next, and keep the schedule through an offline
// reload. Page clocks are moved instead of waiting for the polls.

const test = browserSuite();

describe.skipIf(noBrowser)("the night's rounds on the phones", () => {
  let server: AppServer;
  let browser: Browser;
  let eventId: number;
  const people: Record<string, { userId: number; bookingId: number }> = {};

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser, night }) => {
    server = fileServer;
    browser = fileBrowser;
    // Rounds Night, half an hour away: Anika, Priya, Dev and Arjun paid, each with a photo, and all
    // came (checked in at the door).
    eventId = night.eventId;
    Object.assign(people, night.people);
  });

  /** The start text's link for a guest, as the organiser's Start Event texted it. */
  async function startLink(name: string): Promise<string> {
    const db = openDatabase(`${server.dataDir}/app.db`);
    const phoneOf = db.select().from(users).where(eq(users.id, people[name]!.userId)).get()!.phone;
    db.$client.close();
    const text = (await devOutbox(server.url)).find((m) => m.to === phoneOf && m.body.includes("/ParticipantFeedback"));
    const link = text?.body.match(/https?:\/\/\S+\/ParticipantFeedback\?\S+/)?.[0];
    if (!link) throw new Error(`no start link was texted to ${name}`);
    return new URL(link).pathname + new URL(link).search;
  }

  let host: BrowserContext;
  let hostPage: Page;
  const guests: { context: BrowserContext; page: Page; errors: string[] }[] = [];

  afterAll(async () => {
    await host?.close();
    for (const g of guests) await g.context.close();
  });

  it("the host plans and starts the rounds from who was checked in", async () => {
    ({ context: host } = await newContext(browser, server.url, phone));
    hostPage = await host.newPage();
    await signInAsOrganiser(hostPage, "/admin?tab=rounds");
    // The organiser starts the night (which texts every guest their link), then runs the rounds.
    const started = await callsOf(hostPage.request).post("/api/start-event", { eventId });
    expect(started.status()).toBe(200);

    const picker = hostPage.getByLabel("Event", { exact: true });
    const options = () => picker.locator("option").allTextContents();
    await expect.poll(async () => (await options()).some((o) => o.includes("Rounds Night"))).toBe(true);
    await picker.selectOption({ label: (await options()).find((o) => o.includes("Rounds Night"))! });
    await hostPage.getByText("Present: 2 women, 2 men").waitFor();
    await hostPage.getByRole("button", { name: "Plan rounds", exact: true }).click();
    await hostPage.getByRole("button", { name: "Start rounds", exact: true }).waitFor();
    await expectAccessible(hostPage, "the Rounds console with a plan");
    await hostPage.getByRole("button", { name: "Start rounds", exact: true }).click();
    await hostPage.getByRole("heading", { name: "Round 1 of 2" }).waitFor();
    await hostPage.getByRole("button", { name: "Next", exact: true }).waitFor();
    await expectNoSidewaysScroll(hostPage);
    await expectAccessible(hostPage, "the Rounds console while a round runs");
  });

  it("each guest's phone shows their table, their partner and the time left", async () => {
    for (const name of ["Anika Rao", "Dev Kumar"]) {
      const { context, pageErrors } = await newContext(browser, server.url, { ...phone, serviceWorkers: "allow" });
      // Timers run in real time, but the test can jump the phone's clock instead of waiting for a poll.
      await context.clock.install();
      const page = await context.newPage();
      await page.goto(await startLink(name));
      guests.push({ context, page, errors: pageErrors });
    }
    for (const { page } of guests) {
      await page.getByRole("heading", { name: "Round 1 of 2" }).waitFor();
      await page.getByText(/^Table [12]$/).waitFor();
      await expect.poll(() => page.getByRole("timer").textContent()).toMatch(/\b[0-5]:\d\d\b/);
    }
    // A woman's partner in round 1 is one of the two men, and the other way round.
    await expect.poll(() => guests[0]!.page.locator(".night").textContent()).toMatch(/Dev Kumar|Arjun Shah/);
    await expect.poll(() => guests[1]!.page.locator(".night").textContent()).toMatch(/Anika Rao|Priya Nair/);
    await expectNoSidewaysScroll(guests[0]!.page);
    await expectAccessible(guests[0]!.page, "the guest's night during a round");
  });

  it("follows the host's Next within 10 seconds", async () => {
    await hostPage.getByRole("button", { name: "Next", exact: true }).click();
    await hostPage.getByText("Changeover: movers change tables").first().waitFor();
    for (const { context, page } of guests) {
      // Ten seconds on the phone's clock: two polls' worth.
      await context.clock.fastForward(10_000);
      await page.getByRole("heading", { name: "Change tables" }).waitFor();
      await page.getByText(/^Next: Table [12]$/).waitFor();
    }
    await expectAccessible(guests[0]!.page, "the guest's night during a changeover");
  });

  it("keeps the schedule and the countdown through a reload with no network", async () => {
    const { context, page } = guests[1]!;
    await waitForServiceWorker(page);
    await context.setOffline(true);
    await page.reload();
    await page.getByRole("heading", { name: "Change tables" }).waitFor();
    await page.getByText(/^Next: Table [12]$/).waitFor();
    await page.getByText("Offline: showing the last update this phone received.").waitFor();
    await expect.poll(() => page.getByRole("timer").textContent()).toMatch(/\b\d:\d\d\b/);
    await context.setOffline(false);
    for (const g of guests) expect(g.errors).toEqual([]);
  });
});
