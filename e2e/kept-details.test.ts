import { readFile } from "node:fs/promises";
import type { Browser, Dialog, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { MyData } from "../api/booking/my-data.ts";
import { openDatabase } from "../db/client.ts";
import { insertEvent, makeImage } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, fillDetails, newContext, noBrowser, verifyPhone } from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks.ts";
import { signInOnMe } from "./steps.ts";

// Details kept if I choose, and erasing them, at phone size (docs/decisions/029-kept-details.md): a
// guest books with **Keep my details for next time** ticked, signs in on /me, books another night
// with the form filled in and **Use my saved photo**, downloads their data and deletes their details.

const DAY = 24 * 60 * 60 * 1000;
const PHONE = "+61412000229";
const TYPED = "0412 000 229";

const test = browserSuite();

describe.skipIf(noBrowser)("Details kept for next time", () => {
  let server: AppServer;
  let browser: Browser;
  let photo: Buffer;

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    const db = openDatabase(`${server.dataDir}/app.db`);
    const uploads = `${server.dataDir}/uploads`;
    await insertEvent(db, uploads, { name: "Harbour Lights Mixer", startsAt: Date.now() + 7 * DAY });
    await insertEvent(db, uploads, { name: "Autumn Lanterns Night", startsAt: Date.now() + 14 * DAY });
    db.$client.close();
    photo = await makeImage("png", 400, 400);
  });

  const acceptAlerts = (page: Page) => page.on("dialog", (dialog: Dialog) => void dialog.accept());
  const bookFromHome = async (page: Page, eventName: string) => {
    await page.goto("/");
    await page
      .locator("article.event-card", { hasText: eventName })
      .getByRole("button", { name: "Book Tickets" })
      .click();
    await page.waitForURL("**/otp-verification?eventID=*");
  };

  it("keeps the details when asked, fills in the next booking with the saved photo, downloads and deletes them", async () => {
    const { context, pageErrors } = await newContext(browser, server.url, {
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
      acceptDownloads: true,
    });
    const page = await context.newPage();
    acceptAlerts(page);

    // First night: the box starts unticked; ticked, the details are kept.
    await bookFromHome(page, "Harbour Lights Mixer");
    await verifyPhone(page, server.url, TYPED, PHONE);
    const keep = page.getByLabel("Keep my details for next time");
    await keep.waitFor();
    expect(await keep.isChecked()).toBe(false);
    await fillDetails(page, { name: "Meera Iyer", email: "meera@example.com", gender: "female", photo });
    await keep.check();
    await expectAccessible(page, "the details form with the keep box");
    await expectNoSidewaysScroll(page);
    await page.getByRole("button", { name: "Submit" }).click();
    await page.waitForURL("**/confirmation?eventID=*");

    // Sign in on /me with a code typed now.
    await page.goto("/me");
    await signInOnMe(page, server.url, PHONE);

    // Second night: filled in from the kept details, the saved photo offered, the consent note still there.
    await bookFromHome(page, "Autumn Lanterns Night");
    await page.getByLabel("Mobile number").fill(TYPED);
    await page.getByRole("button", { name: "Send OTP" }).click();
    await page.getByLabel("Name").waitFor();
    await expect.poll(() => page.getByLabel("Name").inputValue()).toBe("Meera Iyer");
    await expect.poll(() => page.getByLabel("Email", { exact: true }).inputValue()).toBe("meera@example.com");
    const saved = page.getByLabel("Use my saved photo");
    await expect.poll(() => saved.isChecked()).toBe(true);
    // The saved photo itself, to see what will be used: loaded, not a broken image.
    const savedPhoto = page.getByRole("img", { name: "You, as saved for next time" });
    await expect
      .poll(() => savedPhoto.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBeGreaterThan(0);
    expect(await page.getByLabel("Photo", { exact: true }).count()).toBe(0);
    await page
      .getByText("Your photo and name are shown to the people you meet that night.", { exact: false })
      .waitFor();
    expect(await page.getByLabel("Keep my details for next time").isChecked()).toBe(false);
    // A new photo is one choice away.
    await page.getByLabel("Choose a new photo").check();
    await page.getByLabel("Photo", { exact: true }).waitFor();
    await saved.check();
    await expectAccessible(page, "the details form filled in from the kept details");
    await expectNoSidewaysScroll(page);
    await page.getByLabel("I have read who sees my details").check();
    await page.getByRole("button", { name: "Submit" }).click();
    await page.waitForURL("**/confirmation?eventID=*");

    // Download my data: a file of both bookings and the kept details.
    await page.goto("/me");
    await page.getByRole("heading", { name: "Your details" }).waitFor();
    await expectAccessible(page, "My nights with Your details");
    await expectNoSidewaysScroll(page);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download my data" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("my-data.json");
    const data = JSON.parse(await readFile((await download.path()) as string, "utf8")) as MyData;
    expect(data.phone).toBe(PHONE);
    expect(data.keptDetails).toMatchObject({ name: "Meera Iyer", hasPhoto: true });
    expect(data.bookings.map((b) => b.eventName).sort()).toEqual(["Autumn Lanterns Night", "Harbour Lights Mixer"]);
    expect(data.bookings.every((b) => b.details.photo)).toBe(true);
    await page.getByText("Your data is downloaded as my-data.json.").waitFor();

    // Delete my details: asked once more, then erased; signed out.
    await page.getByRole("button", { name: "Delete my details" }).click();
    await page.getByRole("button", { name: "Yes, delete my details" }).click();
    await page.getByText("Your details are deleted", { exact: false }).waitFor();
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await expectAccessible(page, "My nights after deleting the details");

    const db = openDatabase(`${server.dataDir}/app.db`);
    const rows = db.$client
      .prepare("select name, email, date_of_birth as dob, image_name as image from users where phone = ?")
      .all(PHONE) as { name: string; email: string; dob: string | null; image: string }[];
    const kept = db.$client.prepare("select count(*) as n from kept_details").get() as { n: number };
    db.$client.close();
    expect(rows).toHaveLength(2);
    for (const row of rows)
      expect(row).toEqual({ name: "Erased attendee", email: "erased@invalid", dob: null, image: "none.jpg" });
    expect(kept.n).toBe(0);

    // The next booking offers no saved photo (the name may still come from this phone's own draft).
    await bookFromHome(page, "Autumn Lanterns Night");
    await page.getByLabel("Mobile number").fill(TYPED);
    await page.getByRole("button", { name: "Send OTP" }).click();
    await page.getByLabel("Name").waitFor();
    await page.getByLabel("Photo", { exact: true }).waitFor();
    expect(await page.getByLabel("Use my saved photo").count()).toBe(0);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
