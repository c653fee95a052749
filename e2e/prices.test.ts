import type { Browser, BrowserContext, Dialog, Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { yearLike } from "../test/clock.ts";
import { makeImage } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, fillDetails, newContext, noBrowser, signInAsOrganiser, verifyPhone } from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks.ts";
import { addEvent, openTab } from "./steps.ts";

// Who may book and what they pay, on a phone (docs/decisions/023-prices-and-ages.md): the card's
// early bird, an under-age buyer refused, a promo code applied and paid through the local checkout,
// and the organiser's Promo codes and Overview.

// Dates in a year laid out like 2031, always ahead of the clock (test/clock.ts).
const Y = yearLike(2031);
// Ages are counted on the night, so a guest's date of birth goes with the event's year: 29 or 30 then.
const BORN = `${Y - 30}-05-03`;

const test = browserSuite();

describe.skipIf(noBrowser)("prices, ages and promo codes on a phone", () => {
  let server: AppServer;
  let browser: Browser;
  let photo: Buffer;
  let admin: { context: BrowserContext; page: Page; pageErrors: string[] };

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    await addEvent(server, {
      name: "Promo Night",
      startsAt: Date.UTC(Y, 1, 6, 8, 30),
      priceCents: 4500,
      fromAge: 25,
      toAge: 35,
      // $10 off until 7 pm on 20 January in Sydney (AEDT, UTC+11).
      earlyBirdDiscountCents: 1000,
      earlyBirdUntil: Date.UTC(Y, 0, 20, 8, 0),
    });
    photo = await makeImage("png", 400, 400);
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    page.on("dialog", (d: Dialog) => void d.accept());
    await signInAsOrganiser(page);
    admin = { context, page, pageErrors };
  });

  afterAll(async () => {
    expect(admin?.pageErrors ?? []).toEqual([]);
    await admin?.context.close();
  });

  const panel = () => admin.page.getByRole("tabpanel");

  /** From the home page's card to the details form, with the phone verified. */
  async function toDetails(page: Page, typed: string, e164: string) {
    await page.goto("/");
    const card = page.locator("article.event-card", { hasText: "Promo Night" });
    await expect.poll(() => card.getByText("$35 early bird until 20 Jan, then $45").isVisible()).toBe(true);
    await card.getByRole("button", { name: "Book Tickets" }).click();
    await page.waitForURL("**/otp-verification?eventID=*");
    // Before a gender is chosen, the summary's ticket says what the card said.
    const summary = page.getByRole("definition").filter({ hasText: "early bird" });
    await expect.poll(() => summary.textContent()).toBe("$35 early bird until 20 Jan, then $45");
    await verifyPhone(page, server.url, typed, e164);
  }

  it("lets the organiser add a promo code under the Edit form, with the Prices group above it", async () => {
    const page = admin.page;
    await openTab(admin.page, "Edit Event");
    const picker = panel().getByLabel("Event", { exact: true });
    await picker.locator("option", { hasText: "Promo Night" }).first().waitFor({ state: "attached" });
    await picker.selectOption((await picker.locator("option", { hasText: "Promo Night" }).getAttribute("value"))!);
    await expect.poll(() => panel().getByLabel("Early-bird discount (AUD)").inputValue()).toBe("10.00");
    await expect.poll(() => panel().getByRole("group", { name: "Prices" }).isVisible()).toBe(true);

    await panel().getByLabel("New code").fill("friends");
    await panel().getByLabel("Percent off", { exact: true }).fill("20");
    await panel().getByLabel("Maximum uses (optional)").fill("5");
    await panel().getByRole("button", { name: "Add code" }).click();
    const row = panel().getByRole("row").filter({ hasText: "FRIENDS" });
    await expect
      .poll(async () => (await row.getByRole("cell").allTextContents()).slice(0, 5))
      .toEqual(["FRIENDS", "20% off", "0 of 5", "Anyone", "Never"]);
    await expect.poll(() => row.getByRole("button", { name: "Disable FRIENDS" }).isVisible()).toBe(true);
    await expectAccessible(page, "the Edit tab with Prices and Promo codes");
    await expectNoSidewaysScroll(page);
  });

  it("refuses a buyer under the event's ages with its range, holding nothing", async () => {
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    page.on("dialog", (d: Dialog) => void d.accept());
    await toDetails(page, "0471 000 111", "+61471000111");
    await fillDetails(page, {
      name: "Young Yuri",
      email: "yuri@example.com",
      gender: "male",
      photo,
      dateOfBirth: `${Y - 22}-03-01`,
    });
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("alert").filter({ hasText: "This event is for ages 25–35" }).waitFor();
    expect(page.url()).toContain("/otp-verification");
    await expectAccessible(page, "the details form refusing an age");
    await expectNoSidewaysScroll(page);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("applies a promo code on the confirmation page and pays the discounted total through the local checkout", async () => {
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    page.on("dialog", (d: Dialog) => void d.accept());
    await toDetails(page, "0471 000 222", "+61471000222");
    await fillDetails(page, {
      name: "Priya Shah",
      email: "priya@example.com",
      gender: "female",
      photo,
      dateOfBirth: BORN,
    });
    await page.getByRole("button", { name: "Submit" }).click();
    await page.waitForURL("**/confirmation?eventID=*");
    await expect.poll(() => page.getByText("$35.00").isVisible()).toBe(true);

    await page.getByLabel("Promo code").fill("NOPE");
    await page.getByRole("button", { name: "Apply" }).click();
    await page.getByRole("alert").filter({ hasText: "That promo code is not valid for this event." }).waitFor();
    await page.getByLabel("Promo code").fill("friends");
    await page.getByRole("button", { name: "Apply" }).click();
    // The early bird's $35, then 20% off: $28.
    await page.getByRole("status").filter({ hasText: "New total: $28.00 with code FRIENDS" }).waitFor();
    await expectAccessible(page, "the confirmation with a promo code applied");
    await expectNoSidewaysScroll(page);
    // A reload keeps saying what the booking will be charged.
    await page.reload();
    await page.getByRole("status").filter({ hasText: "New total: $28.00 with code FRIENDS" }).waitFor();

    await page.getByRole("button", { name: "Proceed to Payment" }).click();
    await page.waitForURL("**/api/dev/checkout/**");
    await expect.poll(() => page.getByText("$28.00").isVisible()).toBe(true);
    await page.getByRole("button", { name: "Pay" }).click();
    await page.waitForURL("**/success**");
    await page.locator(".ticket-code").waitFor({ timeout: 20_000 });
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("shows the organiser's Overview the revenue after the discount", async () => {
    await openTab(admin.page, "Overview");
    const row = panel().getByRole("row").filter({ hasText: "Promo Night" });
    await expect
      .poll(async () => (await row.getByRole("cell").allTextContents()).join("|"), { timeout: 15_000 })
      .toContain("$28.00after $17.00 off");
    await expectAccessible(admin.page, "the Overview with a discounted sale");
  });
});
