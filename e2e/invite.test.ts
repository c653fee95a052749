import type { Browser, BrowserContext, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { recordConsent } from "../api/messaging/consent.ts";
import { openDatabase } from "../db/client.ts";
import { insertAttendee, insertEvent } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, desktop, devOutbox, newContext, noBrowser, phone, signInAsOrganiser } from "./harness.ts";
import { expectAccessible, expectAccessibleHtml, expectNoSidewaysScroll } from "./page-checks.ts";

const DAY = 86_400_000;

// The **Invite** tab (issue 36): the organiser picks an upcoming night, keeps to women, sees the
// counts per channel, previews the text as it arrives (with Reply STOP to opt out), sends behind a
// confirmation and watches `sent N of M` reach the total as the server's scheduler delivers.
const test = browserSuite();

describe.skipIf(noBrowser)("inviting people back from the organiser's desk", () => {
  let server: AppServer;
  let browser: Browser;
  let organiser: { context: BrowserContext; page: Page; pageErrors: string[] };
  const women: string[] = [];

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    const db = openDatabase(`${server.dataDir}/app.db`);
    const uploads = `${server.dataDir}/uploads`;
    await insertEvent(db, uploads, {
      name: "Saturday Social",
      startsAt: Date.now() + 7 * DAY,
      seatsMale: 5,
      seatsFemale: 5,
    });
    await insertEvent(db, uploads, { name: "Last Night", status: "ended", startsAt: Date.now() - 7 * DAY });
    const at = Date.now() - DAY;
    const person = (gender: "female" | "male", sms: boolean, email: boolean) => {
      const user = insertAttendee(db, { gender });
      recordConsent(db, { channel: "sms", address: user.phone, given: sms, source: "booking", phone: user.phone, at });
      recordConsent(db, {
        channel: "email",
        address: user.email,
        given: email,
        // An email's yes is its address's confirmation (docs/decisions/039).
        source: email ? "confirmation" : "booking",
        phone: user.phone,
        at,
      });
      return user;
    };
    women.push(person("female", true, true).phone, person("female", true, false).phone);
    person("female", false, false);
    person("male", true, true);
    db.$client.close();
    const { context, pageErrors } = await newContext(browser, server.url, desktop);
    organiser = { context, pageErrors, page: await context.newPage() };
  });

  it("composes for women only, shows the counts and the text as it arrives, sends, and shows the progress reach the total", {
    timeout: 240_000,
  }, async () => {
    const { page } = organiser;
    await signInAsOrganiser(page, "/admin?tab=invite");
    await page.getByRole("tab", { name: "Invite" }).waitFor();
    const picker = page.getByLabel("Event", { exact: true });
    const options = () => picker.locator("option").allTextContents();
    await expect.poll(async () => (await options()).some((o) => o.includes("Saturday Social"))).toBe(true);
    // Only nights still to come are offered.
    expect((await options()).some((o) => o.includes("Last Night"))).toBe(false);
    await picker.selectOption({ label: (await options()).find((o) => o.includes("Saturday Social"))! });

    const message = page.getByLabel("Message", { exact: true });
    await expect.poll(() => message.inputValue()).toMatch(/Saturday Social.*\{link\}/);
    await page.getByText("No announcements for this event yet.").waitFor();
    // Everyone who opted in, then women only.
    await page.getByText("To 3 by text, 2 by email").waitFor();
    await page.getByLabel("Women or men").selectOption({ label: "Women" });
    await page.getByText("To 2 by text, 1 by email").waitFor();
    await message.fill("3 seats left for women on Saturday: {link}");
    await page.getByText(/^\d+ of 480 characters in the text message$/).waitFor();

    await page.getByRole("button", { name: "Preview" }).click();
    // The text as it arrives, once the preview has caught up with the typing.
    const sms = page.locator(".invite-sms");
    await expect
      .poll(() => sms.textContent())
      .toMatch(
        /^Saathi Speed Dating: 3 seats left for women on Saturday: http\S+\/\?event=\d+&a=\d+\nReply STOP to opt out$/,
      );
    const email = page.frameLocator("iframe[title='The email as it arrives']");
    await email.getByText("Unsubscribe", { exact: true }).waitFor();
    // The screen without its sandboxed preview frame, then the email's HTML as a page of its own (what
    // a mail client shows).
    await expectAccessible(page, "Invite with its preview");
    const emailHtml = await page.locator("iframe[title='The email as it arrives']").getAttribute("srcdoc");
    expect(emailHtml).toContain("Unsubscribe");
    await expectAccessibleHtml(page, emailHtml!, "the invitation email");
    await expectNoSidewaysScroll(page);

    await page.getByRole("button", { name: "Send", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByText("To 2 by text, 1 by email.").waitFor();
    await dialog.getByRole("button", { name: "Send" }).click();
    // The server's scheduler delivers on one of its next ticks (up to a minute or so, longer on a
    // busy machine); the list polls while anything is pending, so the page itself shows it arrive.
    await page.getByText("sent 3 of 3", { exact: true }).waitFor({ timeout: 180_000 });
    await page.getByText("booked 0 (women 0, men 0)").waitFor();
    await expectAccessible(page, "Invite after sending");

    const texts = (await devOutbox(server.url)).filter((m) => m.body.endsWith("Reply STOP to opt out"));
    expect(texts.map((m) => m.to).sort()).toEqual([...women].sort());
    expect(organiser.pageErrors).toEqual([]);
  });

  it("fits a phone's width too", async () => {
    const { context } = await newContext(browser, server.url, phone);
    const page = await context.newPage();
    await signInAsOrganiser(page, "/admin?tab=invite");
    await page.getByRole("tab", { name: "Invite" }).waitFor();
    await page.getByText("Choose an upcoming event to invite people to.").waitFor();
    const picker = page.getByLabel("Event", { exact: true });
    await expect.poll(async () => (await picker.locator("option").allTextContents()).length).toBe(2);
    await picker.selectOption({ index: 1 });
    await page.getByText("sent 3 of 3", { exact: true }).waitFor();
    await page.getByRole("button", { name: "Preview" }).click();
    await page.locator(".invite-sms").waitFor();
    await expectNoSidewaysScroll(page);
    await context.close();
  });
});
