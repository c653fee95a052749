import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../db/client.ts";
import { insertEvent, makeImage } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import {
  type AppServer,
  desktop,
  devOutbox,
  fillDetails,
  newContext,
  noBrowser,
  signInAsOrganiser,
} from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks.ts";
import { bookAndPay, signInOnMe } from "./steps.ts";

// Credit at phone size (issue 52, docs/decisions/057-credit.md): a guest cancels a paid night taking
// Credit instead of a Refund, the ticket on the phone is no longer valid and My nights shows the credit
// with its history; then the same guest books another night, keeps Use my credit, and gets the ticket
// at once with no checkout page. And the organiser's Give credit on the participants list at 1366 px.

const SESSION_SECRET = "e2e-credit-secret-e2e-credit-secret-012345";
const DAY = 24 * 3_600_000;

const test = browserSuite({ serverEnv: { SESSION_SECRET } });

describe.skipIf(noBrowser)("Credit", () => {
  let server: AppServer;
  let browser: Browser;
  let guest: Awaited<ReturnType<typeof bookAndPay>>;
  let laneway: number;

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    const db = openDatabase(`${server.dataDir}/app.db`);
    const uploads = `${server.dataDir}/uploads`;
    const harbour = await insertEvent(db, uploads, {
      name: "Harbour Lights Mixer",
      startsAt: Date.now() + 7 * DAY,
      priceCents: 4500,
    });
    laneway = (
      await insertEvent(db, uploads, { name: "Laneway Supper Club", startsAt: Date.now() + 14 * DAY, priceCents: 4500 })
    ).id;
    db.$client.close();
    guest = await bookAndPay(server, SESSION_SECRET, harbour.id, "Meera Iyer");
  }, 120_000);

  // A booking, sign-ins, a photo upload and several pages: minutes, not seconds, on two busy cores.
  it("cancels with Credit: the ticket is no longer valid and My nights shows the credit and its history", {
    timeout: 240_000,
  }, async () => {
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    // The texted link saves the ticket on this phone.
    await page.goto(guest.linkPath);
    await page.getByRole("article", { name: "Ticket for Harbour Lights Mixer" }).waitFor();

    await page.goto("/me");
    await signInOnMe(page, server.url, guest.phone);
    // Never had credit: nothing about it.
    await page.getByRole("article", { name: "Ticket for Harbour Lights Mixer" }).waitFor();
    expect(await page.getByRole("region", { name: /^Credit:/ }).count()).toBe(0);

    const night = page.getByRole("region", { name: "Upcoming" }).getByRole("listitem");
    await night.getByRole("button", { name: "Cancel my booking" }).click();
    const refund = night.getByRole("radio", { name: "Refund $45.00 to your card" });
    const credit = night.getByRole("radio", { name: "Credit $45.00 towards any night" });
    await expect.poll(() => refund.isChecked()).toBe(true);
    await expectAccessible(page, "Cancel my booking with Refund and Credit");
    await expectNoSidewaysScroll(page);
    await credit.check();
    await night.getByText("You'll get $45.00 as credit on your number, towards any night.").waitFor();
    await night.getByRole("button", { name: "Yes, cancel Harbour Lights Mixer" }).click();
    await page
      .getByRole("status")
      .filter({
        hasText:
          "Your booking for Harbour Lights Mixer is cancelled. $45.00 is now credit on your number, towards any night.",
      })
      .waitFor();

    // My nights: the balance, the history line, and the night that became credit.
    const panel = page.getByRole("region", { name: "Credit: $45.00" });
    await panel.waitFor();
    const line = panel.getByRole("row").filter({ hasText: "Cancelled Harbour Lights Mixer" });
    await line.getByText("+$45.00").waitFor();
    await expect.poll(() => line.locator("time").textContent()).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}$/);
    const ended = page.getByRole("region", { name: "Cancelled and refunded" });
    await ended.getByText("You took its price as credit on your number", { exact: false }).waitFor();
    await expectAccessible(page, "My nights with credit");
    await expectNoSidewaysScroll(page);

    // The ticket saved on this phone is no longer valid, with no QR to scan.
    await page.goto("/tickets");
    const voided = page.getByRole("article", { name: "Ticket for Harbour Lights Mixer" });
    await voided.getByText("You cancelled this booking, so this ticket is no longer valid.").waitFor();
    expect(await voided.getByRole("img", { name: /QR code for/ }).count()).toBe(0);
    await expectAccessible(page, "My tickets after a cancel with credit");

    // The guest's text says the credit, with no link.
    await expect
      .poll(async () => (await devOutbox(server.url)).filter((m) => m.to === guest.phone).map((m) => m.body))
      .toContainEqual(expect.stringContaining("credit"));
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("books another night paid wholly by credit: no checkout page, the ticket at once", {
    timeout: 240_000,
  }, async () => {
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    page.on("dialog", (dialog) => void dialog.accept());
    const toProvider: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/dev/checkout/")) toProvider.push(request.url());
    });
    await page.goto("/me");
    await signInOnMe(page, server.url, guest.phone);
    await page.getByRole("region", { name: "Credit: $45.00" }).waitFor();

    // Book the other night from the home page: this browser proved the number, so no code is asked.
    await page.goto("/");
    await page
      .locator("article.event-card", { hasText: "Laneway Supper Club" })
      .getByRole("button", { name: "Book Tickets" })
      .click();
    await page.waitForURL("**/otp-verification?eventID=*");
    await page.getByLabel("Mobile number").fill(guest.phone.replace(/^\+61(\d{3})(\d{3})(\d{3})$/, "0$1 $2 $3"));
    await page.getByRole("button", { name: "Send OTP" }).click();
    await page.getByLabel("Name").waitFor();
    await fillDetails(page, {
      name: "Meera Iyer",
      email: "meera@example.com",
      gender: "female",
      photo: await makeImage("png", 400, 400),
    });
    await page.getByRole("button", { name: "Submit" }).click();
    await page.waitForURL("**/confirmation?eventID=*", { timeout: 60_000 });

    const useCredit = page.getByRole("checkbox", { name: "Use my credit ($45.00)" });
    await expect.poll(() => useCredit.isChecked()).toBe(true);
    await page.getByText("Your credit pays the whole $45.00", { exact: false }).waitFor();
    await expectAccessible(page, "the confirmation with Use my credit");
    await expectNoSidewaysScroll(page);
    await page.getByRole("button", { name: "Book with my credit" }).click();

    // The ticket at once, paid, with its QR; the provider's page was never asked for.
    await page.waitForURL((url) => url.pathname === "/success");
    await page.getByText("Paid with your credit. You're booked!", { exact: false }).waitFor();
    const ticket = page.getByRole("article", { name: "Ticket for Laneway Supper Club" });
    const qr = ticket.getByRole("img", { name: /QR code for/ });
    await expect.poll(() => qr.getAttribute("src")).toMatch(/^data:image\/png;base64,/);
    await expect.poll(() => page.locator(".ticket-code").textContent()).toMatch(/^[A-Z2-9]{10}$/);
    await page.getByText("Your ticket is saved on this device").waitFor();
    expect(toProvider).toEqual([]);
    await expectAccessible(page, "the ticket paid by credit");
    await expectNoSidewaysScroll(page);

    // My nights: the credit spent, the night upcoming.
    await page.goto("/me");
    const panel = page.getByRole("region", { name: "Credit: $0.00" });
    await panel.waitFor();
    await expect.poll(() => panel.getByRole("row").filter({ hasText: "\u2212$45.00" }).count()).toBe(1);
    await page.getByRole("article", { name: "Ticket for Laneway Supper Club" }).waitFor();
    expect(toProvider).toEqual([]);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("gives credit from the participants list at 1366 px, and the Overview shows the credit outstanding", {
    timeout: 180_000,
  }, async () => {
    const { context, pageErrors } = await newContext(browser, server.url, desktop);
    const page = await context.newPage();
    await signInAsOrganiser(page, `/admin?tab=user-details&event=${laneway}`);
    await page.getByRole("button", { name: "Give credit to Meera Iyer" }).click();
    const dialog = page.getByRole("dialog", { name: "Give credit to Meera Iyer" });
    await dialog.getByLabel("Amount (AUD)").fill("12.5");
    await dialog.getByRole("button", { name: "Give credit" }).click();
    await dialog.getByText("Enter the reason", { exact: false }).waitFor();
    await dialog.getByLabel("Reason").fill("Sorry about the late start");
    await expectAccessible(page, "Give credit");
    await dialog.getByRole("button", { name: "Give credit" }).click();
    await dialog.getByText("Gave $12.50 of credit to Meera Iyer.", { exact: false }).waitFor();
    await dialog.getByRole("button", { name: "Done" }).click();
    await page.getByText("Gave $12.50").waitFor();
    await expect
      .poll(async () => (await devOutbox(server.url)).filter((m) => m.to === guest.phone).at(-1)?.body ?? "")
      .toMatch(/\$12\.50/);

    await page.goto("/admin");
    await page.getByText("Credit outstanding $12.50").waitFor();
    await expectAccessible(page, "the Overview with credit outstanding");
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
