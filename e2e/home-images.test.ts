import type { Browser, Page, Request } from "playwright-core";
import { describe, expect, it } from "vitest";
import { storeImage } from "../api/booking/images.ts";
import { openDatabase } from "../db/client.ts";
import { cameraPhoto } from "../test/camera-photo.ts";
import { yearLike } from "../test/clock.ts";
import { insertEvent } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, newContext, noBrowser, phone, waitUntil } from "./harness.ts";
import { waitForServiceWorker } from "./page-checks.ts";

// Dates in a year laid out like 2031, always ahead of the clock (test/clock.ts).
const Y = yearLike(2031);
const EVENTS = 10;

/** An organiser's real photo: 1600 × 1067 with detail and grain, a few hundred KB as a JPEG. */
const organiserPhoto = (seed: number) => cameraPhoto(seed, { width: 1600, height: 1067 });

const test = browserSuite();

describe.skipIf(noBrowser)("the home page's pictures", () => {
  let server: AppServer;
  let browser: Browser;
  let pictures: string[];

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    const db = openDatabase(`${server.dataDir}/app.db`);
    pictures = [];
    for (let i = 0; i < EVENTS; i++) {
      const photo = await organiserPhoto(i + 1);
      const { imageName } = await storeImage(`${server.dataDir}/uploads`, photo);
      pictures.push(imageName);
      await insertEvent(db, `${server.dataDir}/uploads`, {
        name: `Picture Night ${i + 1}`,
        startsAt: Date.UTC(Y, 3, 1 + i, 19, 0),
        imageName,
      });
    }
    db.$client.close();
  }, 120_000);

  /** Opens the home page, brings every card's picture on screen and waits until each shows. */
  async function showEveryPicture(page: Page) {
    const cards = page.locator("article.event-card:not(.skeleton)");
    await expect.poll(() => cards.count()).toBe(EVENTS);
    for (let i = 0; i < EVENTS; i++) {
      const img = cards.nth(i).locator("img").first();
      await img.scrollIntoViewIfNeeded();
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
    }
  }

  // Issue 46, item 22. This suite replaces "fetches each event picture once, as WebP, and never its
  // JPEG", which watched the page's <img> requests only: the offline cache's fetches of every original
  // JPEG (the page's and the service worker's) went unseen.
  it("fetches each of ten 1600 px pictures once, as the card's WebP, keeps that copy, and shows it offline", async () => {
    const { context, pageErrors } = await newContext(browser, server.url, { ...phone, serviceWorkers: "allow" });
    // Page and service worker together; a page request the service worker answered from its cache
    // went nowhere, so only what reached the network (or the browser's HTTP cache) is counted.
    const fetched: string[] = [];
    context.on("requestfinished", (request: Request) => {
      const url = new URL(request.url());
      if (!url.pathname.startsWith("/api/images/")) return;
      void request.response().then((response) => {
        if (response?.fromServiceWorker()) return;
        fetched.push(`${request.serviceWorker() ? "worker" : "page"} ${url.pathname}${url.search}`);
      });
    });
    const page = await context.newPage();
    await page.goto("/");
    await showEveryPicture(page);
    await waitForServiceWorker(page);
    await waitUntil(
      () => page.evaluate(async () => Boolean(await (await caches.open("events")).match("/api/get-events"))),
      "the event list in the service worker's cache",
    );
    // Every picture is kept for offline, as the copy the card shows.
    await expect
      .poll(() =>
        page.evaluate(async () =>
          (await (await caches.open("images")).keys()).map((r) => new URL(r.url).pathname + new URL(r.url).search),
        ),
      )
      .toHaveLength(EVENTS);
    const kept = await page.evaluate(async () =>
      (await (await caches.open("images")).keys()).map((r) => new URL(r.url).pathname + new URL(r.url).search),
    );

    // One request per picture, each the WebP width the card shows (`?w=`), never the original JPEG.
    expect(
      fetched.filter((line) => !line.includes("?w=")),
      "no original fetched",
    ).toEqual([]);
    expect(fetched, "one request per picture").toHaveLength(EVENTS);
    const names = fetched.map((line) => decodeURIComponent(line.replace(/^.*\/api\/images\/([^?]+).*$/, "$1")));
    expect(new Set(names)).toEqual(new Set(pictures));
    expect(new Set(kept)).toEqual(new Set(fetched.map((line) => line.replace(/^\w+ /, ""))));

    // Offline, the cards show those copies.
    await context.setOffline(true);
    await page.reload();
    await showEveryPicture(page);
    expect(fetched, "nothing more fetched offline").toHaveLength(EVENTS);
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 180_000);
});
