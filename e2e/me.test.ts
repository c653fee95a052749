import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../db/client.ts";
import { insertEvent } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, codeFor, newContext, noBrowser, phone } from "./harness.ts";
import { consoleErrorsOf, expectAccessible, expectNoSidewaysScroll, keptDrawn, markDrawn } from "./page-checks.ts";
import { bookAndPay, paidNightOf } from "./steps.ts";

// My nights at phone size (docs/decisions/027-guest-identity.md): the header's My tickets opens /me;
// a guest signs in with the mobile and the code texted to it, sees their two nights (the upcoming one
// with its QR, saved on the phone; the past one with its matches), and signs out, which ends the
// session on the server. Nobody else's night shows.

const SESSION_SECRET = "e2e-me-secret-e2e-me-secret-e2e-me-0123";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The line under the heading, in every state of the page. */
const LEAD = "Every night booked with your mobile, in one place";

/** `+61412345678` as a person types it: `0412 345 678`. */
const typed = (e164: string) => e164.replace(/^\+61(\d{3})(\d{3})(\d{3})$/, "0$1 $2 $3");

const test = browserSuite({ serverEnv: { SESSION_SECRET } });

describe.skipIf(noBrowser)("My nights", () => {
  let server: AppServer;
  let browser: Browser;
  let guest: Awaited<ReturnType<typeof bookAndPay>>;
  let other: Awaited<ReturnType<typeof bookAndPay>>;

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    const db = openDatabase(`${server.dataDir}/app.db`);
    const uploads = `${server.dataDir}/uploads`;
    const now = Date.now();
    const upcoming = await insertEvent(db, uploads, { name: "Harbour Lights Mixer", startsAt: now + 7 * DAY });
    const past = await insertEvent(db, uploads, {
      name: "Winter Lanterns Night",
      startsAt: now - 10 * DAY,
      status: "ended",
      startedAt: now - 10 * DAY,
      endedAt: now - 10 * DAY + 2 * HOUR,
      resultsReleasedAt: now - 9 * DAY,
    });
    db.$client.close();
    // The upcoming night booked and paid the usual way; another guest at the same night.
    guest = await bookAndPay(server, SESSION_SECRET, upcoming.id, "Meera Iyer");
    other = await bookAndPay(server, SESSION_SECRET, upcoming.id, "Rohan Mehta");
    // The past night, paid by the same number months of bookings ago.
    const again = openDatabase(`${server.dataDir}/app.db`);
    paidNightOf(again, {
      phone: guest.phone,
      eventId: past.id,
      name: "Meera Iyer",
      uniqueCode: "PASTNGHT23",
      paidAt: now - 20 * DAY,
      key: "me",
    });
    again.$client.close();
  });

  /** The tickets this phone keeps in IndexedDB (what shows at the door offline). */
  const savedCodes = (page: Page) =>
    page.evaluate(
      () =>
        new Promise<string[]>((resolve) => {
          const open = indexedDB.open("saathi-offline");
          open.onsuccess = () => {
            const db = open.result;
            if (!db.objectStoreNames.contains("tickets")) return resolve([]);
            const all = db.transaction("tickets").objectStore("tickets").getAll();
            all.onsuccess = () => resolve((all.result as { uniqueCode: string }[]).map((t) => t.uniqueCode).sort());
          };
          open.onerror = () => resolve([]);
        }),
    );

  it("signs in with the mobile and a code, shows the two nights, and signs out on the server", async () => {
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    await page.goto("/");
    await page.getByRole("banner").getByRole("link", { name: "My tickets" }).click();
    await page.waitForURL("**/me");
    await page.getByRole("heading", { level: 1, name: "My nights" }).waitFor();

    // Signed out: the sign-in, and this phone's saved tickets (none yet).
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await page.getByRole("heading", { name: "Tickets saved on this phone" }).waitFor();
    await page.getByText("No tickets are saved on this device yet.", { exact: false }).waitFor();
    // The sections sit a fixed gap apart, never stretched to fill a tall screen: stretched, they
    // jumped up as the saved tickets' list drew below them (Lighthouse's layout shift of 0.03).
    const spacing = async () => {
      const h1 = await page.getByRole("heading", { level: 1, name: "My nights" }).boundingBox();
      const signIn = await page.getByRole("region", { name: "Sign in" }).boundingBox();
      return Math.round(signIn!.y - h1!.y);
    };
    const onThePhone = await spacing();
    const size = page.viewportSize()!;
    await page.setViewportSize({ width: size.width, height: 1600 });
    await expect.poll(spacing).toBe(onThePhone);
    await page.setViewportSize(size);
    await expectAccessible(page, "My nights, signed out");
    await expectNoSidewaysScroll(page);

    // By keyboard: the number, Enter; the code box takes the focus; the code, Enter.
    await page.getByLabel("Mobile number").focus();
    await page.keyboard.type(typed(guest.phone));
    await page.keyboard.press("Enter");
    const otp = page.getByLabel("OTP", { exact: true });
    await otp.waitFor();
    await expect.poll(() => otp.evaluate((el) => el === document.activeElement)).toBe(true);
    await expect.poll(() => codeFor(server.url, guest.phone)).toMatch(/^\d{6}$/);
    await page.keyboard.type(await codeFor(server.url, guest.phone));
    await page.keyboard.press("Enter");

    // Signed in: the number, then Upcoming with the QR ticket and Past with the matches.
    await page.getByText("Signed in as", { exact: false }).waitFor();
    const upcoming = page.getByRole("region", { name: "Upcoming" });
    const ticket = upcoming.getByRole("article", { name: "Ticket for Harbour Lights Mixer" });
    await ticket.waitFor();
    await expect.poll(() => ticket.locator(".ticket-code").textContent()).toBe(guest.uniqueCode);
    const qr = ticket.getByRole("img", { name: /QR code/ });
    await expect.poll(() => qr.isVisible()).toBe(true);
    expect(await qr.evaluate((img: HTMLImageElement) => img.src.startsWith("data:image/png;base64,"))).toBe(true);
    const past = page.getByRole("region", { name: "Past" });
    const night = past.getByRole("article", { name: "Winter Lanterns Night" });
    await night.waitFor();
    const matches = night.getByRole("link", { name: "See your matches" });
    expect(await matches.getAttribute("href")).toMatch(/^\/EventFeedback\?par1=\d+&par2=\d+&t=[\w-]+$/);
    // The past night's door code is not shown, nor anything of the other guest at the same night.
    expect(await page.getByText("PASTNGHT23").count()).toBe(0);
    expect(await page.getByText("Rohan Mehta").count()).toBe(0);
    expect(await page.getByText(other.uniqueCode).count()).toBe(0);
    expect(await page.getByRole("region", { name: "Cancelled and refunded" }).count()).toBe(0);
    await expectAccessible(page, "My nights, signed in");
    await expectNoSidewaysScroll(page);

    // The upcoming ticket is saved on this phone, for the door without a network.
    await expect.poll(() => savedCodes(page)).toEqual([guest.uniqueCode]);

    // Sign out, by keyboard: the server ends the session, so the cookie it had no longer opens /me.
    const cookie = (await context.cookies()).find((c) => c.name === "sdt_me");
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe("Lax");
    const before = await fetch(`${server.url}/api/me`, { headers: { cookie: `sdt_me=${cookie?.value}` } });
    expect(before.status).toBe(200);
    await page.getByRole("button", { name: "Sign out" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? "")).toBe("My nights");
    const after = await fetch(`${server.url}/api/me`, { headers: { cookie: `sdt_me=${cookie?.value}` } });
    expect(after.status).toBe(401);
    expect((await context.cookies()).some((c) => c.name === "sdt_me")).toBe(false);

    // Signed out, the phone still has the ticket it saved.
    const saved = page
      .getByRole("region", { name: "Tickets saved on this phone" })
      .getByRole("article", { name: "Ticket for Harbour Lights Mixer" });
    await saved.waitFor();
    await expect.poll(() => saved.locator(".ticket-code").textContent()).toBe(guest.uniqueCode);
    await expectAccessible(page, "My nights, signed out with a saved ticket");

    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("paints its heading and what it holds from the HTML, and the code keeps that screen in place", async () => {
    // Without any code: the heading, the line on what the page holds and the loading line come with
    // the HTML (pwa/app/first-paint.tsx), the same for every visitor.
    const still = await newContext(browser, server.url, { ...phone, javaScriptEnabled: false });
    const html = await still.context.newPage();
    await html.goto("/me");
    await expect.poll(() => html.getByRole("heading", { level: 1, name: "My nights" }).isVisible()).toBe(true);
    await expect.poll(() => html.getByText(LEAD, { exact: false }).isVisible()).toBe(true);
    expect(await html.getByText("Loading your nights…").count()).toBe(1);
    await still.context.close();

    // With the code: the line the HTML drew is the element the running page keeps (hydrated, not drawn
    // again), and the sign-in and the saved tickets come below it. React says nothing of a mismatch.
    const { context, pageErrors } = await newContext(browser, server.url);
    const consoleErrors = consoleErrorsOf(context);
    const page = await context.newPage();
    await markDrawn(page, ".me-lead");
    await page.goto("/me");
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await page.getByText("No tickets are saved on this device yet.", { exact: false }).waitFor();
    expect(await keptDrawn(page, ".me-lead")).toBe(true);
    expect(await page.getByText("Loading your nights…").count()).toBe(0);
    expect(consoleErrors).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("says so when a number has no nights, and when the nights cannot be loaded", async () => {
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    await page.goto("/me");
    const fresh = "+61498765432";
    await page.getByLabel("Mobile number").fill(typed(fresh));
    await page.getByRole("button", { name: "Send OTP" }).click();
    await page.getByLabel("OTP", { exact: true }).waitFor();
    await expect.poll(() => codeFor(server.url, fresh)).toMatch(/^\d{6}$/);
    await page.getByLabel("OTP", { exact: true }).fill(await codeFor(server.url, fresh));
    await page.getByRole("button", { name: "Verify OTP" }).click();
    await page.getByText("No nights are booked with this number yet.", { exact: false }).waitFor();
    await page.getByRole("link", { name: "Browse events" }).waitFor();
    await expectAccessible(page, "My nights, signed in with no nights");

    // The server failing: said plainly, with Try again, and the saved tickets still below.
    await page.route("**/api/me", (route) =>
      route.fulfill({
        status: 500,
        contentType: "application/json",
        body: JSON.stringify({ success: false, error: "internal error", code: "internal_error" }),
      }),
    );
    await page.reload();
    await page.getByText("We couldn't load your nights just now.").waitFor();
    await page.getByRole("heading", { name: "Tickets saved on this phone" }).waitFor();
    await expectAccessible(page, "My nights, failed to load");
    await page.unroute("**/api/me");
    await page.getByRole("button", { name: "Try again" }).click();
    await page.getByText("No nights are booked with this number yet.", { exact: false }).waitFor();

    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
