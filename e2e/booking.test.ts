import { eq } from "drizzle-orm";
import type { Browser, Dialog, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../db/client.ts";
import { bookings } from "../db/schema.ts";
import { yearLike } from "../test/clock.ts";
import { insertEvent, insertPaidBookings, makeImage } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import {
  type AppServer,
  codeFor,
  devOutbox,
  fillDateOfBirth,
  fillDetails,
  newContext,
  noBrowser,
  verifyPhone,
} from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks.ts";

const SOLD_OUT = "Sorry,no more seats are available for booking currently.Please try after some time.";

// Dates in a year laid out like 2031, always ahead of the clock (test/clock.ts).
const Y = yearLike(2031);
// Ages are counted on the night, so a guest's date of birth goes with the event's year: 29 or 30 then.
const BORN = `${Y - 30}-05-03`;

const test = browserSuite();

describe.skipIf(noBrowser)("booking from the home page", () => {
  let server: AppServer;
  let browser: Browser;
  let lastSeatId: number;
  let photo: Buffer;

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    const db = openDatabase(`${server.dataDir}/app.db`);
    const uploads = `${server.dataDir}/uploads`;
    await insertEvent(db, uploads, {
      name: "Garden Party",
      startsAt: Date.UTC(Y, 4, 3, 18, 0),
      priceCents: 4500,
      totalSeats: 10,
    });
    lastSeatId = (await insertEvent(db, uploads, { name: "Last Seat Soiree", totalSeats: 1 })).id;
    db.$client.close();
    photo = await makeImage("png", 400, 400);
  });

  const outbox = () => devOutbox(server.url);
  const dialogs = (page: Page) => {
    const seen: string[] = [];
    page.on("dialog", (dialog: Dialog) => {
      seen.push(dialog.message());
      void dialog.accept();
    });
    return seen;
  };
  const bookFromHome = async (page: Page, eventName: string) => {
    await page.goto("/");
    await page
      .locator("article.event-card", { hasText: eventName })
      .getByRole("button", { name: "Book Tickets" })
      .click();
    await page.waitForURL("**/otp-verification?eventID=*");
  };
  const verify = (page: Page, typed: string, e164: string) => verifyPhone(page, server.url, typed, e164);

  it("verifies the phone, checks the details and lands on the confirmation", async () => {
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    const alerts = dialogs(page);
    await bookFromHome(page, "Garden Party");
    await expect.poll(() => page.getByText("Garden Party").first().isVisible()).toBe(true);
    await expectAccessible(page, "the phone number form");
    await expectNoSidewaysScroll(page);

    await page.getByLabel("Mobile number").fill("0412 345 678");
    await page.getByRole("button", { name: "Send OTP" }).click();
    const otp = page.getByLabel("OTP", { exact: true });
    await otp.waitFor();
    await expect.poll(() => otp.getAttribute("inputmode")).toBe("numeric");
    await expect.poll(() => otp.getAttribute("autocomplete")).toBe("one-time-code");
    const code = await codeFor(server.url, "+61412345678");
    expect(code).toMatch(/^\d{6}$/);

    await otp.fill(code === "000000" ? "111111" : "000000");
    await page.getByRole("button", { name: "Verify OTP" }).click();
    await page.getByText("Incorrect OTP.").waitFor();
    await expectAccessible(page, "the code form with its error");

    await otp.fill(code);
    await page.getByRole("button", { name: "Verify OTP" }).click();
    await page.getByLabel("Name").waitFor();
    await expect.poll(() => page.getByLabel("Verified mobile").inputValue()).toBe("+61 412 345 678");
    expect(await page.getByLabel("Verified mobile").getAttribute("readonly")).not.toBeNull();
    await expect.poll(() => page.getByLabel("Email", { exact: true }).getAttribute("type")).toBe("email");

    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByText("All fields are required.").waitFor();

    await page.getByLabel("Name").fill("Priya Sharma");
    await page.getByLabel("Email", { exact: true }).fill("priya@example.com");
    await page.getByLabel("Gender").selectOption("female");
    await fillDateOfBirth(page, BORN);
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByText("Image upload is required.").waitFor();
    await expectAccessible(page, "the details form with its error");
    await expectNoSidewaysScroll(page);

    await page
      .getByLabel("Photo")
      .setInputFiles({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("hi") });
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByText("Please choose an image file (JPEG, PNG or WebP).").waitFor();

    await page.getByLabel("Photo").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: photo });
    await page.getByLabel("I have read who sees my details").check();
    await page.getByRole("button", { name: "Submit" }).click();
    await page.waitForURL("**/confirmation?eventID=*");
    expect(alerts).toEqual(["Form submitted successfully!"]);
    await page.getByRole("heading", { name: "Confirmation" }).waitFor();
    await expect.poll(() => page.getByText("Priya Sharma").isVisible()).toBe(true);
    await expect.poll(() => page.getByText("Garden Party").isVisible()).toBe(true);
    await expect.poll(() => page.getByText(`${Y}-05-03 06:00 PM`).isVisible()).toBe(true);
    await expect.poll(() => page.getByText("$45.00").isVisible()).toBe(true);
    await expect.poll(() => page.getByRole("button", { name: "Proceed to Payment" }).isEnabled()).toBe(true);
    await expectAccessible(page, "the confirmation");
    await expectNoSidewaysScroll(page);

    // Back from the confirmation returns to the details as typed (only the photo is chosen again).
    await page.goBack();
    await page.waitForURL("**/otp-verification?eventID=*");
    await page.getByLabel("Verified mobile").waitFor();
    await expect.poll(() => page.getByLabel("Name").inputValue()).toBe("Priya Sharma");
    await expect.poll(() => page.getByLabel("Email", { exact: true }).inputValue()).toBe("priya@example.com");
    await expect.poll(() => page.getByLabel("Gender").inputValue()).toBe("female");

    // The same browser booking again skips the code.
    const sent = (await outbox()).length;
    await bookFromHome(page, "Garden Party");
    await page.getByLabel("Mobile number").fill("412345678");
    await page.getByRole("button", { name: "Send OTP" }).click();
    await page.getByLabel("Verified mobile").waitFor();
    await expect.poll(() => page.getByLabel("OTP", { exact: true }).count()).toBe(0);
    expect((await outbox()).length).toBe(sent);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("alerts that the seats are gone when the last one was taken meanwhile", async () => {
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    const alerts = dialogs(page);
    await bookFromHome(page, "Last Seat Soiree");
    // Someone else holds the only seat while this visitor is still typing.
    const db = openDatabase(`${server.dataDir}/app.db`);
    const [other] = insertPaidBookings(db, lastSeatId, 1);
    db.update(bookings)
      .set({ status: "held", holdExpiresAt: Date.now() + 30 * 60_000 })
      .where(eq(bookings.id, other!.bookingId))
      .run();
    db.$client.close();

    await verify(page, "0498 765 432", "+61498765432");
    await fillDetails(page, { name: "Arjun Rao", email: "arjun@example.com", gender: "male", photo });
    await page.getByRole("button", { name: "Submit" }).click();
    await expect.poll(() => alerts).toEqual([SOLD_OUT]);
    expect(page.url()).toContain("/otp-verification");
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("explains what is missing when the pages are opened directly", async () => {
    const { context } = await newContext(browser, server.url);
    const page = await context.newPage();
    await page.goto("/confirmation");
    await page.getByText("Error: No user or event data available.").waitFor();
    await expect.poll(() => page.getByRole("link", { name: "Back to upcoming events" }).isVisible()).toBe(true);
    await expectAccessible(page, "the confirmation opened directly");
    await page.goto("/otp-verification");
    await page.getByRole("link", { name: "Back to upcoming events" }).waitFor();
    await expect.poll(() => page.getByLabel("Mobile number").count()).toBe(0);
    await context.close();
  });
});
