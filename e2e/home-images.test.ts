import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../db/client.ts";
import { yearLike } from "../test/clock.ts";
import { insertEvent } from "../test/fixtures.ts";
import { type AppServer, launchBrowser, newContext, noBrowser, startAppServer } from "./harness.ts";

// Dates in a year laid out like 2031, always ahead of the clock (test/clock.ts).
const Y = yearLike(2031);
const EVENTS = 4;

/**
 * Before any page script runs: notes every event picture `<img>` whose `src` is set while it does not
 * yet sit in a `<picture>` after a `<source>`. At that moment a browser may start fetching the JPEG
 * (the fallback) although it will show the WebP the `<source>` names.
 */
function watchSrcBeforeSource() {
  const early: string[] = [];
  (window as unknown as { srcBeforeSource: string[] }).srcBeforeSource = early;
  const check = (img: HTMLImageElement, value: string) => {
    if (!value.includes("/api/images/")) return;
    const source = img.parentElement?.tagName === "PICTURE" ? img.parentElement.querySelector("source") : null;
    if (!source?.srcset) early.push(value);
  };
  const descriptor = Object.getOwnPropertyDescriptor(HTMLImageElement.prototype, "src");
  Object.defineProperty(HTMLImageElement.prototype, "src", {
    ...descriptor,
    set(this: HTMLImageElement, value: string) {
      check(this, String(value));
      descriptor?.set?.call(this, value);
    },
  });
  const setAttribute = Element.prototype.setAttribute;
  Element.prototype.setAttribute = function (this: Element, name: string, value: string) {
    if (this instanceof HTMLImageElement && name.toLowerCase() === "src") check(this, String(value));
    setAttribute.call(this, name, value);
  };
}

describe.skipIf(noBrowser)("the home page's pictures", () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startAppServer({ SEED_DEMO: "0" });
    const db = openDatabase(`${server.dataDir}/app.db`);
    for (let i = 0; i < EVENTS; i++) {
      await insertEvent(db, `${server.dataDir}/uploads`, {
        name: `Picture Night ${i + 1}`,
        startsAt: Date.UTC(Y, 3, 1 + i, 19, 0),
      });
    }
    db.$client.close();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Opens the home page, brings every card's picture on screen and waits until each has loaded. */
  async function loadEveryPicture(page: Page) {
    await page.goto("/");
    const cards = page.locator("article.event-card:not(.skeleton)");
    await expect.poll(() => cards.count()).toBe(EVENTS);
    for (let i = 0; i < EVENTS; i++) {
      const img = cards.nth(i).locator("picture img");
      await img.scrollIntoViewIfNeeded();
      await expect.poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
    }
  }

  it("fetches each event picture once, as WebP, and never its JPEG", async () => {
    const { context, pageErrors } = await newContext(browser, server.url);
    await context.addInitScript(watchSrcBeforeSource);
    const page = await context.newPage();
    const requested: string[] = [];
    page.on("request", (request) => {
      if (request.resourceType() !== "image") return;
      const url = new URL(request.url());
      if (url.pathname.startsWith("/api/images/")) requested.push(`${url.pathname}${url.search}`);
    });
    await loadEveryPicture(page);

    // Each card shows a WebP variant (`?w=`) from its <source>.
    const shown = await page
      .locator("article.event-card picture img")
      .evaluateAll((imgs: HTMLImageElement[]) => imgs.map((img) => new URL(img.currentSrc).search));
    expect(shown).toHaveLength(EVENTS);
    for (const search of shown) expect(search).toMatch(/^\?w=\d+$/);

    // The structural guarantee: no picture's src was set before its <source> was in place.
    expect(await page.evaluate(() => (window as unknown as { srcBeforeSource: string[] }).srcBeforeSource)).toEqual([]);
    // What the network saw: no JPEG (the plain address, without a width), and no address twice.
    expect(requested.filter((url) => !url.includes("?w="))).toEqual([]);
    expect(new Set(requested.map((url) => url.replace(/\?.*$/, ""))).size).toBe(EVENTS);
    expect(requested, "one request per picture").toHaveLength(EVENTS);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
