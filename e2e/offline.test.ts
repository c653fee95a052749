import { eq } from "drizzle-orm";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { storeImage } from "../api/booking/images.ts";
import { feedbackToken } from "../api/lib/capability.ts";
import { openDatabase } from "../db/client.ts";
import { events, feedback, users } from "../db/schema.ts";
import { insertEvent, insertPaidBookings, makeImage } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, launchProfileContext, newContext, noBrowser, phone, waitUntil } from "./harness.ts";
import { expectAccessible, waitForServiceWorker } from "./page-checks.ts";

// The demo events, as a newcomer's `npm start` would have them.
const test = browserSuite({ serverEnv: { SEED_DEMO: "1" } });

describe.skipIf(noBrowser)("installable and offline", () => {
  let server: AppServer;
  let browser: Browser;

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
  });
  it("reports no installability errors", async () => {
    const { context, close } = await launchProfileContext(server.url);
    try {
      const page = await context.newPage();
      await page.goto("/");
      await waitForServiceWorker(page);
      const cdp = await context.newCDPSession(page);
      const { installabilityErrors } = (await cdp.send("Page.getInstallabilityErrors")) as {
        installabilityErrors: { errorId: string }[];
      };
      expect(installabilityErrors).toEqual([]);
    } finally {
      await close();
    }
  });

  describe("after one online visit", () => {
    let context: BrowserContext;
    let page: Page;

    const banner = () => page.getByRole("status").filter({ hasText: "You're offline." });

    /** The banner sits under the header, at the top of the page and once scrolled (where it can be): it never covers it. */
    async function expectBannerBelowHeader() {
      const room = await page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
      for (const scrollY of room > 0 ? [0, Math.min(600, room)] : [0]) {
        await page.evaluate((y) => window.scrollTo(0, y), scrollY);
        await expect.poll(() => page.evaluate(() => Math.round(window.scrollY))).toBe(Math.round(scrollY));
        const header = (await page.getByRole("banner").boundingBox())!;
        const shown = (await banner().boundingBox())!;
        expect(header.y).toBeLessThanOrEqual(0.5);
        expect(shown.y).toBeGreaterThanOrEqual(header.y + header.height - 0.5);
        // And the header is what a thumb at its middle touches.
        const hit = await page.evaluate(({ x, y }) => Boolean(document.elementFromPoint(x, y)?.closest("header")), {
          x: header.x + header.width / 2,
          y: header.y + header.height / 2,
        });
        expect(hit).toBe(true);
      }
      await page.evaluate(() => window.scrollTo(0, 0));
    }

    beforeAll(async () => {
      ({ context } = await newContext(browser, server.url, { ...phone, serviceWorkers: "allow" }));
      page = await context.newPage();
      await page.goto("/");
      await page.locator("article.event-card").first().waitFor();
      await waitForServiceWorker(page);
      // The worker's activation fetches the list and pictures; give its cache a moment to fill.
      await waitUntil(
        () => page.evaluate(async () => Boolean(await (await caches.open("events")).match("/api/get-events"))),
        "the event list in the service worker's cache",
      );
      await context.setOffline(true);
    });
    afterAll(async () => {
      await context?.close();
    });

    it("opens the home page with the event list and pictures, and says it is offline", async () => {
      await page.reload();
      await page.getByRole("heading", { name: "Upcoming Events" }).waitFor();
      await page.locator("article.event-card").first().waitFor();
      await expect.poll(() => page.locator("article.event-card").count()).toBe(5);
      await expect.poll(() => page.getByText("You're offline.").isVisible()).toBe(true);
      // What is true on this page: the saved events show, and booking waits for a connection.
      await expect
        .poll(() => banner().textContent())
        .toBe("You're offline. These are the events saved on this phone. Booking needs a connection.");
      await expectBannerBelowHeader();
      const firstImageLoaded = await page
        .locator("article.event-card img")
        .first()
        .evaluate((img: HTMLImageElement) =>
          img
            .decode()
            .then(() => img.naturalWidth > 0)
            .catch(() => false),
        );
      expect(firstImageLoaded).toBe(true);
      await expectAccessible(page, "the home page offline");
    });

    it("opens other pages from the cached shell", async () => {
      await page.goto("/tickets");
      await page.locator("main").waitFor();
      await expect.poll(() => page.locator("main h1").count()).toBeGreaterThan(0);
      await expect.poll(() => page.getByText("Unexpected Application Error!").count()).toBe(0);
      // My tickets: saved tickets need no connection.
      await expect
        .poll(() => banner().textContent())
        .toBe("You're offline. Your saved tickets still work, QR code and all.");
      await expectAccessible(page, "My tickets offline");
    });

    it("says on a booking page that booking needs a connection", async () => {
      await page.goto("/otp-verification");
      await page.locator("main").waitFor();
      await expect
        .poll(() => banner().textContent())
        .toBe("You're offline. Booking needs a connection: this step carries on once you're back online.");
      await expectBannerBelowHeader();
      await expectAccessible(page, "a booking page offline");
    });
  });

  describe("a feedback page on patchy venue Wi-Fi", () => {
    let context: BrowserContext;
    let page: Page;
    let eventId: number;
    let me: number;
    const partners: Record<string, number> = {};
    const dbPath = () => `${server.dataDir}/app.db`;
    const storedFeedback = () => {
      const db = openDatabase(dbPath());
      try {
        return db.select().from(feedback).where(eq(feedback.eventId, eventId)).all();
      } finally {
        db.$client.close();
      }
    };

    beforeAll(async () => {
      const db = openDatabase(dbPath());
      const uploads = `${server.dataDir}/uploads`;
      const event = await insertEvent(db, uploads, { name: "Venue Night" });
      db.update(events).set({ status: "started" }).where(eq(events.id, event.id)).run();
      eventId = event.id;
      me = insertPaidBookings(db, eventId, 1, { name: "Meera", gender: "female" })[0]!.userId;
      for (const [i, name] of ["Rohan", "Kabir"].entries()) {
        const [p] = insertPaidBookings(db, eventId, 1, { name, gender: "male" });
        const photo = await storeImage(uploads, await makeImage("jpeg", 900, 900, { r: 40 + i * 90, g: 80, b: 160 }));
        db.update(users).set(photo).where(eq(users.id, p!.userId)).run();
        partners[name] = p!.userId;
      }
      db.$client.close();

      ({ context } = await newContext(browser, server.url, { ...phone, serviceWorkers: "allow" }));
      page = await context.newPage();
      const token = feedbackToken({ SESSION_SECRET: "e2e-secret-e2e-secret-e2e-secret-012345" }, "start", me, eventId);
      await page.goto(`/ParticipantFeedback?par1=${me}&par2=${eventId}&t=${token}`);
      await page.locator("article.partner-card").first().waitFor();
      await waitForServiceWorker(page);
      // The page keeps its partners' thumbnails for offline use; wait until both are stored.
      await waitUntil(
        () => page.evaluate(async () => (await (await caches.open("images")).keys()).length >= 2),
        "the partner photos in the image cache",
      );
      await context.setOffline(true);
    });
    afterAll(async () => {
      await context?.close();
    });

    const card = (name: string) => page.locator("article.partner-card", { hasText: name });

    it("reloads offline with the partners and their photos", async () => {
      await page.reload();
      await page.getByRole("heading", { name: "Your Partners" }).waitFor();
      // Rating works offline: the banner says the taps wait on the phone, not that anything is lost.
      await expect
        .poll(() => page.locator(".offline-indicator").textContent())
        .toBe("You're offline. Your likes are saved on this phone and will sync when you're back online.");
      await card("Kabir").waitFor();
      await expect.poll(() => page.locator("article.partner-card").count()).toBe(2);
      const photosShown = await page.locator("article.partner-card img").evaluateAll((imgs) =>
        Promise.all(
          (imgs as HTMLImageElement[]).map((img) =>
            img
              .decode()
              .then(() => img.naturalWidth > 0)
              .catch(() => false),
          ),
        ),
      );
      expect(photosShown).toEqual([true, true]);
    });

    it("keeps offline taps waiting, then sends them once, the last tap winning", async () => {
      await card("Rohan").getByRole("button", { name: "Like", exact: true }).click();
      await card("Kabir").getByRole("button", { name: "Like", exact: true }).click();
      await card("Kabir").getByRole("button", { name: "Dislike", exact: true }).click();
      // The highlight follows as soon as the tap is on the device (an IndexedDB write, not the network).
      await expect
        .poll(() => card("Kabir").getByRole("button", { name: "Dislike", exact: true }).getAttribute("aria-pressed"))
        .toBe("true");
      await page.getByText("2 choices waiting to sync").waitFor();
      // A reload while still offline loses nothing: the taps are on the device.
      await page.reload();
      await page.getByText("2 choices waiting to sync").waitFor();
      expect(storedFeedback()).toEqual([]);

      await context.setOffline(false);
      await page.getByText("All choices saved").waitFor({ timeout: 30_000 });
      const rows = storedFeedback()
        .map((r) => ({ from: r.fromUserId, to: r.toUserId, value: r.value }))
        .sort((a, b) => a.to - b.to);
      expect(rows).toEqual(
        [
          { from: me, to: partners.Rohan, value: "like" },
          { from: me, to: partners.Kabir, value: "dislike" },
        ].sort((a, b) => a.to! - b.to!),
      );
    });
  });
});
