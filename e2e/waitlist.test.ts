import { eq } from "drizzle-orm";
import type { Browser, Dialog, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../db/client.ts";
import { bookings, events, waitlistEntries } from "../db/schema.ts";
import { insertEvent, insertPaidBookings, makeImage } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import {
  type AppServer,
  desktop,
  devOutbox,
  fillDateOfBirth,
  newContext,
  noBrowser,
  signInAsOrganiser,
  verifyPhone,
} from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks.ts";
import { openTab, organiserCookie } from "./steps.ts";

const PASSWORD = "e2e-admin-password";
const DAY = 86_400_000;

const test = browserSuite();

describe.skipIf(noBrowser)("the waitlist on a phone", () => {
  let server: AppServer;
  let browser: Browser;
  let photo: Buffer;
  /** The men's paid bookings at the balanced event, with payment ids the local provider refunds. */
  let menPaymentIds: string[];

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    const db = openDatabase(`${server.dataDir}/app.db`);
    const uploads = `${server.dataDir}/uploads`;
    const balanced = await insertEvent(db, uploads, {
      name: "Balanced Banquet",
      startsAt: Date.now() + 10 * DAY,
      totalSeats: 4,
      seatsMale: 2,
      seatsFemale: 2,
    });
    menPaymentIds = insertPaidBookings(db, balanced.id, 2, { gender: "male" }).map(({ bookingId }) => {
      const paymentIntentId = `pi_local_e2e_${bookingId}_${Math.random().toString(36).slice(2)}`;
      db.update(bookings).set({ paymentIntentId }).where(eq(bookings.id, bookingId)).run();
      return paymentIntentId;
    });
    const full = await insertEvent(db, uploads, {
      name: "Full House Social",
      startsAt: Date.now() + 12 * DAY,
      totalSeats: 2,
    });
    insertPaidBookings(db, full.id, 2);
    // For the organiser's view: men's seats taken, two men in line, one woman's seat free.
    const review = await insertEvent(db, uploads, {
      name: "Waitlist Review Night",
      startsAt: Date.now() + 14 * DAY,
      totalSeats: 4,
      seatsMale: 2,
      seatsFemale: 2,
    });
    insertPaidBookings(db, review.id, 2, { gender: "male" });
    insertPaidBookings(db, review.id, 1, { gender: "female" });
    for (const [name, phone] of [
      ["Vikram Nair", "+61477000001"],
      ["Dev Kapoor", "+61477000002"],
    ] as const) {
      db.insert(waitlistEntries).values({ eventId: review.id, phone, gender: "male", name }).run();
    }
    db.$client.close();
    photo = await makeImage("png", 400, 400);
  });

  const outbox = () => devOutbox(server.url);
  const verify = (page: Page, typed: string, e164: string) => verifyPhone(page, server.url, typed, e164);
  const card = (page: Page, name: string) => page.locator("article.event-card", { hasText: name });

  /** The organiser refunds a paid booking before the start, through the API, as the panel would. */
  async function adminRefund(paymentIntentId: string) {
    const cookie = await organiserCookie(server.url, PASSWORD);
    const refund = await fetch(`${server.url}/api/refund`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ paymentIntentId }),
    });
    expect(refund.status).toBe(200);
  }

  it("offers a full gender the waitlist, texts the first in line when a seat frees, and the link ends in a paid ticket", async () => {
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    const alerts: string[] = [];
    page.on("dialog", (dialog: Dialog) => {
      alerts.push(dialog.message());
      void dialog.accept();
    });

    // The card: a line per gender, and Book Tickets still open for the women's seats.
    await page.goto("/");
    const banquet = card(page, "Balanced Banquet");
    await banquet.waitFor();
    await expect.poll(() => banquet.getByText("Women: 2 seats left").isVisible()).toBe(true);
    await expect.poll(() => banquet.getByText("Men: sold out").isVisible()).toBe(true);
    await expect.poll(() => banquet.getByRole("button", { name: "Book Tickets" }).isEnabled()).toBe(true);
    await expectNoSidewaysScroll(page);

    // A man tries to book: the page asks Woman or Man first, and says at once that the men's seats
    // are gone, before any phone, code, details or photo, offering the waitlist instead.
    await banquet.getByRole("button", { name: "Book Tickets" }).click();
    await page.waitForURL("**/otp-verification?eventID=*");
    await page.getByRole("button", { name: "Man", exact: true }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: "No seats left for men. Join the waitlist and we'll text you when a seat frees up." })
      .waitFor();
    await expect.poll(() => page.getByLabel("Mobile number").count()).toBe(0);
    // The generic sold-out alert is for a whole event that is full, not for one gender.
    expect(alerts).toEqual([]);
    await expectAccessible(page, "the side choice with the waitlist offered");
    await expectNoSidewaysScroll(page);

    await page.getByRole("button", { name: "Join waitlist" }).click();
    await page.getByRole("heading", { name: "Join the waitlist" }).waitFor();
    await verify(page, "0455 111 222", "+61455111222");
    // The waitlist form knows the side chosen.
    await expect.poll(() => page.getByLabel("Gender").inputValue()).toBe("male");
    await page.getByLabel("Name").fill("Rohan Mehta");
    await page.getByRole("button", { name: "Join waitlist" }).click();
    const position = page.getByRole("status").filter({ hasText: "You're number 1 on the waitlist." });
    await position.waitFor();
    await expect.poll(() => page.getByRole("button", { name: "Leave waitlist" }).isVisible()).toBe(true);
    await expectAccessible(page, "the place on the waitlist");
    await expectNoSidewaysScroll(page);
    // A reload keeps the place in line on screen.
    await page.reload();
    await position.waitFor();

    // A man's seat frees: the organiser refunds one before the start, and the first in line is texted.
    expect((await outbox()).some((m) => m.body.includes("/waitlist-offer?"))).toBe(false);
    await adminRefund(menPaymentIds[0]!);
    let link = "";
    await expect
      .poll(
        async () => {
          const sms = (await outbox()).filter((m) => m.to === "+61455111222" && m.body.includes("/waitlist-offer?"));
          link = sms.at(-1)?.body.match(/https?:\/\/\S+\/waitlist-offer\?o=\d+&t=[\w-]+/)?.[0] ?? "";
          return link;
        },
        // The offer is made at the refund; its SMS leaves with the outbox, at the latest on the
        // scheduler's next 30-second tick.
        { timeout: 60_000, interval: 250 },
      )
      .not.toBe("");
    expect(link.startsWith(`${server.url}/waitlist-offer?o=`)).toBe(true);

    // The link opens on another device (a fresh context): it proves the phone, so no code is asked.
    const other = await newContext(browser, server.url);
    const phone = await other.context.newPage();
    const phoneAlerts: string[] = [];
    phone.on("dialog", (dialog: Dialog) => {
      phoneAlerts.push(dialog.message());
      void dialog.accept();
    });
    await phone.goto(link);
    await phone.waitForURL("**/otp-verification?eventID=*");
    await phone.getByLabel("Verified mobile").waitFor();
    await expect.poll(() => phone.getByLabel("Verified mobile").inputValue()).toBe("+61 455 111 222");
    await expect.poll(() => phone.getByLabel("OTP", { exact: true }).count()).toBe(0);
    // The gender is the offer's: shown, not changeable.
    const gender = phone.getByLabel("Gender");
    await expect.poll(() => gender.inputValue()).toBe("Male");
    // The name given when joining the line is filled in, though this phone never typed it.
    await expect.poll(() => phone.getByLabel("Name").inputValue()).toBe("Rohan Mehta");
    expect(await gender.getAttribute("readonly")).not.toBeNull();
    await expect.poll(() => phone.getByText("A seat is kept for you until").isVisible()).toBe(true);
    await expect.poll(() => phone.getByText("Balanced Banquet").first().isVisible()).toBe(true);
    await expectAccessible(phone, "the details form opened from the offer");
    await expectNoSidewaysScroll(phone);

    // The usual booking from here: details, checkout, ticket.
    await phone.getByLabel("Name").fill("Rohan Mehta");
    await phone.getByLabel("Email", { exact: true }).fill("rohan@example.com");
    await fillDateOfBirth(phone);
    await phone.getByLabel("Photo").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: photo });
    await phone.getByLabel("I have read who sees my details").check();
    await phone.getByRole("button", { name: "Submit" }).click();
    await phone.waitForURL("**/confirmation?eventID=*");
    expect(phoneAlerts).toEqual(["Form submitted successfully!"]);
    await expect.poll(() => phone.getByText("Rohan Mehta").isVisible()).toBe(true);
    await phone.getByRole("button", { name: "Proceed to Payment" }).click();
    await phone.waitForURL("**/api/dev/checkout/**");
    await phone.getByRole("button", { name: "Pay" }).click();
    await phone.waitForURL("**/success?**");
    const code = phone.locator(".ticket-code");
    await code.waitFor({ timeout: 20_000 });
    expect((await code.textContent()) ?? "").toMatch(/^[A-Z2-9]{10}$/);
    await phone.getByText("Your ticket is saved on this device").waitFor();

    // The link is used up: opened again it says so, plainly and accessibly.
    const again = await other.context.newPage();
    await again.goto(link);
    await again.getByText("This offer has expired or was already used.").waitFor();
    await expectAccessible(again, "an offer already used");

    expect(pageErrors).toEqual([]);
    expect(other.pageErrors).toEqual([]);
    await other.context.close();
    await context.close();
  }, 120_000);

  it("lets anyone join the waitlist of a sold-out event from its card, by keyboard, and leave it", async () => {
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    await page.goto("/");
    const full = card(page, "Full House Social");
    await full.waitFor();
    await expect.poll(() => full.getByText("Sold Out").isVisible()).toBe(true);
    await expect.poll(() => full.getByRole("button", { name: "Book Tickets" }).isDisabled()).toBe(true);

    await full.getByRole("button", { name: "Join waitlist" }).focus();
    await page.keyboard.press("Enter");
    await page.waitForURL("**/otp-verification?eventID=*");
    await page.getByRole("heading", { name: "Join the waitlist" }).waitFor();
    await verify(page, "0466 333 444", "+61466333444");
    // The short form: no photo or email until a seat is offered.
    await expect.poll(() => page.getByLabel("Photo").count()).toBe(0);
    await expect.poll(() => page.getByLabel("Email", { exact: true }).count()).toBe(0);
    await expectAccessible(page, "the waitlist form");

    await page.getByRole("button", { name: "Join waitlist" }).click();
    await page.getByText("All fields are required.").waitFor();
    await page.getByLabel("Name").fill("Anika Das");
    await page.getByLabel("Gender").selectOption("female");
    await page.getByLabel("Name").press("Enter");
    await page.getByRole("status").filter({ hasText: "You're number 1 on the waitlist." }).waitFor();
    await expectAccessible(page, "the place on the waitlist of a sold-out event");
    await expectNoSidewaysScroll(page);

    await page.getByRole("button", { name: "Leave waitlist" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("status").filter({ hasText: "You've left the waitlist." }).waitFor();
    await expect.poll(() => page.getByRole("button", { name: "Leave waitlist" }).count()).toBe(0);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("says plainly when an offer link is not valid", async () => {
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    await page.goto("/waitlist-offer?o=1&t=forged-token");
    await page.getByText("This link is not valid.").waitFor();
    await expect.poll(() => page.getByRole("link", { name: "Back to upcoming events" }).isVisible()).toBe(true);
    await expectAccessible(page, "a forged offer link");
    await expectNoSidewaysScroll(page);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("gives the organiser Balanced seats in Add and Edit, and the seats and waitlist per gender", async () => {
    const { context, pageErrors } = await newContext(browser, server.url, {
      ...desktop,
      isMobile: false,
      hasTouch: false,
      deviceScaleFactor: 1,
    });
    const page = await context.newPage();
    await signInAsOrganiser(page);
    // The panel opens on the Overview.
    await openTab(page, "Add Event");
    const panel = page.getByRole("tabpanel");
    const field = (label: string) => panel.getByLabel(label, { exact: true });

    // Add Event: the counts appear with the choice and must add up to the total.
    await expect.poll(() => field("Seats for men").count()).toBe(0);
    await field("Event name").fill("Balanced Launch");
    await field("Date").fill(new Date(Date.now() + 20 * DAY).toISOString().slice(0, 10));
    await field("Hour").selectOption("19");
    await field("Address").fill("1 Balance St, Sydney NSW 2000");
    await field("Total seats").fill("20");
    await field("Balanced seats").check();
    await field("Seats for men").fill("10");
    await field("Seats for women").fill("9");
    await field("Ticket price (AUD)").fill("40");
    await field("Duration (hours)").fill("2");
    await field("From age").fill("25");
    await field("To age").fill("35");
    await panel.getByLabel("Event image").setInputFiles({
      name: "party.png",
      mimeType: "image/png",
      buffer: await makeImage("png"),
    });
    await panel.getByRole("button", { name: "Save Event" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: "Seats for men and women must add up to the total seats (20)." })
      .waitFor();
    const saved = () => {
      const db = openDatabase(`${server.dataDir}/app.db`);
      try {
        return db.select().from(events).where(eq(events.name, "Balanced Launch")).get();
      } finally {
        db.$client.close();
      }
    };
    expect(saved()).toBeUndefined();
    await field("Seats for women").fill("10");
    await panel.getByRole("button", { name: "Save Event" }).click();
    await page.getByRole("status").filter({ hasText: "Event saved successfully!" }).waitFor();
    expect(saved()).toMatchObject({ totalSeats: 20, seatsMale: 10, seatsFemale: 10 });

    // Edit Event: the plan is shown as stored, and unticking goes back to one pool of seats.
    await openTab(page, "Edit Event");
    const picker = page.getByLabel("Event", { exact: true });
    await picker.locator("option", { hasText: "Balanced Launch" }).first().waitFor({ state: "attached" });
    await picker.selectOption(
      (await picker.locator("option", { hasText: "Balanced Launch" }).first().getAttribute("value"))!,
    );
    await expect.poll(() => field("Balanced seats").isChecked()).toBe(true);
    await expect.poll(() => field("Seats for men").inputValue()).toBe("10");
    await expect.poll(() => field("Seats for women").inputValue()).toBe("10");
    await field("Balanced seats").uncheck();
    await panel.getByRole("button", { name: "Update Event" }).click();
    await page.getByRole("status").filter({ hasText: "Event updated successfully!" }).waitFor();
    expect(saved()).toMatchObject({ totalSeats: 20, seatsMale: null, seatsFemale: null });

    // User Details: seats and waitlist per gender, the line in order.
    await openTab(page, "User Details");
    await picker.locator("option", { hasText: "Waitlist Review Night" }).first().waitFor({ state: "attached" });
    await picker.selectOption(
      (await picker.locator("option", { hasText: "Waitlist Review Night" }).first().getAttribute("value"))!,
    );
    const seats = panel.getByRole("list", { name: "Seats by gender" });
    await expect
      .poll(() => seats.getByRole("listitem").allTextContents())
      .toEqual(["Men: 2/2 paid · 2 waiting", "Women: 1/2 paid · 0 waiting"]);
    const waitlist = panel.getByRole("region", { name: "Waitlist" });
    await expect
      .poll(async () =>
        (await waitlist.locator("tbody tr").allTextContents()).map((row) => row.replace(/\s+/g, " ").trim()),
      )
      .toEqual([
        expect.stringMatching(/^1Vikram Nairmale0477 000 001Waiting/),
        expect.stringMatching(/^2Dev Kapoormale0477 000 002Waiting/),
      ]);
    await expectAccessible(page, "the participants with the waitlist");
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
