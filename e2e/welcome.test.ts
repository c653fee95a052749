import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, desktop, freePort, launchBrowser, newContext, noBrowser, startAppServer } from "./harness.ts";

describe.skipIf(noBrowser)("landing page at /welcome", () => {
  let server: AppServer;
  let browser: Browser;
  let baseUrl: string;
  let scriptUrl: string;

  beforeAll(async () => {
    // The slim script's address must be known before start-up, so the port is chosen here and the
    // address sits on the server's own origin, where each test intercepts it: nothing leaves the machine.
    const port = await freePort();
    baseUrl = `http://localhost:${port}`;
    scriptUrl = `${baseUrl}/third-party/navbar.slim.js`;
    server = await startAppServer({
      SEED_DEMO: "0",
      PORT: String(port),
      PUBLIC_BASE_URL: baseUrl,
      NAVBAR_SCRIPT_URL: scriptUrl,
      COMPANY_SITE_URL: "https://company.example/",
      SUPPORT_EMAIL: "help@company.example",
    });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** Fulfils the third-party script locally and refuses anything bound for another host. */
  async function offlineContext(device?: Parameters<typeof newContext>[2]) {
    const { context, pageErrors } = await newContext(browser, baseUrl, device);
    const outside: string[] = [];
    await context.route(
      (url) => url.origin !== baseUrl,
      (route) => {
        outside.push(route.request().url());
        return route.abort();
      },
    );
    await context.route(scriptUrl, (route) =>
      route.fulfill({
        contentType: "text/javascript",
        body: "window.__navbarScriptRan = (window.__navbarScriptRan || 0) + 1;",
      }),
    );
    return { context, pageErrors, outside };
  }

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
    await expect
      .poll(() => page.getByRole("link", { name: "My tickets", exact: true }).getAttribute("href"))
      .toBe("/tickets");
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
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);

    // The third-party script: in the document after mount, run once, and gone after leaving in-app.
    const script = page.locator(`script[src="${scriptUrl}"]`);
    await expect.poll(() => script.count(), { timeout: 15_000 }).toBe(1);
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __navbarScriptRan?: number }).__navbarScriptRan), {
        timeout: 15_000,
      })
      .toBe(1);
    await toggle.click();
    await upcoming.click();
    await page.getByRole("heading", { name: "Upcoming Events" }).waitFor();
    expect(new URL(page.url()).pathname).toBe("/");
    await expect.poll(() => script.count()).toBe(0);

    expect(pageErrors).toEqual([]);
    expect(outside).toEqual([]);
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

    await page.getByRole("link", { name: "See upcoming events" }).click();
    await page.getByRole("heading", { name: "Upcoming Events" }).waitFor();
    await expect.poll(() => page.locator(`script[src="${scriptUrl}"]`).count()).toBe(0);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
