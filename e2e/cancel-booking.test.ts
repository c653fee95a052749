import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../db/client.ts";
import { waitlistEntries } from "../db/schema.ts";
import { insertEvent } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, devOutbox, newContext, noBrowser, phone } from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll, waitForServiceWorker } from "./page-checks.ts";
import { bookAndPay, paidNightOf, signInOnMe } from "./steps.ts";

// Cancel my booking at phone size (docs/decisions/028-cancellation-money-path.md): signed in on /me
// with two upcoming nights, the guest cancels one, sees what comes back before confirming and after,
// and the first person on that night's waitlist is texted the freed seat. And from the ticket itself,
// on a phone not signed in: the policy on the ticket, sign in, the cancel, the saved ticket void.

const SESSION_SECRET = "e2e-cancel-secret-e2e-cancel-secret-0123";
const DAY = 24 * 3_600_000;
const WAITING = "+61455501234";

const test = browserSuite({ serverEnv: { SESSION_SECRET } });

describe.skipIf(noBrowser)("Cancel my booking", () => {
  let server: AppServer;
  let browser: Browser;
  let guest: Awaited<ReturnType<typeof bookAndPay>>;
  let riverside: Awaited<ReturnType<typeof bookAndPay>>;

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    const db = openDatabase(`${server.dataDir}/app.db`);
    const uploads = `${server.dataDir}/uploads`;
    const now = Date.now();
    const full = await insertEvent(db, uploads, {
      name: "Harbour Lights Mixer",
      startsAt: now + 7 * DAY,
      totalSeats: 1,
    });
    const other = await insertEvent(db, uploads, {
      name: "Laneway Supper Club",
      startsAt: now + 14 * DAY,
      cancelFullRefundHours: 24,
      cancelLaterPercent: 50,
    });
    const walk = await insertEvent(db, uploads, {
      name: "Riverside Lantern Walk",
      startsAt: now + 10 * DAY,
      cancelFullRefundHours: 24,
      cancelLaterPercent: 50,
    });
    db.$client.close();
    guest = await bookAndPay(server, SESSION_SECRET, full.id, "Meera Iyer");
    riverside = await bookAndPay(server, SESSION_SECRET, walk.id, "Riya Shah");
    const again = openDatabase(`${server.dataDir}/app.db`);
    // The second night, booked by the same number; and someone waiting for the first, which is full.
    paidNightOf(again, {
      phone: guest.phone,
      eventId: other.id,
      name: "Meera Iyer",
      uniqueCode: "LANEWAY234",
      paidAt: now - DAY,
      key: "cancel",
    });
    again.insert(waitlistEntries).values({ eventId: full.id, phone: WAITING, gender: "female", name: "Wren" }).run();
    again.$client.close();
  });

  it("cancels one night from /me, shows the refund before and after, and the waitlist's offer goes out", async () => {
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    // The policy on the event card's details, opened by keyboard.
    await page.goto("/");
    const card = page.getByRole("article", { name: /Laneway Supper Club/ });
    await card.getByText("Cancellation policy").focus();
    await page.keyboard.press("Enter");
    await card
      .getByText(
        "Cancel up to 24 hours before the start for a full refund; after that, 50% comes back until the start.",
      )
      .waitFor();
    await card.getByText("This does not affect your rights under the Australian Consumer Law.").waitFor();
    await expectAccessible(page, "Home with a card's cancellation policy open");
    await page.goto("/me");
    await signInOnMe(page, server.url, guest.phone);

    const upcoming = page.getByRole("region", { name: "Upcoming" });
    const nights = upcoming.getByRole("listitem");
    await expect.poll(() => nights.count()).toBe(2);
    const night = nights.filter({ has: page.getByRole("article", { name: "Ticket for Harbour Lights Mixer" }) });
    await night.getByText("Cancel up to 48 hours before the start for a full refund; after that, no refund.").waitFor();
    await night.getByText("This does not affect your rights under the Australian Consumer Law.").waitFor();
    await expectAccessible(page, "My nights with Cancel my booking");
    await expectNoSidewaysScroll(page);

    await night.getByRole("button", { name: "Cancel my booking" }).click();
    await night.getByText("You'll get back the full $45.00.").waitFor();
    await expectAccessible(page, "Cancel my booking, asking");
    await night.getByRole("button", { name: "Yes, cancel Harbour Lights Mixer" }).click();
    // Said out loud where it stays: the pressed button leaves with the night, so the news takes the focus.
    const said = page.getByRole("status").filter({
      hasText: "Your booking for Harbour Lights Mixer is cancelled. $45.00 is being refunded to your card.",
    });
    await said.waitFor();
    await expect.poll(() => said.evaluate((el) => el === document.activeElement)).toBe(true);

    // Listed again: the night moved to Cancelled and refunded, with what came back.
    const ended = page.getByRole("region", { name: "Cancelled and refunded" });
    const cancelled = ended.getByRole("article", { name: "Harbour Lights Mixer" });
    await cancelled.getByText("You cancelled this booking.", { exact: false }).waitFor();
    await cancelled.getByText("$45.00 was refunded to your card.", { exact: false }).waitFor();
    await expect.poll(() => upcoming.getByRole("listitem").count()).toBe(1);
    await upcoming.getByRole("article", { name: "Ticket for Laneway Supper Club" }).waitFor();
    await expectAccessible(page, "My nights after a cancel");
    await expectNoSidewaysScroll(page);

    // The guest's text, and the freed seat offered to the person waiting (the dev outbox).
    await expect
      .poll(async () => (await devOutbox(server.url)).filter((m) => m.to === guest.phone).map((m) => m.body))
      .toContainEqual(expect.stringMatching(/^Your booking for Harbour Lights Mixer is cancelled\. \$45\.00/));
    await expect
      .poll(async () => (await devOutbox(server.url)).filter((m) => m.to === WAITING).map((m) => m.body))
      .toContainEqual(expect.stringContaining("/waitlist-offer?o="));
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("cancels from the ticket on a phone not signed in: the policy on the ticket, sign in, and the ticket is void", async () => {
    const { context, pageErrors } = await newContext(browser, server.url, { ...phone, serviceWorkers: "allow" });
    const page = await context.newPage();
    // The texted link saves the ticket on this phone; its card says the policy and offers the cancel.
    await page.goto(riverside.linkPath);
    const ticket = page.getByRole("listitem").filter({
      has: page.getByRole("article", { name: "Ticket for Riverside Lantern Walk" }),
    });
    await ticket
      .getByText(
        "Cancel up to 24 hours before the start for a full refund; after that, 50% comes back until the start.",
      )
      .waitFor();
    await ticket.getByText("This does not affect your rights under the Australian Consumer Law.").waitFor();
    await expectAccessible(page, "A saved ticket with its cancellation policy");
    await expectNoSidewaysScroll(page);
    await ticket.getByRole("button", { name: "Cancel my booking" }).click();
    await ticket.getByText("You'll get back the full $45.00.").waitFor();
    await ticket.getByRole("button", { name: "Yes, cancel Riverside Lantern Walk" }).click();
    // Not signed in: nothing is cancelled, and the way on is to sign in with the ticket's number.
    await ticket.getByText("To cancel, sign in on My nights with the mobile this ticket was booked with.").waitFor();
    await ticket.getByRole("link", { name: "Sign in to cancel" }).click();
    await page.waitForURL(/\/me\?cancel=\d+-\d+$/);
    await page
      .getByText("To cancel your booking, sign in with the mobile it was booked with.", { exact: false })
      .waitFor();
    await signInOnMe(page, server.url, riverside.phone);
    // Signed in: that night's question is open, with the focus on it.
    const yes = page.getByRole("button", { name: "Yes, cancel Riverside Lantern Walk" });
    await expect.poll(() => yes.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.getByText("You'll get back the full $45.00.").waitFor();
    await expectAccessible(page, "My nights, come to cancel a ticket");
    await page.keyboard.press("Enter");
    await page
      .getByRole("status")
      .filter({
        hasText: "Your booking for Riverside Lantern Walk is cancelled. $45.00 is being refunded to your card.",
      })
      .waitFor();
    await page.waitForURL((url) => !url.search.includes("cancel="));
    // Back on My tickets, even offline: the saved ticket is void at once, with no QR to scan.
    await waitForServiceWorker(page);
    await context.setOffline(true);
    await page.goto("/tickets");
    const voided = page.getByRole("article", { name: "Ticket for Riverside Lantern Walk" });
    await voided.getByText("This booking was refunded, so this ticket is no longer valid.").waitFor();
    expect(await voided.getByRole("img", { name: /QR code for/ }).count()).toBe(0);
    await context.setOffline(false);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
