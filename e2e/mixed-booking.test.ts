import { eq } from "drizzle-orm";
import type { Browser, Dialog, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../db/client.ts";
import { users } from "../db/schema.ts";
import { insertEvent, makeImage } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, fillDateOfBirth, newContext, noBrowser, phone, verifyPhone } from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks.ts";

// Issue 37, part 5: the booking asks what the night's format needs. A Mixed night asks Gender
// (Woman, Man, Non-binary) and Would like to meet (Women, Men, Everyone), says why and that nobody
// sees it, and keeps the second answer out of the draft; a One group night asks no gender at all.
// At 390 px, from the home page's card.

const DAY = 86_400_000;

const test = browserSuite();

describe.skipIf(noBrowser)("booking a Mixed night and a One group night", () => {
  let server: AppServer;
  let browser: Browser;
  let photo: Buffer;

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    const db = openDatabase(`${server.dataDir}/app.db`);
    const uploads = `${server.dataDir}/uploads`;
    await insertEvent(db, uploads, { name: "Open Hearts Mixer", format: "mixed", startsAt: Date.now() + 9 * DAY });
    await insertEvent(db, uploads, { name: "Women's Circle", format: "one_group", startsAt: Date.now() + 10 * DAY });
    db.$client.close();
    photo = await makeImage("png", 400, 400);
  });

  const acceptDialogs = (page: Page) => {
    const seen: string[] = [];
    page.on("dialog", (dialog: Dialog) => {
      seen.push(dialog.message());
      void dialog.accept();
    });
    return seen;
  };

  async function openCard(page: Page, name: string) {
    await page.goto("/");
    const card = page.locator("article.event-card", { hasText: name });
    await card.waitFor();
    return card;
  }

  it("a Mixed night's card names its format and seats, and its booking asks both questions", async () => {
    const { context, pageErrors } = await newContext(browser, server.url, phone);
    const page = await context.newPage();
    const alerts = acceptDialogs(page);
    const card = await openCard(page, "Open Hearts Mixer");
    await card.getByText("Mixed", { exact: true }).waitFor();
    await card.getByText("10 seats left", { exact: true }).waitFor();
    await card.getByRole("button", { name: "Book Tickets" }).click();
    await page.waitForURL("**/otp-verification?eventID=*");
    await verifyPhone(page, server.url, "0412 555 101", "+61412555101");

    // No Male/Female select: the Mixed questions, with why and who sees the answer.
    expect(await page.getByRole("combobox", { name: "Gender" }).count()).toBe(0);
    const gender = page.getByRole("group", { name: "Gender" });
    const wish = page.getByRole("group", { name: "Would like to meet" });
    await gender.getByRole("radio", { name: "Non-binary" }).waitFor();
    await gender.getByRole("radio", { name: "Woman", exact: true }).waitFor();
    await gender.getByRole("radio", { name: "Man", exact: true }).waitFor();
    for (const label of ["Women", "Men", "Everyone"])
      await wish.getByRole("radio", { name: label, exact: true }).waitFor();
    await page.getByText(/Nobody sees your answer/).waitFor();
    // Every radio is drawn alike, at a radio's size: Non-binary was a large circle (issue 46, item 14).
    const radioSizes = await page
      .getByRole("radio")
      .evaluateAll((radios: HTMLInputElement[]) =>
        radios.map((r) => `${r.labels?.[0]?.textContent?.trim()}: ${r.offsetWidth}x${r.offsetHeight}`),
      );
    expect(radioSizes).toHaveLength(6);
    for (const size of radioSizes) expect(size.replace(/^.*: /, "")).toBe(radioSizes[0]?.replace(/^.*: /, ""));
    const [side = 0] = radioSizes[0]?.replace(/^.*: /, "").split("x").map(Number) ?? [];
    expect(side).toBeGreaterThanOrEqual(16);
    expect(side).toBeLessThanOrEqual(24);

    await page.getByLabel("Name").fill("Sam Rao");
    await page.getByLabel("Email", { exact: true }).fill("sam@example.com");
    await fillDateOfBirth(page);
    await page.getByLabel("Photo").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: photo });
    await page.getByLabel("I have read who sees my details").check();
    await gender.getByRole("radio", { name: "Non-binary" }).check();
    // Whom they would like to meet is required at a Mixed night.
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByText("All fields are required.").waitFor();
    await expectNoSidewaysScroll(page);
    await expectAccessible(page, "a Mixed night's details form");
    // Never kept in the draft this browser saves for Back and reloads.
    await wish.getByRole("radio", { name: "Everyone" }).check();
    const drafts = await page.evaluate(() => JSON.stringify({ ...sessionStorage, ...localStorage }));
    expect(drafts).not.toContain("everyone");

    await page.getByRole("button", { name: "Submit" }).click();
    await page.waitForURL("**/confirmation?eventID=*");
    expect(alerts).toEqual(["Form submitted successfully!"]);
    await page.getByRole("heading", { name: "Confirmation" }).waitFor();
    // The confirmation says the gender given, never the wish.
    await page.getByText("Non-binary", { exact: true }).waitFor();
    const shown = (await page.locator("main").textContent()) ?? "";
    expect(shown.match(/.{0,60}(Everyone|would like to meet).{0,60}/i)?.[0] ?? null).toBeNull();
    await expectAccessible(page, "the confirmation of a Mixed booking");

    const db = openDatabase(`${server.dataDir}/app.db`);
    const row = db.select().from(users).where(eq(users.phone, "+61412555101")).get();
    db.$client.close();
    expect(row).toMatchObject({ gender: "nonbinary", wantsToMeet: "everyone" });
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("a One group night's booking asks no gender at all", async () => {
    const { context, pageErrors } = await newContext(browser, server.url, phone);
    const page = await context.newPage();
    acceptDialogs(page);
    const card = await openCard(page, "Women's Circle");
    await card.getByText("One group", { exact: true }).waitFor();
    await card.getByRole("button", { name: "Book Tickets" }).click();
    await page.waitForURL("**/otp-verification?eventID=*");
    await verifyPhone(page, server.url, "0412 555 102", "+61412555102");
    await page.getByLabel("Name").fill("Tara Das");
    await page.getByLabel("Email", { exact: true }).fill("tara@example.com");
    await fillDateOfBirth(page);
    expect(await page.getByLabel("Gender").count()).toBe(0);
    expect(await page.getByText("Would like to meet").count()).toBe(0);
    await page.getByLabel("Photo").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: photo });
    await page.getByLabel("I have read who sees my details").check();
    await page.getByRole("button", { name: "Submit" }).click();
    await page.waitForURL("**/confirmation?eventID=*");
    await page.getByRole("heading", { name: "Confirmation" }).waitFor();
    expect(await page.getByText("Gender", { exact: true }).count()).toBe(0);
    const db = openDatabase(`${server.dataDir}/app.db`);
    const row = db.select().from(users).where(eq(users.phone, "+61412555102")).get();
    db.$client.close();
    expect(row).toMatchObject({ gender: "unasked", wantsToMeet: null });
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
