import { describe, expect } from "vitest";
import { openDatabase } from "../db/client.ts";
import { insertEvent } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, desktop, devOutbox, newContext, noBrowser, signInAsOrganiser } from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks.ts";
import { bookAndPay, organiserCookie, signInOnMe } from "./steps.ts";

// A night short of numbers (issue 52 part 3, docs/decisions/059-short-of-numbers.md). On the desk at
// 1366 px: the Overview shows Short of numbers and what is missing; Move to another night and Cancel
// the night each text every guest once (nothing was said to them before). At phone size: the guest
// opens the link from their text, sees the night and the choices, picks Credit, sees what was done,
// and the credit is on their number (/me), a second visit showing the choice already made; a guest of
// a moved night keeps a seat on the new one and gets its ticket.

const SESSION_SECRET = "e2e-choose-secret-e2e-choose-secret-0123";
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const test = browserSuite({ serverEnv: { SESSION_SECRET } });

/** The /choose link texted to `phone`, once it has been. */
async function choiceLinkTexted(server: AppServer, phone: string): Promise<URL> {
  await expect
    .poll(async () => (await devOutbox(server.url)).some((m) => m.to === phone && m.body.includes("/choose?t=")))
    .toBe(true);
  const text = (await devOutbox(server.url)).filter((m) => m.to === phone).at(-1)?.body ?? "";
  return new URL(text.match(/https?:\/\/\S+\/choose\?t=\S+$/)?.[0] ?? "");
}

describe.skipIf(noBrowser)("A night short of numbers: the desk, and each guest's choice", () => {
  // The desk at 1366 px: first in the file, so the Overview lists only its own nights.
  test("shows what is short on the desk, moves one night's guests and cancels another's, each asked once", {
    timeout: 300_000,
  }, async ({ server, browser }) => {
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
    const moved = await bookAndPay(server, SESSION_SECRET, monsoon.id, "Anika Rao");
    const cancelled = await bookAndPay(server, SESSION_SECRET, saffron.id, "Dev Malhotra");
    // The check at the deciding time found both short (the scheduler's job, tested in the API suite).
    const after = openDatabase(`${server.dataDir}/app.db`);
    after.$client
      .prepare("UPDATE events SET minimum_checked_at = ?, short_of_numbers_at = ? WHERE id IN (?, ?)")
      .run(Date.now() - HOUR, Date.now() - HOUR, monsoon.id, saffron.id);
    after.$client.close();
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

  // A booking, the cancel, two pages and a sign-in: minutes, not seconds, on two busy cores.
  test("opens the texted link, picks Credit, sees it done, and the credit is on /me", {
    timeout: 240_000,
  }, async ({ server, browser }) => {
    const db = openDatabase(`${server.dataDir}/app.db`);
    const event = await insertEvent(db, `${server.dataDir}/uploads`, {
      name: "Riverside Pairs Night",
      startsAt: Date.now() + 7 * DAY,
      minimumFemale: 6,
      minimumMale: 6,
    });
    db.$client.close();
    const guest = await bookAndPay(server, SESSION_SECRET, event.id, "Priya Nair");

    // The desk's Cancel the night.
    const cancelled = await fetch(`${server.url}/api/cancel-event`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: await organiserCookie(server.url) },
      body: JSON.stringify({ eventId: event.id, guestsChoose: true }),
    });
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toMatchObject({ refunded: 0, asked: 1 });

    // The guest's phone: the link from the text.
    const link = await choiceLinkTexted(server, guest.phone);
    const phone = await newContext(browser, server.url);
    const page = await phone.context.newPage();
    await page.goto(link.pathname + link.search);
    await page.getByRole("heading", { name: "Your night was cancelled" }).waitFor();
    await page.getByText("Riverside Pairs Night", { exact: false }).waitFor();
    const refund = page.getByRole("button", { name: /^Refund \$\d+\.\d\d$/ });
    const credit = page.getByRole("button", { name: /^Credit \$\d+\.\d\d$/ });
    await refund.waitFor();
    await expect.poll(() => page.getByRole("button", { name: /Keep my seat/ }).count()).toBe(0);
    await expect.poll(() => page.getByText(guest.phone).count()).toBe(0);
    await expectAccessible(page, "the guest's choice");
    await expectNoSidewaysScroll(page);

    // By keyboard: Tab to Credit and press Enter.
    await credit.focus();
    await page.keyboard.press("Enter");
    await page.getByText("You chose credit", { exact: false }).waitFor();
    await expect.poll(() => page.getByRole("button", { name: /^Refund/ }).count()).toBe(0);
    await expectAccessible(page, "the choice made");

    // Opened again: the choice already made.
    await page.reload();
    await page.getByText("You chose credit", { exact: false }).waitFor();

    // My nights: signed in with the mobile, the credit is on the number.
    await page.goto("/me");
    await signInOnMe(page, server.url, guest.phone);
    await page.getByRole("region", { name: /^Credit: \$\d+\.\d\d$/ }).waitFor();

    // A link cut short says so.
    await page.goto("/choose?t=12");
    await page.getByRole("heading", { name: "This link is not valid" }).waitFor();
    await expectAccessible(page, "a bad choice link");
    expect(phone.pageErrors).toEqual([]);
    await phone.context.close();
  });

  test("a moved night: the guest keeps a seat on the new night and gets its ticket", {
    timeout: 240_000,
  }, async ({ server, browser }) => {
    const db = openDatabase(`${server.dataDir}/app.db`);
    const uploads = `${server.dataDir}/uploads`;
    const from = await insertEvent(db, uploads, { name: "Lotus Lounge Night", startsAt: Date.now() + 5 * DAY });
    const to = await insertEvent(db, uploads, { name: "Lotus Lounge Encore", startsAt: Date.now() + 12 * DAY });
    db.$client.close();
    const guest = await bookAndPay(server, SESSION_SECRET, from.id, "Rohan Das");
    const moved = await fetch(`${server.url}/api/move-event-guests`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: await organiserCookie(server.url) },
      body: JSON.stringify({ fromEventId: from.id, toEventId: to.id }),
    });
    expect(await moved.json()).toEqual({ success: true, asked: 1 });
    const link = await choiceLinkTexted(server, guest.phone);
    const phone = await newContext(browser, server.url);
    const page = await phone.context.newPage();
    await page.goto(link.pathname + link.search);
    await page.getByRole("heading", { name: "Your night has moved" }).waitFor();
    await page.getByRole("button", { name: /^Refund \$\d+\.\d\d$/ }).waitFor();
    await page.getByRole("button", { name: /^Credit \$\d+\.\d\d$/ }).waitFor();
    const keep = page.getByRole("button", { name: /^Keep my seat on / });
    await keep.waitFor();
    await expectAccessible(page, "a moved night's choice");
    await expectNoSidewaysScroll(page);
    await keep.click();
    await page.getByText("You kept your seat: your new ticket for Lotus Lounge Encore", { exact: false }).waitFor();
    // The new night's ticket is texted as a paid booking's is.
    await expect
      .poll(async () =>
        (await devOutbox(server.url)).some(
          (m) => m.to === guest.phone && /ticket code is [A-Z2-9]{10}/.test(m.body) && m.body.includes("Encore"),
        ),
      )
      .toBe(true);
    expect(phone.pageErrors).toEqual([]);
    await phone.context.close();
  });
});
