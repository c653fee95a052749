import { describe, expect } from "vitest";
import { openDatabase } from "../db/client.ts";
import { insertEvent } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, devOutbox, newContext, noBrowser } from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks.ts";
import { bookAndPay, organiserCookie, signInOnMe } from "./steps.ts";

// Cancel the night with the guests choosing, at phone size (issue 52 part 3,
// docs/decisions/059-short-of-numbers.md): the organiser cancels a night short of numbers; the guest
// opens the link from their text, sees the night and the two choices, picks Credit, sees what was
// done, and the credit is on their number (/me). A second visit shows the choice already made.

const SESSION_SECRET = "e2e-choose-secret-e2e-choose-secret-0123";
const DAY = 24 * 3_600_000;

const test = browserSuite({ serverEnv: { SESSION_SECRET } });

/** The /choose link texted to `phone`, once it has been. */
async function choiceLinkTexted(server: AppServer, phone: string): Promise<URL> {
  await expect
    .poll(async () => (await devOutbox(server.url)).some((m) => m.to === phone && m.body.includes("/choose?t=")))
    .toBe(true);
  const text = (await devOutbox(server.url)).filter((m) => m.to === phone).at(-1)?.body ?? "";
  return new URL(text.match(/https?:\/\/\S+\/choose\?t=\S+$/)?.[0] ?? "");
}

describe.skipIf(noBrowser)("A guest's choice when the night is cancelled", () => {
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
