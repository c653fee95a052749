import { createHash } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { browserSuite } from "./fixtures.ts";
import { desktop, freePort, newContext, noBrowser, phone } from "./harness.ts";
import { consoleErrorsOf, expectAccessible, expectNoSidewaysScroll, keptDrawn, markDrawn } from "./page-checks.ts";

/** The third-party script as the CDN should serve it; the server pins these exact bytes by their hash. */
const SCRIPT_BODY = "window.__navbarScriptRan = (window.__navbarScriptRan || 0) + 1;";
const SCRIPT_INTEGRITY = `sha384-${createHash("sha384").update(SCRIPT_BODY).digest("base64")}`;

let baseUrl: string;
let scriptOrigin: string;
let scriptUrl: string;

const test = browserSuite({
  // The slim script's address must be known before start-up, so the port is chosen here. It sits
  // on another origin (127.0.0.1 against the page's localhost), as a CDN would, so the CSP's
  // exact-URL rule and the cross-origin integrity check both really run; each test intercepts it,
  // and nothing leaves the machine.
  serverEnv: async () => {
    const port = await freePort();
    baseUrl = `http://localhost:${port}`;
    scriptOrigin = `http://127.0.0.1:${port}`;
    scriptUrl = `${scriptOrigin}/third-party/navbar.slim.js`;
    return {
      PORT: String(port),
      PUBLIC_BASE_URL: baseUrl,
      NAVBAR_SCRIPT_URL: scriptUrl,
      NAVBAR_SCRIPT_INTEGRITY: SCRIPT_INTEGRITY,
      COMPANY_SITE_URL: "https://company.example/",
      SUPPORT_EMAIL: "help@company.example",
    };
  },
});

describe.skipIf(noBrowser)("landing page at /welcome", () => {
  let browser: Browser;

  // The server is asked for so that it starts; the tests reach it at baseUrl.
  test.beforeAll(async ({ server: _server, browser: fileBrowser }) => {
    browser = fileBrowser;
  });

  /**
   * Fulfils the third-party script locally (with `body`, the genuine bytes unless a test tampers with
   * them) and refuses anything bound for another host. `scriptRequests` counts fetches of the script.
   */
  async function offlineContext(device?: Parameters<typeof newContext>[2], body = SCRIPT_BODY) {
    const { context, pageErrors } = await newContext(browser, baseUrl, device);
    const outside: string[] = [];
    const scriptRequests: string[] = [];
    await context.route(
      (url) => url.origin !== baseUrl,
      (route) => {
        outside.push(route.request().url());
        return route.abort();
      },
    );
    await context.route(scriptUrl, (route) => {
      scriptRequests.push(route.request().frame().url());
      return route.fulfill({
        contentType: "text/javascript",
        // A CDN answers cross-origin requests so the browser can check the integrity hash.
        headers: { "access-control-allow-origin": "*" },
        body,
      });
    });
    return { context, pageErrors, outside, scriptRequests };
  }

  const navbarScriptRan = (page: Page) =>
    page.evaluate(() => (window as unknown as { __navbarScriptRan?: number }).__navbarScriptRan ?? 0);

  it("shows the hero video, links and menu, and adds the slim script only while mounted", async () => {
    const { context, pageErrors, outside } = await offlineContext();
    const page = await context.newPage();
    await page.goto("/welcome");

    await expect.poll(() => page.getByRole("heading", { level: 1, name: "Date a step Deeper" }).isVisible()).toBe(true);

    const video = page.locator("video");
    const attrs = await video.evaluate((v: HTMLVideoElement) => ({
      muted: v.muted,
      mutedAttribute: v.hasAttribute("muted"),
      loop: v.loop,
      autoplay: v.autoplay,
      playsInline: v.playsInline,
      width: v.getAttribute("width"),
      poster: v.getAttribute("poster"),
    }));
    expect(attrs).toEqual({
      muted: true,
      mutedAttribute: true,
      loop: true,
      autoplay: true,
      playsInline: true,
      width: "1075",
      poster: "/landing/hero-poster.jpg",
    });
    // The clip is really served and plays by itself.
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime > 0 && !v.paused), { timeout: 15_000 })
      .toBe(true);
    expect(await video.evaluate((v: HTMLVideoElement) => new URL(v.currentSrc).pathname)).toMatch(
      /^\/landing\/hero\.(webm|mp4)$/,
    );

    const logo = page.getByRole("link", { name: "Saathi Speed Dating company website" });
    await expect.poll(() => logo.getAttribute("href")).toBe("https://company.example/");

    const mail = page.getByRole("link", { name: "help@company.example" });
    await expect.poll(() => mail.getAttribute("href")).toBe("mailto:help@company.example");
    await expect.poll(() => mail.isVisible()).toBe(true);

    // The collapsible menu: closed at first, opened and closed again by its toggle.
    const toggle = page.getByRole("button", { name: "Menu" });
    const upcoming = page.getByRole("link", { name: "Upcoming events", exact: true });
    const controls = await toggle.getAttribute("aria-controls");
    expect(controls).toBeTruthy();
    await expect
      .poll(() => page.locator(`[id="${controls}"]`).getByRole("link", { includeHidden: true }).count())
      .toBe(3);
    await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("false");
    await expect.poll(() => upcoming.isVisible()).toBe(false);
    await toggle.click();
    await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("true");
    await expect.poll(() => upcoming.isVisible()).toBe(true);
    await expectAccessible(page, "the landing page with its menu open");
    await expect
      .poll(() => page.getByRole("link", { name: "My tickets", exact: true }).getAttribute("href"))
      .toBe("/me");
    expect(await page.getByRole("link", { name: "Our main site", exact: true }).getAttribute("href")).toBe(
      "https://company.example/",
    );
    await toggle.click();
    await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("false");
    await expect.poll(() => upcoming.isVisible()).toBe(false);
    // Escape closes it too.
    await toggle.click();
    await page.keyboard.press("Escape");
    await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("false");

    // A 1075-wide video must not make a phone scroll sideways.
    await expectNoSidewaysScroll(page);

    // The third-party script: in the document after mount, pinned by its hash, run once, and gone
    // after leaving in-app.
    const script = page.locator(`script[src="${scriptUrl}"]`);
    await expect.poll(() => script.count(), { timeout: 15_000 }).toBe(1);
    expect(await script.getAttribute("integrity")).toBe(SCRIPT_INTEGRITY);
    expect(await script.getAttribute("crossorigin")).toBe("anonymous");
    await expect.poll(() => navbarScriptRan(page), { timeout: 15_000 }).toBe(1);
    await toggle.click();
    await upcoming.click();
    await page.getByRole("heading", { name: "Upcoming Events" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    await expect.poll(() => script.count()).toBe(0);

    expect(pageErrors).toEqual([]);
    expect(outside).toEqual([]);
    await context.close();
  });

  it("paints its first screen from the HTML, and the code takes that screen over in place", async () => {
    // Without any code: the hero's heading, line and call to action come with the HTML, over the poster.
    const still = await offlineContext({ ...phone, javaScriptEnabled: false });
    const html = await still.context.newPage();
    await html.goto("/welcome");
    await expect.poll(() => html.getByRole("heading", { level: 1, name: "Date a step Deeper" }).isVisible()).toBe(true);
    await expect.poll(() => html.getByRole("link", { name: "See upcoming events" }).getAttribute("href")).toBe("/");
    expect(await html.locator("video").count()).toBe(0);
    await still.context.close();

    // With the code: the heading the HTML drew is the element the running page keeps (hydrated, not
    // drawn again), the menu works, and the clip joins the poster.
    const { context, pageErrors } = await offlineContext();
    const consoleErrors = consoleErrorsOf(context);
    const page = await context.newPage();
    await markDrawn(page, "#landing-heading");
    await page.goto("/welcome");
    await expect.poll(() => page.getByRole("link", { name: "help@company.example" }).isVisible()).toBe(true);
    const toggle = page.getByRole("button", { name: "Menu" });
    await toggle.click();
    await expect.poll(() => toggle.getAttribute("aria-expanded")).toBe("true");
    await expect.poll(() => page.locator("video").count()).toBe(1);
    expect(await keptDrawn(page, "#landing-heading")).toBe(true);
    expect(pageErrors).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await context.close();
  });

  it("keeps the video still for visitors who ask for reduced motion", async () => {
    const { context, pageErrors } = await offlineContext();
    const page = await context.newPage();
    await page.emulateMedia({ reducedMotion: "reduce" });
    await page.goto("/welcome");
    await page.getByRole("heading", { name: "Date a step Deeper" }).waitFor();
    const video = page.locator("video");
    await expect.poll(() => video.isVisible()).toBe(false);
    expect(await video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
    await expect.poll(() => page.getByRole("link", { name: "See upcoming events" }).getAttribute("href")).toBe("/");

    // Turning the setting off while the page is open starts the clip.
    await page.emulateMedia({ reducedMotion: "no-preference" });
    await expect
      .poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused && v.currentTime > 0), { timeout: 15_000 })
      .toBe(true);
    await expect.poll(() => video.isVisible()).toBe(true);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("shows the whole menu without a toggle on a wide screen, and the call to action leads to the events", async () => {
    const { context, pageErrors } = await offlineContext({
      ...desktop,
      isMobile: false,
      hasTouch: false,
      deviceScaleFactor: 1,
    });
    const page = await context.newPage();
    await page.goto("/welcome");
    await page.getByRole("heading", { name: "Date a step Deeper" }).waitFor();
    await expect.poll(() => page.getByRole("button", { name: "Menu" }).isVisible()).toBe(false);
    await expect.poll(() => page.getByRole("link", { name: "Upcoming events", exact: true }).isVisible()).toBe(true);
    await expect
      .poll(() => page.getByRole("link", { name: "Our main site", exact: true }).isVisible(), { timeout: 15_000 })
      .toBe(true);
    await expectAccessible(page, "the landing page on a wide screen");

    await page.getByRole("link", { name: "See upcoming events" }).click();
    await page.getByRole("heading", { name: "Upcoming Events" }).waitFor();
    await expect.poll(() => page.locator(`script[src="${scriptUrl}"]`).count()).toBe(0);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("refuses to run a tampered copy of the third-party script", async () => {
    const { context, pageErrors, outside, scriptRequests } = await offlineContext(
      undefined,
      "window.__navbarScriptRan = 1000; /* swapped on the CDN */",
    );
    const page = await context.newPage();
    // Chromium names the blocked file in one console line; waiting for it is waiting for the check.
    const blocked = page.waitForEvent("console", {
      predicate: (message) => message.text().includes("integrity") && message.text().includes(scriptUrl),
      timeout: 20_000,
    });
    await page.goto("/welcome");
    await page.getByRole("heading", { name: "Date a step Deeper" }).waitFor();
    expect((await blocked).text()).toMatch(/blocked/i);
    // The browser fetched the file, checked it against the hash and never ran it.
    expect(scriptRequests).toHaveLength(1);
    expect(await navbarScriptRan(page)).toBe(0);
    expect(pageErrors).toEqual([]);
    expect(outside).toEqual([]);
    await context.close();
  });

  it("allows that one file of the other origin, not the rest of it", async () => {
    const { context, pageErrors, outside } = await offlineContext();
    const page = await context.newPage();
    await page.goto("/welcome");
    await expect.poll(() => navbarScriptRan(page), { timeout: 15_000 }).toBe(1);
    const other = `${scriptOrigin}/third-party/other.js`;
    const outcome = await page.evaluate(
      (src) =>
        new Promise<string>((resolve) => {
          const element = document.createElement("script");
          element.src = src;
          element.onload = () => resolve("load");
          element.onerror = () => resolve("error");
          document.body.append(element);
        }),
      other,
    );
    expect(outcome).toBe("error");
    // Refused by the page's policy before any request: it never reached the network (or our routes).
    expect(outside).toEqual([]);
    expect(pageErrors).toEqual([expect.stringContaining("Content Security Policy")]);
    expect(pageErrors[0]).toContain(other);
    await context.close();
  });

  it("never loads the third-party script on the home page or the tickets page", async () => {
    const { context, pageErrors, outside, scriptRequests } = await offlineContext();
    const page = await context.newPage();
    const loadedHere = () =>
      page.evaluate(
        (src) =>
          document.querySelectorAll(`script[src="${src}"]`).length +
          performance.getEntriesByType("resource").filter((entry) => entry.name === src).length,
        scriptUrl,
      );

    await page.goto("/");
    await page.getByRole("heading", { name: "Upcoming Events" }).waitFor();
    expect(await loadedHere()).toBe(0);
    await page.goto("/tickets");
    await page.getByRole("heading", { level: 1, name: "My tickets" }).waitFor();
    expect(await loadedHere()).toBe(0);
    expect(scriptRequests).toEqual([]);

    // The same context does fetch it on the landing page, so the zeros above are not a broken route.
    await page.goto("/welcome");
    await expect.poll(() => scriptRequests.length, { timeout: 15_000 }).toBe(1);
    expect(new URL(scriptRequests[0] ?? "").pathname).toBe("/welcome");
    expect(pageErrors).toEqual([]);
    expect(outside).toEqual([]);
    await context.close();
  });
});
