import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { makeWalletKeys } from "../test/fakes/wallet-keys.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, newContext, noBrowser, phone, signInAsOrganiser, startAppServer } from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks.ts";
import { addEvent, bookAndPay, signInOnMe } from "./steps.ts";

// The wallet buttons at phone size (issue 50, docs/decisions/054-wallet-buttons.md): on the ticket
// page and in My nights, only with the wallets' keys, in the phone's own order; Apple's downloads the
// pass, Google's goes to Google's save page (answered here by page.route, so nothing leaves the
// machine); the email's Google link goes the same way; the desk warns of a certificate near its end.

const SESSION_SECRET = "e2e-wallet-secret-e2e-wallet-secret-0123456";
const DAY = 24 * 60 * 60 * 1000;
// The pass certificate ends in 10 days: the desk's warning shows.
const keys = makeWalletKeys({ certificateDays: 10 });
const test = browserSuite({ serverEnv: { SESSION_SECRET, ...keys.env } });

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1";
const ANDROID =
  "Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
const SAVE_PAGE = /^https:\/\/pay\.google\.com\/gp\/v\/save\/[\w-]+\.[\w-]+\.[\w-]+$/;

/** Google's save page, answered in the browser: the test sees where the phone went, Google sees nothing. */
async function standInForGoogle(page: Page) {
  await page.route("https://pay.google.com/**", (route) =>
    route.fulfill({
      status: 200,
      contentType: "text/html",
      body: '<!doctype html><html lang="en"><title>Google Wallet</title><p>Saved</p></html>',
    }),
  );
}

/** The badges' names, in order: each badge is its wallet's artwork, named by the image's alternative text. */
const badgeNames = (page: Page, article: string) =>
  page
    .getByRole("article", { name: article })
    .locator(".wallet-badge")
    .evaluateAll((els) => els.map((el) => el.querySelector("img")?.alt));

describe.skipIf(noBrowser)("the wallet buttons", () => {
  let server: AppServer;
  let browser: Browser;
  let eventId: number;

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    eventId = (
      await addEvent(server, {
        name: "Harbour Lights Mixer",
        startsAt: Date.now() + 9 * DAY,
        address: "1 George St, Sydney NSW 2000",
      })
    ).id;
  });

  it("on an iPhone: Apple's first; it downloads the pass; Google's goes to the save link, and says so offline", async () => {
    const booking = await bookAndPay(server, SESSION_SECRET, eventId, "Meera Iyer");
    const { context, pageErrors } = await newContext(browser, server.url, {
      ...phone,
      userAgent: IPHONE,
      serviceWorkers: "allow",
    });
    const page = await context.newPage();
    await standInForGoogle(page);
    await page.goto(booking.linkPath);
    const ticket = page.getByRole("article", { name: "Ticket for Harbour Lights Mixer" });
    await ticket.waitFor();
    await expect
      .poll(() => badgeNames(page, "Ticket for Harbour Lights Mixer"))
      .toEqual(["Add to Apple Wallet", "Add to Google Wallet"]);
    const bookingId = new URL(booking.linkPath, server.url).searchParams.get("add");
    const apple = ticket.getByRole("link", { name: "Add to Apple Wallet", exact: true });
    const href = (await apple.getAttribute("href")) ?? "";
    expect(href).toMatch(new RegExp(`^/api/wallet/apple/${bookingId}\\?t=[\\w-]+$`));
    // The artwork is Apple's and Google's own (from @neostore/cinto), served by the app itself, drawn.
    await expect
      .poll(() =>
        ticket
          .locator(".wallet-badge img")
          .evaluateAll((imgs) =>
            (imgs as HTMLImageElement[]).map(
              (img) => new URL(img.src).origin === location.origin && img.src.endsWith(".svg") && img.naturalWidth > 0,
            ),
          ),
      )
      .toEqual([true, true]);
    await expectAccessible(page, "the ticket with its wallet buttons");
    await expectNoSidewaysScroll(page);

    // Apple's: the pass itself, as Wallet takes it.
    const [download] = await Promise.all([page.waitForEvent("download"), apple.click()]);
    expect(download.suggestedFilename()).toMatch(/\.pkpass$/);
    const pass = await page.evaluate(async (url) => {
      const response = await fetch(url);
      return { status: response.status, type: response.headers.get("content-type") };
    }, href);
    expect(pass).toEqual({ status: 200, type: "application/vnd.apple.pkpass" });

    // Google's, offline: said plainly, and the ticket is still there.
    const google = ticket.getByRole("button", { name: "Add to Google Wallet", exact: true });
    await context.setOffline(true);
    await google.click();
    await ticket.getByText("Adding to Google Wallet needs a connection.", { exact: false }).waitFor();
    await expect.poll(() => ticket.locator(".ticket-code").textContent()).toBe(booking.uniqueCode);
    await context.setOffline(false);

    // Online, with the keyboard alone: Tab to it, Enter, and the phone is on Google's save page.
    await page.locator("body").focus();
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press("Tab");
      const focused = await page.evaluate(() => document.activeElement?.querySelector("img")?.alt);
      if (focused === "Add to Google Wallet") break;
    }
    await page.keyboard.press("Enter");
    await page.waitForURL(SAVE_PAGE);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("on Android: Google's first; the email's Google link opens the ticket and goes on to Google", async () => {
    const booking = await bookAndPay(server, SESSION_SECRET, eventId, "Rohan Mehta");
    const { context, pageErrors } = await newContext(browser, server.url, { ...phone, userAgent: ANDROID });
    const page = await context.newPage();
    await standInForGoogle(page);
    await page.goto("/tickets");
    await page.getByText("No tickets are saved on this device yet.", { exact: false }).waitFor();
    // The ticket email's link: the ticket link with &wallet=google.
    await page.goto(`${booking.linkPath}&wallet=google`);
    await page.waitForURL(SAVE_PAGE);
    // Back on the ticket (saved by then): Google's badge first.
    await page.goto("/tickets");
    await expect
      .poll(() => badgeNames(page, "Ticket for Harbour Lights Mixer"))
      .toEqual(["Add to Google Wallet", "Add to Apple Wallet"]);
    await expectAccessible(page, "the saved ticket on Android");
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("in My nights, each upcoming ticket has both buttons", async () => {
    const booking = await bookAndPay(server, SESSION_SECRET, eventId, "Anika Rao");
    const { context, pageErrors } = await newContext(browser, server.url, { ...phone, userAgent: IPHONE });
    const page = await context.newPage();
    await page.goto("/me");
    await signInOnMe(page, server.url, booking.phone);
    const ticket = page.getByRole("article", { name: "Ticket for Harbour Lights Mixer" });
    await ticket.waitFor();
    await expect
      .poll(() => badgeNames(page, "Ticket for Harbour Lights Mixer"))
      .toEqual(["Add to Apple Wallet", "Add to Google Wallet"]);
    await expectAccessible(page, "My nights with the wallet buttons");
    await expectNoSidewaysScroll(page);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("the desk warns that the Apple Wallet certificate expires soon", async () => {
    const { context, pageErrors } = await newContext(browser, server.url, phone);
    const page = await context.newPage();
    await signInAsOrganiser(page);
    const warning = page.getByRole("status").filter({ hasText: "The Apple Wallet certificate expires on" });
    await warning.waitFor();
    expect(await warning.textContent()).toContain(
      "Passes already issued keep working until then; renew it to keep issuing new ones.",
    );
    await expectAccessible(page, "the desk with the certificate warning");
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("without the wallets' keys: no button on the ticket or in My nights, and no warning on the desk", async () => {
    const bare = await startAppServer({ SEED_DEMO: "0", SESSION_SECRET });
    try {
      const event = await addEvent(bare, { name: "Quiet Night", startsAt: Date.now() + 5 * DAY });
      const booking = await bookAndPay(bare, SESSION_SECRET, event.id, "Dev Kumar");
      const { context, pageErrors } = await newContext(browser, bare.url, { ...phone, userAgent: IPHONE });
      const page = await context.newPage();
      const config = page.waitForResponse((r) => r.url().endsWith("/api/public-config"));
      await page.goto(booking.linkPath);
      await page.getByRole("article", { name: "Ticket for Quiet Night" }).waitFor();
      await config;
      await page.getByRole("button", { name: "Add to calendar" }).waitFor();
      expect(await page.locator(".wallet-badge").count()).toBe(0);
      await page.goto("/me");
      await signInOnMe(page, bare.url, booking.phone);
      await page.getByRole("article", { name: "Ticket for Quiet Night" }).waitFor();
      expect(await page.locator(".wallet-badge").count()).toBe(0);

      await signInAsOrganiser(page);
      await page.getByRole("table").first().waitFor();
      expect(await page.getByText("Apple Wallet certificate").count()).toBe(0);
      expect(pageErrors).toEqual([]);
      await context.close();
    } finally {
      await bare.stop();
    }
  });
});
