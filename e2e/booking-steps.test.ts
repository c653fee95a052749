import type { Browser, Dialog, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { MARKETING_LABELS } from "../common/consent-labels.ts";
import { ADULT_DATE_OF_BIRTH } from "../test/date-of-birth.ts";
import { makeImage } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, codeFor, fillDetails, newContext, noBrowser, verifyPhone } from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks.ts";
import { addEvent } from "./steps.ts";

// Issue 48, item 1: the booking flow in one place (docs/decisions/046-booking-flow-in-one-store.md).
// Each step's address names its event, and what was typed lives in one store for the tab, so Back
// and Forward keep every field, a reload resumes the step, and a new tab either loads the event by
// its id or says what is missing. At 390 px, as a guest books.

const DAY = 86_400_000;
const CONSENT = "I have read who sees my details";
const KEEP = "Keep my details for next time";

const test = browserSuite();

describe.skipIf(noBrowser)("the booking steps: Back, Forward, reloads and new tabs", () => {
  let server: AppServer;
  let browser: Browser;
  let photo: Buffer;
  let eventId: number;

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    eventId = (await addEvent(server, { name: "Riverside Social", startsAt: Date.now() + 10 * DAY, totalSeats: 20 }))
      .id;
    photo = await makeImage("png", 400, 400);
  });

  const acceptAlerts = (page: Page) => page.on("dialog", (dialog: Dialog) => void dialog.accept());
  const bookFromHome = async (page: Page) => {
    await page.goto("/");
    await page
      .locator("article.event-card", { hasText: "Riverside Social" })
      .getByRole("button", { name: "Book Tickets" })
      .click();
    await page.waitForURL(`**/otp-verification?eventID=${eventId}`);
  };
  /** Every field of the details form as it reads now: the values, the boxes and the photo's preview. */
  const fieldsOf = async (page: Page) => ({
    name: await page.getByLabel("Name").inputValue(),
    email: await page.getByLabel("Email", { exact: true }).inputValue(),
    gender: await page.getByLabel("Gender").inputValue(),
    dateOfBirth: await page.getByLabel("Date of birth").inputValue(),
    consent: await page.getByLabel(CONSENT).isChecked(),
    keep: await page.getByLabel(KEEP).isChecked(),
    sms: await page.getByLabel(MARKETING_LABELS.sms).isChecked(),
    email2: await page.getByLabel(MARKETING_LABELS.email).isChecked(),
    preview: await page
      .locator("img.photo-preview")
      .evaluateAll((imgs) =>
        imgs.some((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0),
      ),
  });

  it("keeps every field on Back from the confirmation, the photo's preview included, and Forward finds the hold", async () => {
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    acceptAlerts(page);
    await bookFromHome(page);
    await verifyPhone(page, server.url, "0412 555 301", "+61412555301");
    await fillDetails(page, { name: "Asha Verma", email: "asha@example.com", gender: "female", photo });
    await page.getByLabel(KEEP).check();
    await page.getByLabel(MARKETING_LABELS.sms).check();
    await page.getByLabel(MARKETING_LABELS.email).check();
    const filled = {
      name: "Asha Verma",
      email: "asha@example.com",
      gender: "female",
      dateOfBirth: ADULT_DATE_OF_BIRTH,
      consent: true,
      keep: true,
      sms: true,
      email2: true,
      preview: true,
    };
    await expect.poll(() => fieldsOf(page)).toEqual(filled);
    await page.getByRole("button", { name: "Submit" }).click();
    await page.waitForURL(`**/confirmation?eventID=${eventId}`);
    await page.getByRole("heading", { name: "Confirmation" }).waitFor();

    await page.goBack();
    await page.waitForURL(`**/otp-verification?eventID=${eventId}`);
    await page.getByLabel("Verified mobile").waitFor();
    await expect.poll(() => fieldsOf(page)).toEqual(filled);
    await expect.poll(() => page.getByText("Change photo").isVisible()).toBe(true);
    await expectAccessible(page, "the details form after Back");
    await expectNoSidewaysScroll(page);

    await page.goForward();
    await page.waitForURL(`**/confirmation?eventID=${eventId}`);
    await expect.poll(() => page.getByText("Asha Verma").isVisible()).toBe(true);
    await expect.poll(() => page.getByRole("button", { name: "Proceed to Payment" }).isEnabled()).toBe(true);

    // Back again, and Submit as it stands: the photo kept is the one sent, nothing chosen again.
    await page.goBack();
    await page.getByLabel("Verified mobile").waitFor();
    await page.getByRole("button", { name: "Submit" }).click();
    await page.waitForURL(`**/confirmation?eventID=${eventId}`);
    await expect.poll(() => page.getByText("Asha Verma").isVisible()).toBe(true);
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 120_000);

  it("resumes each step after a reload, loads the event by its id in a new tab, and says what is missing there", async () => {
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    acceptAlerts(page);

    // The code step, opened cold in a new tab: the event comes from the address.
    await page.goto(`/otp-verification?eventID=${eventId}`);
    await expect.poll(() => page.getByText("Riverside Social").first().isVisible()).toBe(true);
    await page.getByLabel("Mobile number").waitFor();
    await expectAccessible(page, "the booking page opened by its address");
    await expectNoSidewaysScroll(page);

    // The code sent, a reload asks for the same code.
    await page.getByLabel("Mobile number").fill("0412 555 302");
    await page.getByRole("button", { name: "Send OTP" }).click();
    await page.getByLabel("OTP", { exact: true }).waitFor();
    await page.reload();
    const otp = page.getByLabel("OTP", { exact: true });
    await otp.waitFor();
    await otp.fill(await codeFor(server.url, "+61412555302"));
    await page.getByRole("button", { name: "Verify OTP" }).click();
    await page.getByLabel("Name").waitFor();

    // The details, half typed, survive a reload.
    await page.getByLabel("Name").fill("Dev Kapoor");
    await page.getByLabel("Date of birth").fill(ADULT_DATE_OF_BIRTH);
    await page.reload();
    await page.getByLabel("Verified mobile").waitFor();
    await expect.poll(() => page.getByLabel("Name").inputValue()).toBe("Dev Kapoor");
    await expect.poll(() => page.getByLabel("Date of birth").inputValue()).toBe(ADULT_DATE_OF_BIRTH);

    await fillDetails(page, { name: "Dev Kapoor", email: "dev@example.com", gender: "male", photo });
    await page.getByRole("button", { name: "Submit" }).click();
    await page.waitForURL(`**/confirmation?eventID=${eventId}`);
    await page.getByRole("heading", { name: "Confirmation" }).waitFor();

    // The confirmation, reloaded, still shows the hold.
    await page.reload();
    await expect.poll(() => page.getByText("Dev Kapoor").isVisible()).toBe(true);
    await expect.poll(() => page.getByRole("button", { name: "Proceed to Payment" }).isEnabled()).toBe(true);

    // The same address in a new tab holds nothing: the missing-state message, and the way back to the event.
    const other = await context.newPage();
    await other.goto(page.url());
    await other.getByText("Error: No user or event data available.").waitFor();
    const back = other.getByRole("link", { name: "Back to the event" });
    await expect.poll(() => back.getAttribute("href")).toBe(`/?event=${eventId}`);
    expect(await other.locator("main").textContent()).not.toContain("Dev Kapoor");
    await expectAccessible(other, "the confirmation in a new tab");
    await back.click();
    await other.locator("article.event-card.highlighted", { hasText: "Riverside Social" }).waitFor();
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 120_000);

  it("marks the missing date of birth where it is, says what it lacks beside it, and moves the focus there", async () => {
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    acceptAlerts(page);
    await bookFromHome(page);
    await verifyPhone(page, server.url, "0412 555 303", "+61412555303");
    await page.getByLabel("Name").fill("Nina Bose");
    await page.getByLabel("Email", { exact: true }).fill("nina@example.com");
    await page.getByLabel("Gender").selectOption("female");
    await page.getByLabel("Photo").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: photo });
    await page.getByLabel(CONSENT).check();
    await page.getByRole("button", { name: "Submit" }).click();

    await page.getByText("All fields are required.").waitFor();
    const dateOfBirth = page.getByLabel("Date of birth");
    await expect.poll(() => dateOfBirth.getAttribute("aria-invalid")).toBe("true");
    const describedBy = (await dateOfBirth.getAttribute("aria-describedby")) ?? "";
    expect(describedBy).not.toBe("");
    await expect
      .poll(() =>
        page.evaluate((ids) => ids.split(" ").map((id) => document.getElementById(id)?.textContent), describedBy),
      )
      .toContain("Enter your date of birth.");
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name))
      .toBe("dateOfBirth");
    // Only what is missing is marked.
    for (const label of ["Name", "Gender"])
      expect(await page.getByLabel(label).getAttribute("aria-invalid")).toBeNull();
    expect(await page.getByLabel("Email", { exact: true }).getAttribute("aria-invalid")).toBeNull();
    await expectAccessible(page, "the details form with the date of birth missing");
    await expectNoSidewaysScroll(page);

    // Filled in, the mark and the messages go.
    await dateOfBirth.fill(ADULT_DATE_OF_BIRTH);
    await expect.poll(() => dateOfBirth.getAttribute("aria-invalid")).toBeNull();
    await expect.poll(() => page.getByText("Enter your date of birth.").count()).toBe(0);
    await expect.poll(() => page.getByText("All fields are required.").count()).toBe(0);
    await page.getByRole("button", { name: "Submit" }).click();
    await page.waitForURL(`**/confirmation?eventID=${eventId}`);
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 120_000);
});
