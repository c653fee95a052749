import type { Browser, BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../db/client.ts";
import { insertEvent, insertPaidBookings } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, newContext, noBrowser, phone, signInAsOrganiser } from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll, waitForServiceWorker } from "./page-checks.ts";
import { openTab } from "./steps.ts";

const HOUR = 3_600_000;

// Host access (docs/decisions/022-host-access.md): the organiser makes a host link on the panel; a
// second phone opens it and gets only that night's Door and Rounds; its check-in shows in the
// organiser's Activity under the link's label; Revoke ends the host's access at its next call.
const test = browserSuite();

describe.skipIf(noBrowser)("host access on two phones", () => {
  let server: AppServer;
  let browser: Browser;
  let organiser: { context: BrowserContext; page: Page; pageErrors: string[] };
  let host: { context: BrowserContext; page: Page; pageErrors: string[] };
  let hostLink = "";

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    const db = openDatabase(`${server.dataDir}/app.db`);
    const uploads = `${server.dataDir}/uploads`;
    const tonight = await insertEvent(db, uploads, {
      name: "Host Night",
      status: "started",
      startsAt: Date.now() - HOUR,
    });
    await insertEvent(db, uploads, { name: "Other Night", startsAt: Date.now() + 7 * 24 * HOUR });
    insertPaidBookings(db, tonight.id, 1, { name: "Priya Sharma", gender: "female" });
    insertPaidBookings(db, tonight.id, 1, { name: "Kabir Singh", gender: "male" });
    insertPaidBookings(db, tonight.id, 1, { name: "Asha Patel", gender: "female" });
    db.$client.close();
    const open = async (device: Parameters<typeof newContext>[2] = phone) => {
      const { context, pageErrors } = await newContext(browser, server.url, device);
      return { context, pageErrors, page: await context.newPage() };
    };
    organiser = await open();
    // The host's phone goes offline and reopens from what its service worker kept.
    host = await open({ ...phone, serviceWorkers: "allow" });
  });

  const pickHostNight = async (page: Page) => {
    const picker = page.getByLabel("Event", { exact: true });
    const options = () => picker.locator("option").allTextContents();
    await expect.poll(async () => (await options()).some((o) => o.includes("Host Night"))).toBe(true);
    await picker.selectOption({ label: (await options()).find((o) => o.includes("Host Night"))! });
  };

  it("lets the organiser make a host link with a label, shown with its QR code", async () => {
    const { page } = organiser;
    await signInAsOrganiser(page, "/admin?tab=host-access");
    await page.getByRole("tab", { name: "Host access" }).waitFor();
    await pickHostNight(page);
    await page.getByRole("heading", { name: "Host access", level: 2 }).waitFor();
    await page.getByText("No host links for this event yet.").waitFor();
    await page.getByLabel("Label", { exact: true }).fill("Door 1");
    await page.getByRole("button", { name: "New host link" }).click();
    await page.getByRole("img", { name: "QR code of the host link for Door 1" }).waitFor();
    hostLink = await page.getByRole("textbox", { name: "Host link" }).inputValue();
    expect(hostLink).toMatch(/\/host\?t=\d+\.[\w-]+$/);
    await page.getByRole("list", { name: "Host links" }).getByText("Door 1").waitFor();
    await expectAccessible(page, "Host access with a new link");
    await expectNoSidewaysScroll(page);
  });

  it("opens the link on a second phone: only Door and Rounds of that event, with its name and the label", async () => {
    const { page } = host;
    const url = new URL(hostLink);
    await page.goto(url.pathname + url.search);
    await page.getByRole("heading", { name: "Host Night", level: 1 }).waitFor();
    await page.getByText("Door 1", { exact: true }).waitFor();
    // The token leaves the address once the phone is signed in.
    await page.waitForURL((u) => u.pathname === "/host" && !u.search.includes("t="));
    const tabs = page.getByRole("tablist", { name: "Host sections" }).getByRole("tab");
    expect(await tabs.allTextContents()).toEqual(["Door", "Rounds"]);
    await page.getByText("Arrived 0 of 3", { exact: true }).waitFor();
    // One event only: no event picker, and the other night is nowhere.
    expect(await page.getByLabel("Event", { exact: true }).count()).toBe(0);
    expect(await page.getByText("Other Night").count()).toBe(0);
    await page.getByText("Arrived 0 of 3", { exact: true }).waitFor();
    await expectAccessible(page, "the host's Door");
    await expectNoSidewaysScroll(page);

    const row = page.getByRole("list", { name: "Attendees" }).getByRole("listitem").filter({ hasText: "Priya Sharma" });
    await row.getByRole("button", { name: "Check in", exact: true }).click();
    await page.getByText("Arrived 1 of 3", { exact: true }).waitFor();
    await page.getByText("All check-ins synced", { exact: true }).waitFor();

    // Offline, the host's phone reopens from what it kept, as the organiser's door does, and queues.
    await waitForServiceWorker(page);
    await host.context.setOffline(true);
    await page.reload();
    await page.getByRole("heading", { name: "Host Night", level: 1 }).waitFor();
    await page.getByText("Showing the list kept on this phone.", { exact: true }).waitFor();
    await page.getByText("Arrived 1 of 3", { exact: true }).waitFor();
    const asha = page.getByRole("list", { name: "Attendees" }).getByRole("listitem").filter({ hasText: "Asha Patel" });
    await asha.getByRole("button", { name: "Check in", exact: true }).click();
    await page.getByText("1 check-in waiting to sync", { exact: true }).waitFor();
    await host.context.setOffline(false);
    await page.getByText("All check-ins synced", { exact: true }).waitFor({ timeout: 30_000 });
    await page.getByText("Arrived 2 of 3", { exact: true }).waitFor();

    await openTab(page, "Rounds");
    await page.getByRole("button", { name: "Plan rounds" }).waitFor();
    await expectAccessible(page, "the host's Rounds");
    await openTab(page, "Door");
    await page.getByText("Arrived 2 of 3", { exact: true }).waitFor();
    // The organiser's panel stays shut to a host.
    expect(await page.evaluate(async () => (await fetch("/api/admin-events")).status)).toBe(403);
    expect(host.pageErrors).toEqual([]);
  });

  it("shows the organiser the host's check-in in Activity, under the host's label", async () => {
    const { page } = organiser;
    const activity = page.getByRole("list", { name: "Activity, newest first" });
    await expect
      .poll(async () => {
        await page.getByRole("button", { name: "Refresh" }).click();
        return activity.getByRole("listitem").filter({ hasText: "check-in" }).allTextContents();
      })
      .toEqual([
        expect.stringMatching(/Door 1 \(host\) · check-in · Asha Patel/),
        expect.stringMatching(/Door 1 \(host\) · check-in · Priya Sharma/),
      ]);
    await activity.getByText(/Organiser · host link created · Door 1/).waitFor();
    await expectAccessible(page, "Activity");
  });

  it("after Revoke, refuses the host's next call and says access ended", async () => {
    const { page } = organiser;
    await page.getByRole("button", { name: "Revoke Door 1" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Revoke" }).click();
    await page.getByText(/^Revoked /).waitFor();

    // The host, still on the Door, checks the next guest in: the server refuses the call. (The door's
    // own 30-second sync may ask first; then that is the call refused, and the tap never happens.)
    const hostPage = host.page;
    const refused = hostPage.waitForResponse((r) => r.url().includes("/api/") && r.status() === 401);
    const row = hostPage
      .getByRole("list", { name: "Attendees" })
      .getByRole("listitem")
      .filter({ hasText: "Kabir Singh" });
    await row
      .getByRole("button", { name: "Check in", exact: true })
      .click({ timeout: 5_000 })
      .catch(() => undefined);
    expect((await refused).status()).toBe(401);
    await hostPage.getByText(/Your host access has ended/).waitFor();
    expect(await hostPage.getByRole("tab", { name: "Door" }).count()).toBe(0);
    // A reload asks again and gets the same answer.
    await hostPage.reload();
    await hostPage.getByText(/Your host access has ended/).waitFor();
    expect(await hostPage.getByRole("tab", { name: "Door" }).count()).toBe(0);
    await expectAccessible(hostPage, "access ended");
    expect(host.pageErrors).toEqual([]);
    expect(organiser.pageErrors).toEqual([]);
  });
});
