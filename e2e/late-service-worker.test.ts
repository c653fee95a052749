import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, newContext, noBrowser, phone } from "./harness.ts";
import { waitForServiceWorker } from "./page-checks.ts";

// The service worker's registration and the update prompt load after the first load has settled
// (pwa/app/update-prompt-after-load.tsx, docs/decisions/007-scale.md). A phone whose connection drops in those seconds (patchy
// venue Wi-Fi) must not get a page error, and must still register the service worker once it is back
// online. Found by CI: the deferred chunk's fetch failed offline and threw on the page (and a browser
// keeps a failed module fetch, so that visit would never have registered the service worker).

const test = browserSuite();

describe.skipIf(noBrowser)("the deferred service worker on a connection that drops", () => {
  let server: AppServer;
  let browser: Browser;

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
  });

  it("throws nothing when the connection is gone at that moment, and registers once it is back", async () => {
    const { context, pageErrors } = await newContext(browser, server.url, { ...phone, serviceWorkers: "allow" });
    // The page's timers are moved by the test, never waited for: the clock stands still from the
    // start (an installed clock otherwise flows, and on a busy machine the page's load took longer
    // than the pause after it, so the registration had already happened when the test looked).
    await context.clock.install();
    await context.clock.pauseAt(Date.now() + 1_000);
    const page = await context.newPage();
    await page.goto("/");
    await page.getByRole("heading", { level: 1 }).first().waitFor();
    await page.evaluate(
      () =>
        new Promise((resolve) =>
          document.readyState === "complete" ? resolve(null) : window.addEventListener("load", resolve, { once: true }),
        ),
    );
    expect(await page.evaluate(() => navigator.serviceWorker.getRegistrations().then((r) => r.length))).toBe(0);

    const asked: string[] = [];
    page.on("request", (r) => {
      if (r.url().includes("update-prompt")) asked.push(r.url());
    });
    await context.setOffline(true);
    await page.waitForFunction(() => !navigator.onLine);
    // Past the pause after load and the idle callback's timeout: offline, the chunk waits (a failed
    // module fetch would be kept by the browser for the page's whole life).
    await context.clock.runFor(10_000);
    expect(asked).toEqual([]);
    expect(await page.evaluate(() => navigator.serviceWorker.getRegistrations().then((r) => r.length))).toBe(0);

    // Back online, the prompt's chunk comes and registers the service worker.
    const fetched = page.waitForResponse((r) => r.url().includes("update-prompt") && r.ok());
    await context.setOffline(false);
    await fetched;
    await waitForServiceWorker(page);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
