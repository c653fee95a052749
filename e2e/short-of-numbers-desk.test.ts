import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../db/client.ts";
import { insertEvent } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, desktop, devOutbox, newContext, noBrowser, signInAsOrganiser } from "./harness.ts";
import { expectAccessible } from "./page-checks.ts";
import { bookAndPay } from "./steps.ts";

// The desk's Short of numbers at 1366 px (issue 52 part 3): a night found short at its deciding time
// shows the badge and what it lacks on the Overview; Move to another night sends its guests a choice
// (keep a seat on a later night of the same format, or a refund or credit), and Cancel the night asks
// another night's guests to choose a refund or credit. Nothing was said to the guests before.

const SESSION_SECRET = "e2e-short-desk-secret-e2e-short-desk-0123456";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const test = browserSuite({ serverEnv: { SESSION_SECRET } });

describe.skipIf(noBrowser)("Short of numbers on the desk", () => {
  let server: AppServer;
  let browser: Browser;
  let moved: Awaited<ReturnType<typeof bookAndPay>>;
  let cancelled: Awaited<ReturnType<typeof bookAndPay>>;

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    const db = openDatabase(`${server.dataDir}/app.db`);
    const uploads = `${server.dataDir}/uploads`;
    const short = { minimumFemale: 6, minimumMale: 6, totalSeats: 20, seatsMale: 10, seatsFemale: 10 };
    const monsoon = await insertEvent(db, uploads, { name: "Monsoon Mixer", startsAt: Date.now() + 2 * DAY, ...short });
    const saffron = await insertEvent(db, uploads, {
      name: "Saffron Social",
      startsAt: Date.now() + 2 * DAY,
      ...short,
    });
    await insertEvent(db, uploads, { name: "Diwali Lights Night", startsAt: Date.now() + 9 * DAY, totalSeats: 20 });
    db.$client.close();
    moved = await bookAndPay(server, SESSION_SECRET, monsoon.id, "Anika Rao");
    cancelled = await bookAndPay(server, SESSION_SECRET, saffron.id, "Dev Malhotra");
    // The check at the deciding time found both short (the scheduler's job, tested in the API suite).
    const after = openDatabase(`${server.dataDir}/app.db`);
    after.$client
      .prepare("UPDATE events SET minimum_checked_at = ?, short_of_numbers_at = ? WHERE id IN (?, ?)")
      .run(Date.now() - HOUR, Date.now() - HOUR, monsoon.id, saffron.id);
    after.$client.close();
  }, 180_000);

  it("shows what is short, moves one night's guests and cancels another's, each guest asked once", {
    timeout: 240_000,
  }, async () => {
    const { context, pageErrors } = await newContext(browser, server.url, desktop);
    const page = await context.newPage();
    const textsTo = async (phone: string) => (await devOutbox(server.url)).filter((m) => m.to === phone);
    const before = { moved: (await textsTo(moved.phone)).length, cancelled: (await textsTo(cancelled.phone)).length };

    await signInAsOrganiser(page, "/admin");
    const row = (name: string) => page.getByRole("row").filter({ has: page.getByRole("rowheader", { name }) });
    await row("Monsoon Mixer").getByText("Short of numbers").waitFor();
    await row("Monsoon Mixer")
      .getByText(/of 6 women, \d of 6 men/)
      .waitFor();
    await row("Saffron Social").getByText("Short of numbers").waitFor();
    await expect.poll(() => row("Diwali Lights Night").getByText("Short of numbers").count()).toBe(0);
    await expectAccessible(page, "the Overview with a night short of numbers");

    await row("Monsoon Mixer").getByRole("button", { name: "Move to another night" }).click();
    const dialog = page.getByRole("dialog", { name: "Move the guests of Monsoon Mixer" });
    // Every other night of the same format still to come, never the night itself.
    await expect
      .poll(() => dialog.getByLabel("Move to").locator("option").allTextContents())
      .toEqual(["Saffron Social", "Diwali Lights Night"]);
    await dialog.getByLabel("Move to").selectOption({ label: "Diwali Lights Night" });
    await expectAccessible(page, "Move to another night");
    await dialog.getByRole("button", { name: "Move to another night" }).click();
    await page
      .getByText("Diwali Lights Night: 1 guest asked to keep a seat there, or take a refund or credit.")
      .waitFor();
    await expect.poll(async () => (await textsTo(moved.phone)).length).toBe(before.moved + 1);
    expect((await textsTo(moved.phone)).at(-1)?.body).toMatch(/\/choose\?t=/);
    await expect.poll(() => row("Monsoon Mixer").getByText("Cancelled").count()).toBe(1);

    await row("Saffron Social").getByRole("button", { name: "Cancel the night" }).click();
    const confirm = page.getByRole("dialog", { name: "Cancel Saffron Social?" });
    await confirm.getByText("Anyone who doesn't choose within 72 hours gets the refund.").waitFor();
    await confirm.getByRole("button", { name: "Cancel the night" }).click();
    await page.getByText("Night cancelled. 1 guest asked to choose a refund or credit.").waitFor();
    await expect.poll(async () => (await textsTo(cancelled.phone)).length).toBe(before.cancelled + 1);
    expect((await textsTo(cancelled.phone)).at(-1)?.body).toMatch(/\/choose\?t=/);
    await expect.poll(() => row("Saffron Social").getByText("Short of numbers").count()).toBe(0);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
