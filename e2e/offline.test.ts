import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AppServer,
  launchBrowser,
  launchProfileContext,
  newContext,
  noBrowser,
  startAppServer,
  waitUntil,
} from "./harness.ts";

/** Waits until the service worker is installed, active and controlling the page. */
async function waitForServiceWorker(page: Page) {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) {
      await new Promise<void>((resolve) =>
        navigator.serviceWorker.addEventListener("controllerchange", () => resolve(), { once: true }),
      );
    }
  });
}

describe.skipIf(noBrowser)("installable and offline", () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    // The demo events, as a newcomer's `npm start` would have them.
    server = await startAppServer({ SEED_DEMO: "1" });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
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

    beforeAll(async () => {
      ({ context } = await newContext(browser, server.url));
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
      expect(await page.locator("article.event-card").count()).toBe(5);
      expect(await page.getByText("You're offline.").isVisible()).toBe(true);
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
    });

    it("opens other pages from the cached shell", async () => {
      await page.goto("/tickets");
      await page.locator("main").waitFor();
      expect(await page.locator("main h1").count()).toBeGreaterThan(0);
      expect(await page.getByText("Unexpected Application Error!").count()).toBe(0);
    });
  });
});
