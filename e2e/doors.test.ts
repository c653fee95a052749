import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { doorsOpenText } from "../common/doors-open.ts";
import { openDatabase } from "../db/client.ts";
import { bookings } from "../db/schema.ts";
import { insertEvent, insertPaidBookings } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import {
  type AppServer,
  desktop,
  newContext,
  noBrowser,
  phone,
  signInAsOrganiser,
  submitOrganiserPassword,
} from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll, waitForServiceWorker } from "./page-checks.ts";

// Doors that open without starting the night, and the ticket's code at the door with no network
// (docs/decisions/008-door.md): a phone at 390 px, the organiser's Edit form at 1366 px.

const HOUR = 3_600_000;
const ZONE = "Australia/Sydney";
const CODE = "6M8N57X8FY";

const test = browserSuite();

describe.skipIf(noBrowser)("the doors and the ticket code at the door", () => {
  let server: AppServer;
  let browser: Browser;
  let eventId: number;
  let startsAt: number;
  let later: { id: number; startsAt: number };
  const people: Record<string, { userId: number; bookingId: number }> = {};
  const checkedIn = (name: string) => {
    const db = openDatabase(`${server.dataDir}/app.db`);
    try {
      return db.select().from(bookings).where(eq(bookings.id, people[name]!.bookingId)).get()?.checkedInAt ?? null;
    } finally {
      db.$client.close();
    }
  };

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    const db = openDatabase(`${server.dataDir}/app.db`);
    // The day after tomorrow at 7 PM-ish: the doors (3 hours before) are well in the future.
    startsAt = Math.floor((Date.now() + 42 * HOUR) / (15 * 60_000)) * 15 * 60_000;
    const event = await insertEvent(db, `${server.dataDir}/uploads`, {
      name: "Doors Night",
      startsAt,
      timeZone: ZONE,
    });
    eventId = event.id;
    const next = await insertEvent(db, `${server.dataDir}/uploads`, {
      name: "Later Night",
      startsAt: startsAt + 4 * 24 * HOUR,
      timeZone: ZONE,
    });
    later = { id: next.id, startsAt: next.startsAt };
    const [meera] = insertPaidBookings(db, later.id, 1, { name: "Meera Iyer", gender: "female" });
    people["Meera Iyer"] = meera!;
    db.update(bookings).set({ uniqueCode: "ABCD23EFGH" }).where(eq(bookings.id, meera!.bookingId)).run();
    for (const [name, gender] of [
      ["Kavya Rao", "female"],
      ["Imran Ali", "male"],
    ] as const) {
      const [p] = insertPaidBookings(db, eventId, 1, { name, gender, paidAt: Date.now() - 24 * HOUR });
      people[name] = p!;
    }
    db.update(bookings).set({ uniqueCode: CODE }).where(eq(bookings.id, people["Kavya Rao"]!.bookingId)).run();
    db.$client.close();
  });

  const row = (page: Page, name: string) =>
    page.getByRole("list", { name: "Attendees" }).getByRole("listitem").filter({ hasText: name });

  it("shows Doors open at on the organiser's Edit form, with Open doors now beside Start Event", async () => {
    const { context, pageErrors } = await newContext(browser, server.url, { ...desktop, timezoneId: ZONE });
    try {
      const page = await context.newPage();
      await signInAsOrganiser(page, `/admin?tab=edit-event&event=${eventId}`);
      const doors = page.getByRole("group", { name: "Doors open at (venue's local time)" });
      await doors.waitFor();
      await expect
        .poll(() => doors.getByLabel("Doors date", { exact: true }).inputValue())
        .toMatch(/^\d{4}-\d{2}-\d{2}$/);
      // The doors are still shut (3 hours before the start): Open doors now is offered.
      await expect.poll(() => page.getByRole("button", { name: "Open doors now" }).isEnabled()).toBe(true);
      await page.getByRole("button", { name: "Start Event" }).waitFor();
      await expectAccessible(page, "the Edit tab with Doors open at");
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("shows a phone when the doors open with Check in disabled, opens them now, and finds a typed code offline", async () => {
    const { context, pageErrors } = await newContext(browser, server.url, {
      ...phone,
      timezoneId: ZONE,
      serviceWorkers: "allow",
    });
    try {
      const page = await context.newPage();
      await page.goto("/admin/door");
      await submitOrganiserPassword(page);
      await page.getByRole("heading", { name: "Door", level: 1 }).waitFor();
      await expect.poll(() => page.getByLabel("Event", { exact: true }).inputValue()).toBe(String(eventId));

      const notice = doorsOpenText(startsAt - 3 * HOUR, ZONE, Date.now());
      expect(notice).toMatch(/^Doors open at \d{1,2}:\d{2} [AP]M AE[DS]T/);
      await page.getByText(notice, { exact: false }).first().waitFor();
      const checkIn = row(page, "Kavya Rao").getByRole("button", { name: "Check in", exact: true });
      await expect.poll(() => checkIn.isDisabled()).toBe(true);
      expect(await row(page, "Imran Ali").getByRole("button", { name: "Check in" }).isDisabled()).toBe(true);
      // Never a field name on the screen.
      expect(await page.locator("body").textContent()).not.toMatch(/clientTs/);
      await expectNoSidewaysScroll(page);
      await expectAccessible(page, "the door before the doors open");

      await page.getByRole("button", { name: "Open doors now" }).click();
      await expect.poll(() => page.getByText(/^Doors open at/).count()).toBe(0);
      await expect.poll(() => checkIn.isEnabled()).toBe(true);

      // No network at the door: the typed code, in lower case and with spaces, finds its attendee.
      await waitForServiceWorker(page);
      await context.setOffline(true);
      await page.getByLabel("Find attendee", { exact: true }).fill("6m8n 57x8 fy");
      await expect.poll(() => page.getByRole("list", { name: "Attendees" }).getByRole("listitem").count()).toBe(1);
      await row(page, "Kavya Rao").waitFor();
      await checkIn.click();
      await page.getByText("1 check-in waiting to sync", { exact: true }).waitFor();
      expect(checkedIn("Kavya Rao")).toBeNull();
      await expectAccessible(page, "the door offline, found by ticket code");

      await context.setOffline(false);
      await page.getByText("All check-ins synced", { exact: true }).waitFor({ timeout: 30_000 });
      await expect.poll(() => checkedIn("Kavya Rao")).not.toBeNull();
      expect(checkedIn("Imran Ali")).toBeNull();
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });

  it("tells a host whose link is opened before the doors when it will work", async () => {
    const organiser = await newContext(browser, server.url, { ...desktop, timezoneId: ZONE });
    const host = await newContext(browser, server.url, { ...phone, timezoneId: ZONE });
    try {
      const admin = await organiser.context.newPage();
      await signInAsOrganiser(admin);
      const url = await admin.evaluate(async (eventID) => {
        const reply = await fetch("/api/host-links", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ eventID, label: "Early host" }),
        });
        return ((await reply.json()) as { url: string }).url;
      }, later.id);
      const page = await host.context.newPage();
      await page.goto(new URL(url).pathname + new URL(url).search);
      const when = doorsOpenText(later.startsAt - 3 * HOUR, ZONE, Date.now());
      await page.getByText(`${when}. This host link opens the door and the rounds from then`).waitFor();
      // The token stays, so opening the page again at that time signs in.
      expect(new URL(page.url()).searchParams.get("t")).not.toBeNull();
      await expectAccessible(page, "a host link before the doors open");
      expect([...organiser.pageErrors, ...host.pageErrors]).toEqual([]);
    } finally {
      await organiser.context.close();
      await host.context.close();
    }
  });

  it("tells staff on /confirm-booking whose ticket it is, and records no arrival before the doors open", async () => {
    const { context, pageErrors } = await newContext(browser, server.url, { ...phone, timezoneId: ZONE });
    try {
      const page = await context.newPage();
      await signInAsOrganiser(page);
      await page.goto(`/confirm-booking?eventID=${later.id}&userID=${people["Meera Iyer"]!.userId}`);
      await page.getByLabel("Unique code").fill("abcd23efgh");
      await page.getByRole("button", { name: "Confirm" }).click();
      await page.getByText("Booking confirmed! Thank you!", { exact: true }).waitFor();
      const when = doorsOpenText(later.startsAt - 3 * HOUR, ZONE, Date.now());
      await page.getByText(`Meera Iyer's ticket. ${when}: not checked in yet.`, { exact: true }).waitFor();
      expect(checkedIn("Meera Iyer")).toBeNull();
      await expectAccessible(page, "confirm-booking for staff before the doors open");
      expect(pageErrors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
