import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import jsQR from "jsqr";
import type { Browser, Locator, Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../db/client.ts";
import { bookings } from "../db/schema.ts";
import { yearLike } from "../test/clock.ts";
import { insertEvent } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, newContext, noBrowser, phone } from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll, waitForServiceWorker } from "./page-checks.ts";
import { bookAndPay, organiserCookie } from "./steps.ts";

// What a first-time attendee saw go wrong, at phone size: typing their own code at home checked them
// in a week early, and a refunded or cancelled ticket still showed a live QR. The door check records
// an arrival only for staff or on the night; saved tickets ask the server what they are worth now.

const SESSION_SECRET = "e2e-ticket-status-secret-e2e-ticket-status-0123";
const ADMIN_PASSWORD = "e2e-admin-password";
const HOUR = 3_600_000;
const SHOTS = process.env.SCREENSHOT_DIR;

// Dates in a year laid out like 2031, always ahead of the clock (test/clock.ts).
const Y = yearLike(2031);

const test = browserSuite({ serverEnv: { SESSION_SECRET } });

describe.skipIf(noBrowser)("tickets that tell the truth", () => {
  let server: AppServer;
  let browser: Browser;
  let adminCookie = "";
  const eventIds: Record<"ahead" | "tonight" | "cancelled", number> = { ahead: 0, tonight: 0, cancelled: 0 };

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    const db = openDatabase(`${server.dataDir}/app.db`);
    const uploads = `${server.dataDir}/uploads`;
    const at = { address: "9 Lantern St, Melbourne VIC 3000", priceCents: 3950 };
    eventIds.ahead = (
      await insertEvent(db, uploads, { ...at, name: "Lantern Social", startsAt: Date.UTC(Y, 6, 7, 9) })
    ).id;
    eventIds.tonight = (
      await insertEvent(db, uploads, { ...at, name: "Tonight Mixer", startsAt: Date.now() + HOUR })
    ).id;
    eventIds.cancelled = (
      await insertEvent(db, uploads, { ...at, name: "Riverside Soiree", startsAt: Date.UTC(Y, 7, 8, 9) })
    ).id;
    db.$client.close();
    adminCookie = await organiserCookie(server.url, ADMIN_PASSWORD);
    if (SHOTS) mkdirSync(SHOTS, { recursive: true });
  });

  /** The organiser's calls, from outside any phone (a refund, a cancellation, the roster). */
  const adminCall = async (path: string, body?: unknown) => {
    const response = await fetch(server.url + path, {
      method: body === undefined ? "GET" : "POST",
      headers: { "content-type": "application/json", cookie: adminCookie },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(response.status, path).toBe(200);
    return response.json() as Promise<Record<string, unknown>>;
  };

  const bookingRow = (userId: number) => {
    const db = openDatabase(`${server.dataDir}/app.db`);
    try {
      return db.select().from(bookings).where(eq(bookings.userId, userId)).get();
    } finally {
      db.$client.close();
    }
  };

  const paidBooking = (eventId: number, name: string) => bookAndPay(server, SESSION_SECRET, eventId, name);

  /** What a door scanner reads off the screen: the QR's text, or null. Decoded from a screenshot. */
  async function scan(ticket: Locator): Promise<string | null> {
    const { data, info } = await sharp(await ticket.screenshot())
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return jsQR(new Uint8ClampedArray(data), info.width, info.height)?.data ?? null;
  }

  async function shoot(page: Page, name: string) {
    if (SHOTS) await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  }

  it("an attendee confirming their own code days ahead is not checked in; staff confirming it are, once the doors open", async () => {
    const booking = await paidBooking(eventIds.ahead, "Anika Rao");
    // The text's one link is the ticket with its QR, not the empty door page.
    expect(booking.text).not.toContain("/confirm-booking");

    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    await page.goto(`/confirm-booking?eventID=${booking.eventId}&userID=${booking.userId}`);
    await page.getByLabel("Unique code").fill(booking.uniqueCode.toLowerCase());
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.getByText("Booking confirmed! Thank you!", { exact: true }).waitFor();
    await page.getByText("You're not checked in yet: show your ticket at the door on the night.").waitFor();
    await expect
      .poll(() => page.getByRole("link", { name: "My tickets" }).last().getAttribute("href"))
      .toBe("/tickets");
    await expectAccessible(page, "the door check confirming an attendee's own code");
    await expectNoSidewaysScroll(page);
    await shoot(page, "confirm-booking-at-home");

    // Not arrived: the database, the door roster and the Overview's count all say so.
    expect(bookingRow(booking.userId)?.checkedInAt).toBeNull();
    const roster = (await adminCall(`/api/admin-event/${booking.eventId}/roster`)) as {
      attendees: { userID: number; checkedInAt: string | null }[];
    };
    expect(roster.attendees.find((a) => a.userID === booking.userId)?.checkedInAt).toBeNull();
    expect(await adminCall(`/api/admin-event-summary/${booking.eventId}`)).toMatchObject({ checkedIn: 0 });

    // Staff with the admin session on the same page: the arrival is recorded.
    expect(
      await page.evaluate(async (password) => {
        const response = await fetch("/api/admin-login", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ password }),
        });
        return response.status;
      }, ADMIN_PASSWORD),
    ).toBe(200);
    // Days ahead the doors are shut: staff learn whose ticket it is, and nobody arrives yet.
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.getByText("Anika Rao's ticket. Doors open at", { exact: false }).waitFor();
    expect(bookingRow(booking.userId)?.checkedInAt).toBeNull();
    // Once the doors are open (Open doors now), staff confirming it record the arrival.
    expect(
      await page.evaluate(async (eventId) => {
        const response = await fetch("/api/open-doors", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ eventId }),
        });
        return response.status;
      }, booking.eventId),
    ).toBe(200);
    await page.getByRole("button", { name: "Confirm" }).click();
    await expect.poll(() => bookingRow(booking.userId)?.checkedInAt ?? null).not.toBeNull();
    await page.getByText("Booking confirmed! Thank you!", { exact: true }).waitFor();
    await expect.poll(() => page.getByText("You're not checked in yet", { exact: false }).count()).toBe(0);
    const after = (await adminCall(`/api/admin-event/${booking.eventId}/roster`)) as typeof roster;
    expect(after.attendees.find((a) => a.userID === booking.userId)?.checkedInAt).not.toBeNull();
    await expectAccessible(page, "the door check confirmed by staff");

    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("a ticket refunded while the phone was offline shows Refunded once online, with no QR to scan", async () => {
    const booking = await paidBooking(eventIds.ahead, "Dev Malhotra");
    const { context, pageErrors } = await newContext(browser, server.url, { ...phone, serviceWorkers: "allow" });
    const page = await context.newPage();
    await page.goto(booking.linkPath);
    const ticket = page.getByRole("article", { name: "Ticket for Lantern Social" });
    await ticket.waitFor();
    await page.getByText("Ticket added for Lantern Social.", { exact: false }).waitFor();
    const qr = ticket.getByRole("img", { name: /QR code for/ });
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
    // A live ticket scans as the door page of this booking.
    await expect
      .poll(() => scan(ticket))
      .toContain(`/confirm-booking?eventID=${booking.eventId}&userID=${booking.userId}`);
    await waitForServiceWorker(page);

    // Offline, the refund cannot reach the phone: the ticket shows as last known, from IndexedDB.
    await context.setOffline(true);
    const refund = await adminCall("/api/refund", { paymentIntentId: bookingRow(booking.userId)?.paymentIntentId });
    expect(refund).toMatchObject({ success: true });
    await page.goto("/tickets");
    await ticket.waitFor();
    await expect.poll(() => qr.isVisible()).toBe(true);

    // Back online: the list asks, and the dead ticket says so. The page hears `online` before the
    // network carries anything (as on a phone joining Wi-Fi; Playwright, too, brings the page online
    // before the service worker), so the first ask fails here for sure and the ticket asks again.
    const firstAsk = page.waitForEvent("requestfailed", (request) => request.url().endsWith("/api/ticket-status"));
    const pageAlone = await context.newCDPSession(page);
    await pageAlone.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await firstAsk;
    await context.setOffline(false);
    await ticket.getByText("Refunded", { exact: true }).waitFor();
    await ticket.getByText("This booking was refunded, so this ticket is no longer valid.").waitFor();
    expect(await ticket.getByRole("img", { name: /QR code for/ }).count()).toBe(0);
    expect(await ticket.locator("img").count()).toBe(0);
    expect(await scan(ticket)).toBeNull();
    expect(await ticket.getByRole("button", { name: "Add to calendar" }).count()).toBe(0);
    expect(await ticket.getByRole("link", { name: "Download QR" }).count()).toBe(0);
    await expect.poll(() => ticket.locator(".ticket-code s").textContent()).toBe(booking.uniqueCode);
    await expectAccessible(page, "My tickets with a refunded ticket");
    await expectNoSidewaysScroll(page);
    await shoot(page, "tickets-refunded");

    // The news is kept: offline again, a fresh opening still says Refunded.
    await context.setOffline(true);
    await page.reload();
    await ticket.getByText("Refunded", { exact: true }).waitFor();
    expect(await ticket.locator("img").count()).toBe(0);
    await context.setOffline(false);

    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("a cancelled event's ticket says Cancelled, and a night that is over moves under Past", async () => {
    const cancelled = await paidBooking(eventIds.cancelled, "Meera Iyer");
    const tonight = await paidBooking(eventIds.tonight, "Meera Iyer");
    const upcoming = await paidBooking(eventIds.ahead, "Meera Iyer");
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    for (const b of [cancelled, tonight, upcoming]) {
      await page.goto(b.linkPath);
      await page.getByText("Ticket added for", { exact: false }).waitFor();
    }

    expect(await adminCall("/api/cancel-event", { eventId: eventIds.cancelled })).toMatchObject({ refunded: 1 });
    await adminCall("/api/start-event", { eventId: eventIds.tonight });
    await adminCall("/api/end-event", { eventId: eventIds.tonight });

    await page.goto("/tickets");
    const riverside = page.getByRole("article", { name: "Ticket for Riverside Soiree" });
    await riverside.getByText("Cancelled", { exact: true }).waitFor();
    await riverside.getByText("This event was cancelled", { exact: false }).waitFor();
    expect(await riverside.locator("img").count()).toBe(0);
    expect(await scan(riverside)).toBeNull();
    expect(await riverside.getByRole("button", { name: "Add to calendar" }).count()).toBe(0);

    const past = page.getByRole("region", { name: "Past" });
    await past.getByRole("article", { name: "Ticket for Tonight Mixer" }).waitFor();
    await past.getByText("This night is over.").waitFor();
    expect(await past.locator("img").count()).toBe(0);
    const current = page.getByRole("region", { name: "Upcoming" });
    const lantern = current.getByRole("article", { name: "Ticket for Lantern Social" });
    await expect.poll(() => lantern.getByRole("img", { name: /QR code for/ }).isVisible()).toBe(true);
    await expect.poll(() => lantern.getByRole("button", { name: "Add to calendar" }).isVisible()).toBe(true);
    expect(await current.getByRole("article", { name: "Ticket for Tonight Mixer" }).count()).toBe(0);
    await expectAccessible(page, "My tickets with cancelled, upcoming and past tickets");
    await expectNoSidewaysScroll(page);
    await shoot(page, "tickets-cancelled-and-past");

    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
