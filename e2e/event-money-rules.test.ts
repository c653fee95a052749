import type { Browser, Dialog } from "playwright-core";
import { describe, expect, it } from "vitest";
import { yearLike } from "../test/clock.ts";
import { makeImage } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import {
  type AppServer,
  desktop,
  fillDetails,
  newContext,
  noBrowser,
  signInAsOrganiser,
  verifyPhone,
} from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks.ts";
import { openTab } from "./steps.ts";

// The money rules of a night on the organiser's forms (issue 52): Credit until, Go ahead only with at
// least and the no-match promise set on Add at 1366 px, kept on Edit; and the promise on the event
// card, the booking's confirmation and the ticket after payment at 390 px.

// Dates in a year laid out like 2031, always ahead of the clock (test/clock.ts).
const Y = yearLike(2031);
const PROMISE = "No match? Your next night is on us.";

const test = browserSuite();

describe.skipIf(noBrowser)("the money rules of a night, from the Add form to the card", () => {
  let server: AppServer;
  let browser: Browser;

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
  });

  it("sets Credit until, Go ahead only with at least and the promise on Add, and shows them kept on Edit", async () => {
    const { context, pageErrors } = await newContext(browser, server.url, {
      ...desktop,
      isMobile: false,
      hasTouch: false,
      deviceScaleFactor: 1,
    });
    const page = await context.newPage();
    page.on("dialog", (d: Dialog) => void d.accept());
    await signInAsOrganiser(page);
    await openTab(page, "Add Event");
    const panel = page.getByRole("tabpanel");
    await expect.poll(() => panel.getByLabel("Time zone").inputValue()).toBe("Australia/Sydney");
    await panel.getByLabel("Event name", { exact: true }).fill("Promise Night");
    await panel.getByLabel("Date", { exact: true }).fill(`${Y}-02-06`);
    await panel.getByLabel("Hour", { exact: true }).selectOption("19");
    await panel.getByLabel("Minute", { exact: true }).selectOption("0");
    await panel.getByLabel("Address", { exact: true }).fill("10 Circular Quay W, Sydney NSW 2000");
    await panel.getByLabel("Total seats", { exact: true }).fill("20");
    await panel.getByLabel("Ticket price (AUD)", { exact: true }).fill("45");
    await panel.getByLabel("Duration (hours)", { exact: true }).fill("3");
    await panel.getByLabel("From age", { exact: true }).fill("25");
    await panel.getByLabel("To age", { exact: true }).fill("35");
    await panel
      .getByLabel("Event image")
      .setInputFiles({ name: "promise.png", mimeType: "image/png", buffer: await makeImage("png") });

    // Credit until starts at the start, and follows it until changed.
    await expect.poll(() => panel.getByLabel("Credit until date").inputValue()).toBe(`${Y}-02-06`);
    await expect.poll(() => panel.getByLabel("Credit until hour").inputValue()).toBe("19");
    await panel.getByLabel("Credit until date").fill(`${Y}-02-05`);
    await panel.getByLabel("Credit until hour").selectOption("12");

    // Go ahead only with at least: off by default; on, women and men and when it is decided.
    const minimum = panel.getByRole("checkbox", { name: "Go ahead only with at least" });
    expect(await minimum.isChecked()).toBe(false);
    expect(await panel.getByLabel("Women", { exact: true }).count()).toBe(0);
    await minimum.check();
    await panel.getByLabel("Women", { exact: true }).fill("6");
    await panel.getByLabel("Men", { exact: true }).fill("7");
    await expect.poll(() => panel.getByLabel("Decided at date").inputValue()).toBe(`${Y}-02-04`);
    await expect.poll(() => panel.getByLabel("Decided at hour").inputValue()).toBe("19");

    const promise = panel.getByRole("checkbox", { name: PROMISE });
    expect(await promise.isChecked()).toBe(false);
    await promise.check();
    await expectAccessible(page, "the Add Event form with the money rules");
    await expectNoSidewaysScroll(page);
    await panel.getByRole("button", { name: "Save Event" }).click();
    await page.getByText("Event saved successfully!").waitFor();

    // Edit shows what was saved.
    await openTab(page, "Edit Event");
    const picker = panel.getByLabel("Event", { exact: true });
    await picker.locator("option", { hasText: "Promise Night" }).first().waitFor({ state: "attached" });
    await picker.selectOption((await picker.locator("option", { hasText: "Promise Night" }).getAttribute("value"))!);
    await expect.poll(() => panel.getByLabel("Credit until date").inputValue()).toBe(`${Y}-02-05`);
    await expect.poll(() => panel.getByLabel("Credit until hour").inputValue()).toBe("12");
    await expect
      .poll(() => panel.getByRole("checkbox", { name: "Go ahead only with at least" }).isChecked())
      .toBe(true);
    await expect.poll(() => panel.getByLabel("Women", { exact: true }).inputValue()).toBe("6");
    await expect.poll(() => panel.getByLabel("Men", { exact: true }).inputValue()).toBe("7");
    await expect.poll(() => panel.getByLabel("Decided at date").inputValue()).toBe(`${Y}-02-04`);
    await expect.poll(() => panel.getByRole("checkbox", { name: PROMISE }).isChecked()).toBe(true);
    await expectAccessible(page, "the Edit Event form with the money rules");

    // An edit turns the minimum off and keeps the rest.
    await panel.getByRole("checkbox", { name: "Go ahead only with at least" }).uncheck();
    await panel.getByRole("button", { name: "Update Event" }).click();
    await page.getByText("Event updated successfully!").waitFor();
    await page.reload();
    await picker.locator("option", { hasText: "Promise Night" }).first().waitFor({ state: "attached" });
    await picker.selectOption((await picker.locator("option", { hasText: "Promise Night" }).getAttribute("value"))!);
    await expect.poll(() => panel.getByLabel("Credit until date").inputValue()).toBe(`${Y}-02-05`);
    await expect
      .poll(() => panel.getByRole("checkbox", { name: "Go ahead only with at least" }).isChecked())
      .toBe(false);
    await expect.poll(() => panel.getByRole("checkbox", { name: PROMISE }).isChecked()).toBe(true);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("shows the promise on the event card, the booking's confirmation and the ticket after payment, on a phone", async () => {
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    page.on("dialog", (d: Dialog) => void d.accept());
    await page.goto("/");
    const card = page.locator("article.event-card", { hasText: "Promise Night" });
    await expect.poll(() => card.getByText(PROMISE, { exact: true }).isVisible()).toBe(true);
    await expectAccessible(page, "the home page with a promising night");
    await expectNoSidewaysScroll(page);

    await card.getByRole("button", { name: "Book Tickets" }).click();
    await page.waitForURL("**/otp-verification?eventID=*");
    await verifyPhone(page, server.url, "0471 000 555", "+61471000555");
    await fillDetails(page, {
      name: "Noor Haddad",
      email: "noor@example.com",
      gender: "female",
      photo: await makeImage("png", 300, 300),
      dateOfBirth: `${Y - 30}-05-03`,
    });
    await page.getByRole("button", { name: "Submit" }).click();
    await page.waitForURL("**/confirmation?eventID=*");
    await expect.poll(() => page.getByText(PROMISE, { exact: true }).isVisible()).toBe(true);
    await expectAccessible(page, "the confirmation of a promising night");
    await expectNoSidewaysScroll(page);

    await page.getByRole("button", { name: "Proceed to Payment" }).click();
    await page.waitForURL("**/api/dev/checkout/**");
    await page.getByRole("button", { name: "Pay" }).click();
    await page.waitForURL("**/success**");
    await page.locator(".ticket-code").waitFor({ timeout: 20_000 });
    await expect.poll(() => page.getByText(PROMISE, { exact: true }).isVisible()).toBe(true);
    await expectAccessible(page, "the ticket after paying for a promising night");
    await expectNoSidewaysScroll(page);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
