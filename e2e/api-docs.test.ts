import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, desktop, newContext, noBrowser } from "./harness.ts";

// The API reference (docs/api.md, `GET /api/docs`): Scalar's page drawn from /api/openapi.json with
// the app's own copy of its script. A developer opens it on `npm run dev`; nothing may come from
// another site, and the page's CSP (its one inline script allowed by hash) must let it run.

const test = browserSuite();

describe.skipIf(noBrowser)("the API reference page", () => {
  let server: AppServer;
  let browser: Browser;

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
  });

  it("shows every call's reference from the app's own files", async () => {
    const { context, pageErrors } = await newContext(browser, server.url, desktop);
    const page = await context.newPage();
    const elsewhere: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.origin !== new URL(server.url).origin && url.protocol !== "data:" && url.protocol !== "blob:") {
        elsewhere.push(request.url());
      }
    });
    const documentFetched = page.waitForResponse((r) => r.url().endsWith("/api/openapi.json") && r.status() === 200);
    await page.goto("/api/docs");
    await documentFetched;
    // The document's title, then one call's summary, as Scalar draws them.
    await expect
      .poll(() => page.getByText("Speed dating tickets API").first().isVisible(), { timeout: 30_000 })
      .toBe(true);
    await expect
      .poll(() => page.getByText("Texts a one-time code to a mobile").first().isVisible(), { timeout: 30_000 })
      .toBe(true);
    expect(elsewhere).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
