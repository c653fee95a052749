import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { recordActivity } from "../api/organiser/activity.ts";
import { openDatabase } from "../db/client.ts";
import { waitlistEntries } from "../db/schema.ts";
import { insertEvent, insertPaidBookings } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import {
  type AppServer,
  desktop,
  devOutbox,
  newContext,
  noBrowser,
  phone,
  signInAsOrganiser,
  verifyPhone,
} from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks.ts";
import { openTab, organiserCookie } from "./steps.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

// The organiser's Activity at 1366 px: people named, the host's kind shown, older entries a page
// away (docs/decisions/022-host-access.md); the waitlist kept as "Closed at the start" once sales
// close (docs/decisions/015-balanced-rooms-and-waitlist.md); and on a 390 px phone, the waitlist form
// naming the full side and the booking page opening at its heading.
const test = browserSuite();

describe.skipIf(noBrowser)("activity, the waitlist at the start, and the booking page's first words", () => {
  let server: AppServer;
  let browser: Browser;
  let startingId = 0;

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    const db = openDatabase(`${server.dataDir}/app.db`);
    const uploads = `${server.dataDir}/uploads`;
    const night = await insertEvent(db, uploads, {
      name: "Logged Night",
      status: "started",
      startsAt: Date.now() - HOUR,
    });
    const [imran] = insertPaidBookings(db, night.id, 1, { name: "Imran Ali", gender: "male" });
    const [kavya] = insertPaidBookings(db, night.id, 1, { name: "Kavya Rao", gender: "female" });
    // The paper card is the oldest entry, 60 check-ins later: it sits on the second page.
    const start = Date.now() - 2 * HOUR;
    recordActivity(
      db,
      {
        actor: "Door 1",
        actorKind: "host",
        action: "paper card entered",
        eventId: night.id,
        userId: imran!.userId,
        otherUserId: kavya!.userId,
        detail: "like",
      },
      start,
    );
    for (let i = 0; i < 60; i++) {
      recordActivity(
        db,
        { actor: "Door 1", action: "rounds controlled", eventId: night.id, detail: `step ${i + 1}` },
        start + (i + 1) * MINUTE,
      );
    }
    // Sales close on this one during the test, with two people still in line.
    const starting = await insertEvent(db, uploads, {
      name: "Starting Soiree",
      startsAt: Date.now() + 2 * HOUR,
      totalSeats: 2,
    });
    startingId = starting.id;
    insertPaidBookings(db, starting.id, 2);
    for (const [name, phoneNumber, gender] of [
      ["Meera Iyer", "+61477100001", "female"],
      ["Arjun Rao", "+61477100002", "male"],
    ] as const) {
      db.insert(waitlistEntries).values({ eventId: starting.id, phone: phoneNumber, gender, name }).run();
    }
    // The women's side is full, the men's is not.
    const balanced = await insertEvent(db, uploads, {
      name: "Half Full Ball",
      startsAt: Date.now() + 20 * DAY,
      totalSeats: 4,
      seatsMale: 2,
      seatsFemale: 2,
    });
    insertPaidBookings(db, balanced.id, 2, { gender: "female" });
    // Enough cards above the last one that a phone scrolls far to reach it.
    for (let i = 0; i < 5; i++) {
      await insertEvent(db, uploads, { name: `Early Mixer ${i + 1}`, startsAt: Date.now() + (3 + i) * DAY });
    }
    db.$client.close();
  });

  const pick = async (page: Page, name: string) => {
    const picker = page.getByLabel("Event", { exact: true });
    const options = () => picker.locator("option").allTextContents();
    await expect.poll(async () => (await options()).some((o) => o.includes(name))).toBe(true);
    await picker.selectOption({ label: (await options()).find((o) => o.includes(name))! });
  };

  test("names both people of a paper card, shows the host's kind, and reaches older entries (1366 px)", async ({
    organiser,
  }) => {
    const { page, pageErrors } = organiser;
    await page.goto("/admin?tab=host-access");
    await pick(page, "Logged Night");
    const activity = page.getByRole("list", { name: "Activity, newest first" });
    await expect.poll(() => activity.getByRole("listitem").count()).toBe(50);
    await activity.getByText("Door 1 (host) · rounds controlled · step 60", { exact: true }).waitFor();
    expect(await activity.getByText(/paper card entered/).count()).toBe(0);
    await expectAccessible(page, "Activity, first page");

    await page.getByRole("button", { name: "Older entries" }).click();
    await expect.poll(() => activity.getByRole("listitem").count()).toBe(61);
    await activity
      .getByText("Door 1 (host) · paper card entered · Imran Ali · like for Kavya Rao", { exact: true })
      .waitFor();
    // The last page was short: nothing older to ask for.
    await expect.poll(() => page.getByRole("button", { name: "Older entries" }).count()).toBe(0);
    await expectAccessible(page, "Activity, all pages");
    await expectNoSidewaysScroll(page);
    expect(pageErrors).toEqual([]);
  });

  it("keeps the waitlist as Closed at the start once Start Event closes sales, and texts them (1366 px)", async () => {
    const cookie = await organiserCookie(server.url);
    const started = await fetch(`${server.url}/api/start-event`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ eventId: startingId }),
    });
    expect(started.status).toBe(200);

    const { context, pageErrors } = await newContext(browser, server.url, desktop);
    const page = await context.newPage();
    await signInAsOrganiser(page, "/admin");
    await openTab(page, "User Details");
    await pick(page, "Starting Soiree");
    const waitlist = page.getByRole("region", { name: "Waitlist" });
    await expect
      .poll(async () =>
        (await waitlist.locator("tbody tr").allTextContents()).map((row) => row.replace(/\s+/g, " ").trim()),
      )
      .toEqual([
        expect.stringMatching(/^1Meera Iyerfemale0477 100 001Closed at the start/),
        expect.stringMatching(/^2Arjun Raomale0477 100 002Closed at the start/),
      ]);
    expect(await page.getByText("Nobody is waiting.").count()).toBe(0);
    await expectAccessible(page, "the waitlist closed at the start");
    const text =
      "Starting Soiree is full tonight, so your place on the waitlist has closed. We'll let you know about the next one.";
    await expect
      .poll(async () => (await devOutbox(server.url)).filter((m) => m.body === text).map((m) => m.to))
      .toEqual(expect.arrayContaining(["+61477100001", "+61477100002"]));
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("opens the booking page at its heading and names the full side on the waitlist form (390 px)", async () => {
    const { context, pageErrors } = await newContext(browser, server.url, phone);
    const page = await context.newPage();
    await page.goto("/");
    const ball = page.locator("article.event-card", { hasText: "Half Full Ball" });
    await ball.scrollIntoViewIfNeeded();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
    await ball.getByRole("button", { name: "Book Tickets" }).click();
    await page.waitForURL("**/otp-verification?eventID=*");
    const heading = page.getByRole("heading", { name: "Book your seat", level: 1 });
    await heading.waitFor();
    // At the top, below the sticky header, and focused for a screen reader.
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect
      .poll(async () => {
        const header = await page.locator(".site-top").boundingBox();
        const box = await heading.boundingBox();
        return header !== null && box !== null && box.y >= header.y + header.height;
      })
      .toBe(true);
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Book your seat");
    await expectAccessible(page, "the booking page from far down the list");

    await page.getByRole("button", { name: "Woman", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "No seats left for women." }).waitFor();
    await page.getByRole("button", { name: "Join waitlist" }).click();
    await page.getByRole("heading", { name: "Join the waitlist" }).waitFor();
    await verifyPhone(page, server.url, "0455 222 333", "+61455222333");
    await page.getByText(/^No seats left for women\./).waitFor();
    expect(await page.getByText(/sold out/i).count()).toBe(0);
    await expectAccessible(page, "the waitlist form at a half-full balanced event");
    await expectNoSidewaysScroll(page);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
