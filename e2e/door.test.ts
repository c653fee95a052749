import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import type { Browser, BrowserContext, Page } from "playwright-core";
import QRCode from "qrcode";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeImage } from "../api/booking/images.ts";
import { openDatabase } from "../db/client.ts";
import { bookings, users } from "../db/schema.ts";
import { arrivalTime } from "../pwa/features/door/roster-view.ts";
import { insertEvent, insertPaidBookings, makeImage } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import {
  type AppServer,
  launchBrowser,
  newContext,
  noBrowser,
  phone,
  submitOrganiserPassword,
  waitUntil,
} from "./harness.ts";
import { expectAccessible, waitForServiceWorker } from "./page-checks.ts";

const PASSWORD = "e2e-admin-password";
const HOUR = 3_600_000;

/**
 * A y4m video (what Chromium's fake camera plays) of a ticket's QR code held up on a grey table: the
 * code drawn by the `qrcode` package, as the confirmation draws it.
 */
async function qrVideo(dir: string, text: string): Promise<string> {
  const [width, height] = [640, 480];
  const code = await QRCode.toBuffer(text, { type: "png", width: 300, margin: 4 });
  const { data: luma } = await sharp({ create: { width, height, channels: 3, background: "#b8b4ac" } })
    .composite([{ input: code, left: 170, top: 90 }])
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const chroma = Buffer.alloc((width / 2) * (height / 2), 128);
  const frame = Buffer.concat([Buffer.from("FRAME\n"), luma.subarray(0, width * height), chroma, chroma]);
  const file = join(dir, `ticket-${Math.random().toString(36).slice(2)}.y4m`);
  writeFileSync(
    file,
    Buffer.concat([Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`), frame, frame]),
  );
  return file;
}

const test = browserSuite();

describe.skipIf(noBrowser)("the door on a phone", () => {
  let server: AppServer;
  let browser: Browser;
  let eventId: number;
  /** The venue's time zone, which the door shows arrival times in. */
  let zone: string;
  let otherEventId: number;
  const people: Record<string, { userId: number; bookingId: number }> = {};
  const dbPath = () => `${server.dataDir}/app.db`;
  const checkedIn = (name: string) => {
    const db = openDatabase(dbPath());
    try {
      return db.select().from(bookings).where(eq(bookings.id, people[name]!.bookingId)).get()?.checkedInAt ?? null;
    } finally {
      db.$client.close();
    }
  };

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    const db = openDatabase(dbPath());
    const uploads = `${server.dataDir}/uploads`;
    // Tonight's event, started, and one next week: the door opens on tonight's.
    const tonight = await insertEvent(db, uploads, {
      name: "Door Night",
      status: "started",
      startsAt: Date.now() - HOUR,
    });
    const next = await insertEvent(db, uploads, { name: "Next Week Mixer", startsAt: Date.now() + 7 * 24 * HOUR });
    eventId = tonight.id;
    zone = tonight.timeZone;
    otherEventId = next.id;
    const roster = [
      ["Priya Sharma", "female"],
      ["Asha Patel", "female"],
      ["Kabir Singh", "male"],
      ["Rohan Mehta", "male"],
      ["Ravi Refunded", "male"],
    ] as const;
    for (const [i, [name, gender]] of roster.entries()) {
      const [p] = insertPaidBookings(db, eventId, 1, { name, gender });
      const photo = await storeImage(uploads, await makeImage("jpeg", 600, 600, { r: 40 + i * 40, g: 90, b: 160 }));
      db.update(users).set(photo).where(eq(users.id, p!.userId)).run();
      people[name] = p!;
    }
    db.update(bookings).set({ status: "refunded" }).where(eq(bookings.id, people["Ravi Refunded"]!.bookingId)).run();
    const [elsewhere] = insertPaidBookings(db, otherEventId, 1, { name: "Nina Elsewhere", gender: "female" });
    people["Nina Elsewhere"] = elsewhere!;
    db.$client.close();
  });

  const row = (page: Page, name: string) =>
    page.getByRole("list", { name: "Attendees" }).getByRole("listitem").filter({ hasText: name });
  const text = (page: Page, t: string) => page.getByText(t, { exact: true });

  async function logInAt(page: Page, path: string) {
    await page.goto(path);
    await submitOrganiserPassword(page, PASSWORD);
  }

  describe("check-in, offline and back", () => {
    let context: BrowserContext;
    let page: Page;
    let pageErrors: string[];

    beforeAll(async () => {
      // The phone is at the venue, on its time zone. That matters here: Playwright's clock swaps Date
      // for a class whose subclasses come back as plain Dates, so the venue-zone dates the door
      // formats with (TZDate) read in the phone's own zone instead.
      ({ context, pageErrors } = await newContext(browser, server.url, {
        ...phone,
        timezoneId: zone,
        serviceWorkers: "allow",
      }));
      // Timers run in real time, but a test can jump the page's clock instead of waiting on it.
      await context.clock.install();
      page = await context.newPage();
    });
    afterAll(async () => {
      await context?.close();
    });

    it("logs in, opens Door, finds an attendee by name and checks her in; Undo takes it back", async () => {
      await logInAt(page, "/admin");
      await page.getByRole("tablist").waitFor();
      await page.getByRole("link", { name: "Door", exact: true }).click();
      await page.waitForURL((url) => url.pathname === "/admin/door");
      await page.getByRole("heading", { name: "Door", level: 1 }).waitFor();

      // Tonight's started event is the one chosen, shown on the venue's clock.
      const picker = page.getByLabel("Event", { exact: true });
      await expect.poll(() => picker.inputValue()).toBe(String(eventId));
      expect(await picker.locator("option:checked").textContent()).toMatch(
        /^Door Night · \d{4}-\d{2}-\d{2} \d{2}:\d{2} (AM|PM) AE[DS]T · started$/,
      );
      await text(page, "Arrived 0 of 4").waitFor();
      await text(page, "Women 0/2 · Men 0/2").waitFor();
      // Refunded bookings are not on the list.
      await expect.poll(() => page.getByRole("list", { name: "Attendees" }).getByRole("listitem").count()).toBe(4);

      await page.getByLabel("Find attendee", { exact: true }).fill("priya");
      await expect.poll(() => page.getByRole("list", { name: "Attendees" }).getByRole("listitem").count()).toBe(1);
      const before = Date.now();
      await row(page, "Priya Sharma").getByRole("button", { name: "Check in", exact: true }).click();
      await text(page, "Arrived 1 of 4").waitFor();
      await text(page, "Women 1/2 · Men 0/2").waitFor();
      await text(page, "All check-ins synced").waitFor();
      await expect.poll(() => checkedIn("Priya Sharma")).not.toBeNull();
      expect(checkedIn("Priya Sharma")).toBeGreaterThanOrEqual(before);

      // Undo, then check in again from the keyboard: the focus stays on the row's button.
      await row(page, "Priya Sharma").getByRole("button", { name: "Undo", exact: true }).click();
      await text(page, "Arrived 0 of 4").waitFor();
      await expect.poll(() => checkedIn("Priya Sharma")).toBeNull();
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Check in");
      await page.keyboard.press("Enter");
      await text(page, "Arrived 1 of 4").waitFor();
      await expect.poll(() => checkedIn("Priya Sharma")).not.toBeNull();

      await page.getByLabel("Find attendee", { exact: true }).fill("");
      await expectAccessible(page, "the door view");
      expect(pageErrors).toEqual([]);
    });

    it("shows staff no attendee's My tickets in the header, on the admin panel or at the door", async () => {
      const header = page.getByRole("banner");
      await expect.poll(() => header.getByRole("link", { name: "Saathi Speed Dating home" }).count()).toBe(1);
      expect(await header.getByRole("link", { name: "My tickets" }).count()).toBe(0);
      await page.goto("/admin");
      await page.getByRole("tablist").waitFor();
      expect(await header.getByRole("link", { name: "My tickets" }).count()).toBe(0);
      await page.goto("/admin/door");
      await text(page, "Arrived 1 of 4").waitFor();
      expect(await header.getByRole("link", { name: "My tickets" }).count()).toBe(0);
      // An attendee's page still has it.
      await page.goto("/");
      await header.getByRole("link", { name: "My tickets" }).waitFor();
      await page.goto("/admin/door");
      await text(page, "Arrived 1 of 4").waitFor();
    });

    it("reopens offline from what the phone kept, queues a check-in, and syncs it with the tap's time", async () => {
      await waitForServiceWorker(page);
      // The roster's photos are kept for offline use: wait until all four are stored.
      await waitUntil(
        () =>
          page.evaluate(
            async () =>
              (await (await caches.open("images")).keys()).filter((r) => r.url.includes("-thumb")).length >= 4,
          ),
        "the attendees' thumbnails in the image cache",
      );
      await context.setOffline(true);
      await page.reload();
      await text(page, "Arrived 1 of 4").waitFor();
      await text(page, "Showing the list kept on this phone.").waitFor();
      // The banner says what still works here: check-ins wait on the phone.
      await page
        .getByRole("status")
        .filter({ hasText: "You're offline. Check-ins are saved on this phone and will sync when you're back online." })
        .waitFor();
      const photosShown = await page
        .getByRole("list", { name: "Attendees" })
        .locator("img")
        .evaluateAll((imgs) =>
          Promise.all(
            (imgs as HTMLImageElement[]).map((img) =>
              img
                .decode()
                .then(() => img.naturalWidth > 0)
                .catch(() => false),
            ),
          ),
        );
      expect(photosShown).toEqual([true, true, true, true]);

      await page.getByLabel("Find attendee", { exact: true }).fill("kab");
      const tapBefore = Date.now();
      await row(page, "Kabir Singh").getByRole("button", { name: "Check in", exact: true }).click();
      await text(page, "1 check-in waiting to sync").waitFor();
      const tapAfter = Date.now();
      await text(page, "Arrived 2 of 4").waitFor();
      await text(page, "Women 1/2 · Men 1/2").waitFor();
      // Durable: a reload with no network still has it waiting.
      await page.reload();
      await text(page, "1 check-in waiting to sync").waitFor();
      await text(page, "Arrived 2 of 4").waitFor();
      expect(checkedIn("Kabir Singh")).toBeNull();
      await expectAccessible(page, "the door view offline");

      // The phone stays offline for two minutes on its clock: a sync stamped with its own time would
      // read two minutes later than the tap.
      await page.clock.fastForward(2 * 60_000);
      await context.setOffline(false);
      await text(page, "All check-ins synced").waitFor({ timeout: 30_000 });
      await expect.poll(() => checkedIn("Kabir Singh")).not.toBeNull();
      // The tap's time, not the sync's: on the row, once synced, and in the database.
      const atTap = [tapBefore, tapAfter].map((ms) => `Arrived ${arrivalTime(new Date(ms).toISOString(), zone)}`);
      const arrived = row(page, "Kabir Singh").getByText(/^Arrived /);
      await expect.poll(() => arrived.textContent()).not.toMatch(/waiting to sync/);
      expect(atTap).toContain(await arrived.textContent());
      const kabir = checkedIn("Kabir Singh")!;
      expect(kabir).toBeGreaterThanOrEqual(tapBefore);
      expect(kabir).toBeLessThanOrEqual(tapAfter);
      expect(checkedIn("Priya Sharma")).not.toBeNull();
    });

    it("shows a second phone's check-in within 30 seconds", async () => {
      const second = await newContext(browser, server.url);
      try {
        const other = await second.context.newPage();
        await logInAt(other, "/admin/door");
        await text(other, "Arrived 2 of 4").waitFor();
        await other.getByLabel("Find attendee", { exact: true }).fill("asha");
        await row(other, "Asha Patel").getByRole("button", { name: "Check in", exact: true }).click();
        await text(other, "All check-ins synced").waitFor();
        await expect.poll(() => checkedIn("Asha Patel")).not.toBeNull();
        // The first phone is left alone: its own 30-second sync brings the news.
        await page.clock.fastForward(30_000);
        await text(page, "Arrived 3 of 4").waitFor();
        await text(page, "Women 2/2 · Men 1/2").waitFor();
      } finally {
        await second.context.close();
      }
    });
  });

  describe("Scan ticket, with Chromium's fake camera playing a QR code", () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), "sdt-door-video-"));
    });
    afterAll(() => {
      rmSync(dir, { recursive: true, force: true });
    });

    /**
     * A browser whose camera shows `ticket`, logged in on the door view. Its own Chromium, not the
     * `browser` fixture: the fake camera's video is a launch flag, and each test shows another ticket.
     */
    async function doorWithCamera(ticket: string) {
      const camera = await launchBrowser([
        "--use-fake-device-for-media-stream",
        "--use-fake-ui-for-media-stream",
        `--use-file-for-fake-video-capture=${await qrVideo(dir, ticket)}`,
      ]);
      const { context, pageErrors } = await newContext(camera, server.url);
      await context.grantPermissions(["camera"], { origin: server.url });
      const page = await context.newPage();
      // Straight to /admin/door without a session: the admin password modal guards it.
      await page.goto("/admin/door");
      await page.getByRole("dialog").waitFor();
      await expectAccessible(page, "the door's login");
      await submitOrganiserPassword(page, PASSWORD);
      await page.getByLabel("Find attendee", { exact: true }).waitFor();
      return { page, pageErrors, close: () => camera.close() };
    }

    /** The decoder's own chunk, as the page has requested it so far. */
    const jsQrRequests = (page: Page) =>
      page.evaluate(() =>
        performance
          .getEntriesByType("resource")
          .map((e) => e.name)
          .filter((name) => /\/assets\/jsQR-[\w-]+\.js$/.test(name)),
      );

    const ticketOf = (name: string, event = eventId) =>
      `${server.url}/confirm-booking?eventID=${event}&userID=${people[name]!.userId}`;

    it("reads a ticket and opens that attendee's row with Check in", async () => {
      const { page, pageErrors, close } = await doorWithCamera(ticketOf("Rohan Mehta"));
      try {
        expect(await jsQrRequests(page)).toEqual([]);
        await page.getByRole("button", { name: "Scan ticket" }).click();
        const dialog = page.getByRole("dialog", { name: "Scan ticket" });
        await dialog.waitFor();
        await expectAccessible(page, "the scanner");
        const scanned = page.getByRole("region", { name: "Scanned ticket" });
        await scanned.waitFor({ timeout: 20_000 });
        await expect.poll(() => dialog.count()).toBe(0);
        expect(await scanned.getByRole("listitem").textContent()).toContain("Rohan Mehta");
        // Debian's Chromium has no BarcodeDetector, so this went through jsQR, fetched only for the scan.
        if (!(await page.evaluate(() => "BarcodeDetector" in window))) expect(await jsQrRequests(page)).toHaveLength(1);
        // The keyboard (or a thumb) is already on its Check in.
        await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Check in");
        await page.keyboard.press("Enter");
        await expect.poll(() => checkedIn("Rohan Mehta")).not.toBeNull();
        await expect.poll(() => scanned.getByRole("button", { name: "Undo" }).count()).toBe(1);
        expect(pageErrors).toEqual([]);
      } finally {
        await close();
      }
    });

    it.each([
      [
        "a refunded booking",
        () => ticketOf("Ravi Refunded"),
        "This booking was refunded (Ravi Refunded). Do not check it in.",
      ],
      [
        "another event's ticket",
        () => ticketOf("Nina Elsewhere", otherEventId),
        "This ticket is for another event: Next Week Mixer. Do not check it in here.",
      ],
      [
        "an unknown booking",
        () => `${server.url}/confirm-booking?eventID=${eventId}&userID=987654`,
        "No paid booking matches this ticket. Do not check it in.",
      ],
    ])("says so plainly for %s", async (_label, ticket, message) => {
      const { page, close } = await doorWithCamera(ticket());
      try {
        await page.getByRole("button", { name: "Scan ticket" }).click();
        await page.getByRole("alert").filter({ hasText: message }).waitFor({ timeout: 20_000 });
        expect(await page.getByRole("region", { name: "Scanned ticket" }).count()).toBe(0);
      } finally {
        await close();
      }
    });
  });
  describe("Scan ticket where no camera can be used", () => {
    const codes = { "Asha Patel": "HJKM NPQR ST", "Priya Sharma": "ABCD EFGH 23" };
    beforeAll(() => {
      const db = openDatabase(dbPath());
      try {
        for (const [name, code] of Object.entries(codes)) {
          const uniqueCode = code.replaceAll(" ", "");
          db.update(bookings).set({ uniqueCode }).where(eq(bookings.id, people[name]!.bookingId)).run();
        }
      } finally {
        db.$client.close();
      }
    });

    /** The door view logged in, in a browser with no camera; `noGetUserMedia` takes camera access away too. */
    async function doorWithoutCamera(noGetUserMedia: boolean) {
      const opened = await newContext(browser, server.url);
      if (noGetUserMedia) {
        await opened.context.addInitScript(() => {
          Object.defineProperty(navigator, "mediaDevices", { value: undefined });
        });
      }
      const page = await opened.context.newPage();
      await page.goto("/admin/door");
      // The door's login is the admin panel's modal, styled as there: a card over a dimmed page, its
      // close button a thumb-sized target (unstyled, it was a 20 px ×).
      const login = page.getByRole("dialog", { name: "Admin login" });
      await login.waitFor();
      const close = (await login.getByRole("button", { name: "Close" }).boundingBox())!;
      expect(Math.min(close.width, close.height)).toBeGreaterThanOrEqual(44);
      const card = (await login.boundingBox())!;
      expect(card.x).toBeGreaterThan(0);
      expect(card.y).toBeGreaterThan(100);
      await login.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await login.getByRole("button", { name: "Submit" }).click();
      await page.getByLabel("Find attendee", { exact: true }).waitFor();
      return { ...opened, page };
    }

    const typeTheCode = async (page: Page, typed: string) => {
      const dialog = page.getByRole("dialog", { name: "Type the code" });
      await dialog.getByLabel("Ticket code or link").fill(typed);
      await dialog.getByRole("button", { name: "Open ticket" }).click();
    };

    it("offers Type the code when the phone has no camera, and the ticket's code opens the attendee's row", async () => {
      const { context, page, pageErrors } = await doorWithoutCamera(false);
      try {
        await page.getByRole("button", { name: "Scan ticket" }).click();
        // Chromium here has camera access but no camera: the scanner says so and asks for the code.
        const dialog = page.getByRole("dialog", { name: "Type the code" });
        await dialog.waitFor({ timeout: 20_000 });
        await dialog
          .getByRole("alert")
          .filter({ hasText: /camera/ })
          .waitFor();
        await expect
          .poll(() => page.evaluate(() => document.activeElement?.getAttribute("id")))
          .toBe("door-ticket-code");
        await expectAccessible(page, "Type the code");

        // A wrong code says so and keeps the dialog open.
        await typeTheCode(page, "ZZZZ ZZZZ 22");
        await dialog
          .getByText("No ticket for this event has that code. Check it with the attendee, or find them by name.")
          .waitFor();
        await expectAccessible(page, "Type the code, wrong code");

        // The code as printed on the ticket, typed in lower case: her row opens.
        await typeTheCode(page, codes["Asha Patel"].toLowerCase());
        const scanned = page.getByRole("region", { name: "Scanned ticket" });
        await scanned.waitFor();
        await expect.poll(() => dialog.count()).toBe(0);
        expect(await scanned.getByRole("listitem").textContent()).toContain("Asha Patel");
        expect(pageErrors).toEqual([]);
      } finally {
        await context.close();
      }
    });

    it("goes straight to Type the code without camera access, and the ticket's link opens the row as a scan does", async () => {
      const { context, page, pageErrors } = await doorWithoutCamera(true);
      try {
        await page.getByRole("button", { name: "Scan ticket" }).click();
        const dialog = page.getByRole("dialog", { name: "Type the code" });
        await dialog.waitFor();
        await dialog
          .getByText("The camera can't be used in this browser. Type the ticket's code below instead.")
          .waitFor();
        expect(await dialog.locator("video").count()).toBe(0);

        // Not a ticket: said in the dialog.
        await typeTheCode(page, "www.example.com/tickets");
        await dialog.getByText(/^That isn't a ticket code or link\./).waitFor();

        // The link the QR code holds, pasted: Kabir's row opens.
        await typeTheCode(
          page,
          `${server.url}/confirm-booking?eventID=${eventId}&userID=${people["Kabir Singh"]!.userId}`,
        );
        const scanned = page.getByRole("region", { name: "Scanned ticket" });
        await scanned.waitFor();
        expect(await scanned.getByRole("listitem").textContent()).toContain("Kabir Singh");

        // Another event's ticket gets the same warning as a scanned one.
        await scanned.getByRole("button", { name: "Done" }).click();
        await page.getByRole("button", { name: "Scan ticket" }).click();
        await typeTheCode(page, `/confirm-booking?eventID=${otherEventId}&userID=${people["Nina Elsewhere"]!.userId}`);
        await page
          .getByRole("alert")
          .filter({ hasText: "This ticket is for another event: Next Week Mixer. Do not check it in here." })
          .waitFor();
        expect(pageErrors).toEqual([]);
      } finally {
        await context.close();
      }
    });
  });
});
