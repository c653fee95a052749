import type { Browser, Dialog, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { unsubscribeToken } from "../api/messaging/consent.ts";
import { openDatabase } from "../db/client.ts";
import { announcements } from "../db/marketing-schema.ts";
import { insertEvent, makeImage } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, fillDetails, newContext, noBrowser, phone, verifyPhone } from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks.ts";
import { signInOnMe } from "./steps.ts";

// Messages about future events at phone size (issue 36): an announcement's link opens its event on the
// home page; the details form shows both boxes unticked; ticked and booked, /me shows them ticked;
// the email's Unsubscribe link opens a page with one button, pressed from the keyboard, that says so
// and never shows whose address it is; a forged link says it is not valid.

const SESSION_SECRET = "e2e-consent-secret-e2e-consent-secret-01";
const DAY = 24 * 60 * 60 * 1000;
const PHONE = "+61412000361";
const TYPED = "0412 000 361";
const EMAIL = "anjali.consent@example.com";
const UNSUBSCRIBED = "You will get no more emails about future events.";
const CONFIRMED = "Thank you. You will get emails about future events at this address.";

const test = browserSuite({ serverEnv: { SESSION_SECRET } });

describe.skipIf(noBrowser)("Messages about future events", () => {
  let server: AppServer;
  let browser: Browser;
  let photo: Buffer;
  let eventId: number;
  let announcementId: number;

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    const db = openDatabase(`${server.dataDir}/app.db`);
    const uploads = `${server.dataDir}/uploads`;
    await insertEvent(db, uploads, { name: "Spring Garden Mixer", startsAt: Date.now() + 5 * DAY });
    const event = await insertEvent(db, uploads, { name: "Harbour Lights Mixer", startsAt: Date.now() + 7 * DAY });
    eventId = event.id;
    announcementId = db
      .insert(announcements)
      .values({
        eventId,
        audience: {},
        channels: ["sms", "email"],
        text: "3 seats left for men on Saturday",
        recipientsSms: 1,
        recipientsEmail: 1,
        createdAt: Date.now(),
      })
      .returning()
      .get().id;
    db.$client.close();
    photo = await makeImage("png", 400, 400);
  });

  const query = <T>(sql: string, ...params: unknown[]) => {
    const db = openDatabase(`${server.dataDir}/app.db`);
    try {
      return db.$client.prepare(sql).all(...params) as T[];
    } finally {
      db.$client.close();
    }
  };

  /** Tabs through the page until `name`'s button has the focus (the keyboard's way to it). */
  const tabTo = async (page: Page, name: string) => {
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press("Tab");
      const focused = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? "");
      if (focused === name) return;
    }
    throw new Error(`the keyboard never reached ${name}`);
  };

  it("books with both boxes ticked from an announcement's link, shows them on /me, and unsubscribes with one button", async () => {
    const { context, pageErrors } = await newContext(browser, server.url, phone);
    const page = await context.newPage();
    page.on("dialog", (dialog: Dialog) => void dialog.accept());

    // The announcement's link marks its event on the home page.
    await page.goto(`/?event=${eventId}&a=${announcementId}`);
    const card = page.locator("article.event-card.highlighted");
    await card.waitFor();
    expect(await card.getByRole("heading").textContent()).toContain("Harbour Lights Mixer");
    await card.getByRole("button", { name: "Book Tickets" }).click();
    await page.waitForURL("**/otp-verification?eventID=*");
    await verifyPhone(page, server.url, TYPED, PHONE);

    // Both boxes, unticked.
    const textMe = page.getByLabel("Text me about future events");
    const emailMe = page.getByLabel("Email me about future events");
    await textMe.waitFor();
    expect(await textMe.isChecked()).toBe(false);
    expect(await emailMe.isChecked()).toBe(false);
    await fillDetails(page, { name: "Anjali Rao", email: EMAIL, gender: "female", photo });
    await textMe.check();
    await emailMe.check();
    await expectAccessible(page, "the details form with the boxes about future events");
    await expectNoSidewaysScroll(page);
    await page.getByRole("button", { name: "Submit" }).click();
    await page.waitForURL("**/confirmation?eventID=*");

    const choices = query<{ channel: string; address: string; given: number; source: string }>(
      `select c.channel, c.address, m.given, m.source from marketing_consents m
       join marketing_contacts c on c.id = m.contact_id order by m.id`,
    );
    expect(choices).toEqual([
      { channel: "sms", address: PHONE, given: 1, source: "booking" },
      { channel: "email", address: EMAIL, given: 1, source: "booking" },
    ]);
    // The email box asked the address (docs/decisions/039): one email whose link says yes.
    const asked = query<{ body: string }>(
      "select body from outbox_messages where channel = 'email' and subject = ? and \"to\" = ?",
      "Confirm you'd like emails about future events",
      EMAIL,
    );
    expect(asked).toHaveLength(1);
    const confirmLink = new URL(asked[0]!.body.match(/https?:\/\/\S+\/confirm-email-consent\?\S+/)![0]);
    expect(query<{ a: number | null }>("select announcement_id as a from bookings where phone = ?", PHONE)).toEqual([
      { a: announcementId },
    ]);

    // /me shows them ticked, the email waiting for its confirmation.
    await page.goto("/me");
    await signInOnMe(page, server.url, PHONE);
    await page.getByRole("heading", { name: "Messages about future events" }).waitFor();
    await expect.poll(() => page.getByLabel("Text me about future events").isChecked()).toBe(true);
    await expect.poll(() => page.getByLabel("Email me about future events").isChecked()).toBe(true);
    await page.getByText("Waiting for your confirmation").waitFor();

    // The confirmation email's link: a page with one button that records the address's yes.
    const inbox = await newContext(browser, server.url, phone);
    const inboxPage = await inbox.context.newPage();
    await inboxPage.goto(`${confirmLink.pathname}${confirmLink.search}`);
    const yes = inboxPage.getByRole("button", { name: "Yes, email me about future events" });
    await expect.poll(() => yes.isEnabled()).toBe(true);
    await expectAccessible(inboxPage, "the email confirmation page");
    await yes.click();
    await inboxPage.getByText(CONFIRMED).waitFor();
    expect(await inboxPage.content()).not.toContain(EMAIL);
    await page.reload();
    await page.getByRole("heading", { name: "Messages about future events" }).waitFor();
    await expect.poll(() => page.getByText("Waiting for your confirmation").count()).toBe(0);
    await expect.poll(() => page.getByLabel("Email me about future events").isChecked()).toBe(true);
    await expectAccessible(page, "My nights with Messages about future events");
    await expectNoSidewaysScroll(page);

    // The email's Unsubscribe link: a page with one button, reached and pressed from the keyboard.
    const [contact] = query<{ id: number }>(
      "select id from marketing_contacts where channel = 'email' and address = ?",
      EMAIL,
    );
    const token = unsubscribeToken({ SESSION_SECRET }, contact!.id);
    const stranger = await newContext(browser, server.url, phone);
    const mailPage = await stranger.context.newPage();
    await mailPage.goto(`/unsubscribe?c=${contact!.id}&t=${token}`);
    const button = mailPage.getByRole("button", { name: "Unsubscribe" });
    await expect.poll(() => button.isEnabled()).toBe(true);
    await expectAccessible(mailPage, "the unsubscribe page");
    await expectNoSidewaysScroll(mailPage);
    await tabTo(mailPage, "Unsubscribe");
    await mailPage.keyboard.press("Enter");
    await mailPage.getByText(UNSUBSCRIBED).waitFor();
    // The number that booked with the address still takes texts: the page says where to stop them.
    const myNights = mailPage.getByRole("link", { name: "My nights" });
    await myNights.waitFor();
    expect(await myNights.getAttribute("href")).toBe("/me");
    expect(await mailPage.content()).not.toContain(EMAIL);
    expect(await mailPage.content()).not.toContain("anjali");
    expect(await mailPage.content()).not.toContain("000 361");
    expect(await mailPage.content()).not.toContain("000361");
    await expectAccessible(mailPage, "the unsubscribe page once unsubscribed");
    const email = query<{ given: number; source: string }>(
      `select m.given, m.source from marketing_consents m where m.contact_id = ? order by m.id desc limit 1`,
      contact!.id,
    );
    expect(email).toEqual([{ given: 0, source: "unsubscribe" }]);

    // A link that is not ours changes nothing and says so.
    await mailPage.goto(`/unsubscribe?c=${contact!.id}&t=forged`);
    await mailPage.getByRole("heading", { name: "This link is not valid" }).waitFor();
    expect(await mailPage.getByRole("button", { name: "Unsubscribe" }).count()).toBe(0);
    await expectAccessible(mailPage, "an unsubscribe link that is not valid");

    // Back on /me, the email box is unticked now; the text box still ticked.
    await page.reload();
    await page.getByRole("heading", { name: "Messages about future events" }).waitFor();
    await expect.poll(() => page.getByLabel("Text me about future events").isChecked()).toBe(true);
    await expect.poll(() => page.getByLabel("Email me about future events").isChecked()).toBe(false);

    expect(pageErrors).toEqual([]);
    expect(stranger.pageErrors).toEqual([]);
    expect(inbox.pageErrors).toEqual([]);
    await inbox.context.close();
    await stranger.context.close();
    await context.close();
  });
});
