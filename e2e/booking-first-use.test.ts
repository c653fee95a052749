import { eq } from "drizzle-orm";
import type { Browser, Dialog, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../db/client.ts";
import { bookings } from "../db/schema.ts";
import { insertEvent, insertPaidBookings, makeImage } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import {
  type AppServer,
  codeFor,
  devOutbox,
  fillDateOfBirth,
  newContext,
  noBrowser,
  phone,
  verifyPhone,
} from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks.ts";

// What a first-time booker trips over, at 390 px: the side of a balanced event asked first, the
// details form's checks as things are chosen, the privacy box, the code step's Resend code, and the
// held booking shown with its end, before the checkout and after its Cancel.

const DAY = 86_400_000;
const CONSENT = "I have read who sees my details";
/** Long enough to wrap on a phone; its parts are the "words" it may wrap between. */
const LONG_EMAIL = "priyanka.sharma-bookings@very-long-example-domain.com.au";

/**
 * The hold's end as a person in the venue reads it, with the venue's zone as every time the app shows:
 * `7:45 PM AEDT` (Intl here, not the app's own formatter). Issue 46, item 14 added the zone (it was
 * `7:45 PM` alone), and the hold's sentences are matched to their full stop so the zone must be there.
 */
const venueClock = (ms: number) => {
  const clock = new Intl.DateTimeFormat("en-US", { timeZone: "Australia/Sydney", hour: "numeric", minute: "2-digit" });
  const zone = new Intl.DateTimeFormat("en-AU", { timeZone: "Australia/Sydney", timeZoneName: "short" })
    .formatToParts(ms)
    .find((part) => part.type === "timeZoneName")?.value;
  return `${clock.format(ms)} ${zone}`;
};

// RETENTION_DAYS and a tight code limit of its own, to show they come from the server.
const test = browserSuite({ serverEnv: { RETENTION_DAYS: "45", OTP_MAX_PER_PHONE: "2" } });

describe.skipIf(noBrowser)("a first booking on a phone", () => {
  let server: AppServer;
  let browser: Browser;
  let photo: Buffer;

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    const db = openDatabase(`${server.dataDir}/app.db`);
    const uploads = `${server.dataDir}/uploads`;
    const ladiesFull = await insertEvent(db, uploads, {
      name: "Lantern Balanced Evening",
      startsAt: Date.now() + 9 * DAY,
      totalSeats: 6,
      seatsMale: 3,
      seatsFemale: 3,
    });
    insertPaidBookings(db, ladiesFull.id, 3, { gender: "female" });
    await insertEvent(db, uploads, { name: "Open Garden Mixer", startsAt: Date.now() + 11 * DAY, totalSeats: 10 });
    db.$client.close();
    photo = await makeImage("png", 400, 400);
  });

  const bookFromHome = async (page: Page, eventName: string) => {
    await page.goto("/");
    await page
      .locator("article.event-card", { hasText: eventName })
      .getByRole("button", { name: "Book Tickets" })
      .click();
    await page.waitForURL("**/otp-verification?eventID=*");
  };
  const booking = (userId: number) => {
    const db = openDatabase(`${server.dataDir}/app.db`);
    try {
      return db.select().from(bookings).where(eq(bookings.userId, userId)).get();
    } finally {
      db.$client.close();
    }
  };
  const acceptAlerts = (page: Page) => page.on("dialog", (dialog: Dialog) => void dialog.accept());

  it("tells a woman that the women's seats are full before the phone step, and lets her join that waitlist", async () => {
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    await bookFromHome(page, "Lantern Balanced Evening");

    await page.getByRole("heading", { name: "Choose your seat" }).waitFor();
    await expect.poll(() => page.getByText("Which seat are you booking?").isVisible()).toBe(true);
    await expect.poll(() => page.getByLabel("Mobile number").count()).toBe(0);
    await expectAccessible(page, "the side choice");
    await expectNoSidewaysScroll(page);

    await page.getByRole("button", { name: "Woman", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "No seats left for women" }).waitFor();
    // Told at once: no phone, no code, no details asked for first.
    await expect.poll(() => page.getByLabel("Mobile number").count()).toBe(0);
    await expect.poll(() => devOutbox(server.url).then((m) => m.length)).toBe(0);
    await expectAccessible(page, "the side choice, women full");
    await expectNoSidewaysScroll(page);

    await page.getByRole("button", { name: "Join waitlist" }).click();
    await page.getByRole("heading", { name: "Join the waitlist" }).waitFor();
    await verifyPhone(page, server.url, "0461 222 333", "+61461222333");
    await expect.poll(() => page.getByLabel("Gender").inputValue()).toBe("female");
    await page.getByLabel("Name").fill("Anjali Rao");
    await page.getByRole("button", { name: "Join waitlist" }).click();
    await page.getByRole("status").filter({ hasText: "You're number 1 on the waitlist." }).waitFor();
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("checks the details as they are chosen, requires the privacy box, then holds the seat with its end; Cancel on the checkout comes back to it", async () => {
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    acceptAlerts(page);
    await bookFromHome(page, "Lantern Balanced Evening");
    await page.getByRole("button", { name: "Man", exact: true }).click();
    await page.getByText("Booking a man's seat.").waitFor();
    await verifyPhone(page, server.url, "0462 444 555", "+61462444555");

    // The side chosen is the form's gender; the choices read Male and Female.
    const gender = page.getByLabel("Gender");
    await expect.poll(() => gender.inputValue()).toBe("male");
    expect(await gender.locator("option").allTextContents()).toEqual(["Choose…", "Male", "Female"]);

    // "All fields are required." goes once the fields are filled, without pressing Submit again.
    await page.getByRole("button", { name: "Submit" }).click();
    const required = page.getByText("All fields are required.");
    await required.waitFor();
    await page.getByLabel("Name").fill("Karan Malhotra");
    await page.getByLabel("Email", { exact: true }).fill(LONG_EMAIL);
    await fillDateOfBirth(page);
    await expect.poll(() => required.count()).toBe(0);

    // The photo is checked when it is chosen: 5 MB or more is refused there and then.
    const photoInput = page.getByLabel("Photo");
    await photoInput.setInputFiles({
      name: "huge.png",
      mimeType: "image/png",
      buffer: Buffer.alloc(5 * 1024 * 1024),
    });
    await page.getByText("Image should be less than 5 MB.").waitFor();
    await expect.poll(() => page.locator(".photo-preview").count()).toBe(0);
    await expectAccessible(page, "the details form with a photo too large");
    await photoInput.setInputFiles({ name: "me.png", mimeType: "image/png", buffer: photo });
    await expect.poll(() => page.getByText("Image should be less than 5 MB.").count()).toBe(0);
    const preview = page.locator("img.photo-preview");
    await preview.waitFor();
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await expect.poll(() => page.getByText("Change photo").isVisible()).toBe(true);

    // Who sees what, with a link to /privacy; the box is required.
    await expect
      .poll(() => page.getByText("Your photo and name are shown to the people you meet that night.").isVisible())
      .toBe(true);
    await expect
      .poll(() => page.getByRole("link", { name: "What we keep, and for how long" }).getAttribute("href"))
      .toBe("/privacy");
    await page.getByRole("button", { name: "Submit" }).click();
    const consentMessage = page.getByText("Please tick the box to confirm you have read who sees your details.");
    await consentMessage.waitFor();
    expect(page.url()).toContain("/otp-verification");
    await expectAccessible(page, "the details form asking for the privacy box");
    await expectNoSidewaysScroll(page);
    await page.getByLabel(CONSENT).check();
    await expect.poll(() => consentMessage.count()).toBe(0);

    // A full side chosen in the form itself is still caught by the server, and the waitlist offered.
    await gender.selectOption("female");
    await page.getByRole("button", { name: "Submit" }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: "No seats left for women. Join the waitlist and we'll text you when a seat frees up." })
      .waitFor();
    await expect.poll(() => page.getByRole("button", { name: "Join waitlist" }).isVisible()).toBe(true);
    await expectAccessible(page, "the details form with the waitlist offered");
    await gender.selectOption("male");
    await page.getByRole("button", { name: "Submit" }).click();

    // The confirmation: the hold's end on the venue's clock, the gender as written, the email wrapping
    // between its parts.
    await page.waitForURL("**/confirmation?eventID=*");
    await page.getByRole("heading", { name: "Confirmation" }).waitFor();
    const userID = await page.evaluate(() =>
      Number(JSON.parse(sessionStorage.getItem("saathi-booking") ?? "{}").state?.hold?.user?.userID),
    );
    expect(userID).toBeGreaterThan(0);
    const held = booking(userID);
    expect(held?.status).toBe("held");
    await page.getByText(`Your seat is held until ${venueClock(held!.holdExpiresAt)}.`).waitFor();
    await expect.poll(() => page.getByText(/\d+ minutes left/).isVisible()).toBe(true);
    await expect
      .poll(() =>
        page
          .getByRole("definition")
          .filter({ hasText: /^Male$/ })
          .count(),
      )
      .toBe(1);
    const wraps = await page.locator(".booking-email").evaluate((dd) => {
      let chars = "";
      const tops: number[] = [];
      const walker = document.createTreeWalker(dd, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node as Text;
        for (let i = 0; i < text.length; i++) {
          const range = document.createRange();
          range.setStart(text, i);
          range.setEnd(text, i + 1);
          tops.push(range.getBoundingClientRect().top);
          chars += text.data[i];
        }
      }
      const breaks = tops.flatMap((top, i) => (i > 0 && top > (tops[i - 1] ?? top) + 2 ? [i] : []));
      return { chars, breaks };
    });
    expect(wraps.chars).toBe(LONG_EMAIL);
    expect(wraps.breaks.length).toBeGreaterThan(0);
    for (const at of wraps.breaks) {
      // Each line starts at "@" or "." or right after "-": never inside a word.
      const starts = wraps.chars[at] ?? "";
      const before = wraps.chars[at - 1] ?? "";
      expect(`${before}|${starts}`).toMatch(/^(.\|[@.]|[-_]\|.)$/);
    }
    await expectAccessible(page, "the confirmation with its hold");
    await expectNoSidewaysScroll(page);

    // Cancel on the checkout comes back here, with the booking and the seat still held.
    await page.getByRole("button", { name: "Proceed to Payment" }).click();
    await page.waitForURL("**/api/dev/checkout/**");
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.waitForURL("**/confirmation?payment=cancelled**");
    const stretched = booking(userID);
    expect(stretched?.status).toBe("held");
    await page
      .getByText(`Payment cancelled — your seat is still held until ${venueClock(stretched!.holdExpiresAt)}.`)
      .waitFor();
    await expect.poll(() => page.getByText("Karan Malhotra").isVisible()).toBe(true);
    await expect.poll(() => page.getByText("Lantern Balanced Evening").isVisible()).toBe(true);
    // Nothing personal rides in the address.
    const back = new URL(page.url());
    expect([...back.searchParams.keys()]).toEqual(["payment", "userID", "eventID", "heldUntil"]);
    await expectAccessible(page, "the confirmation after Cancel");
    await expectNoSidewaysScroll(page);

    // Paying from here works: a new checkout for the same hold.
    await page.getByRole("button", { name: "Proceed to Payment" }).click();
    await page.waitForURL("**/api/dev/checkout/**");

    // Meanwhile the hold runs out: Cancel then says so plainly and offers to book again.
    const db = openDatabase(`${server.dataDir}/app.db`);
    db.update(bookings)
      .set({ holdExpiresAt: Date.now() - 60_000 })
      .where(eq(bookings.userId, userID))
      .run();
    db.$client.close();
    await page.getByRole("button", { name: "Cancel" }).click();
    await page.waitForURL("**/confirmation?payment=cancelled**");
    await page
      .getByText("Payment cancelled. Your seat hold has run out, so the seat is no longer kept for you.")
      .waitFor();
    await expect.poll(() => page.getByRole("button", { name: "Proceed to Payment" }).count()).toBe(0);
    await expect.poll(() => page.getByRole("button", { name: "Book again" }).isVisible()).toBe(true);
    await expectAccessible(page, "the confirmation after the hold ran out");
    await page.getByRole("button", { name: "Book again" }).click();
    await page.waitForURL("**/otp-verification?eventID=*");
    await page.getByRole("heading", { name: "Choose your seat" }).waitFor();
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 120_000);

  it("offers Resend code 30 seconds after the code, focuses the code box, and says what to do when no code goes out", async () => {
    const { context, pageErrors } = await newContext(browser, server.url, { ...phone, serviceWorkers: "allow" });
    const page = await context.newPage();
    await page.clock.install();
    await bookFromHome(page, "Open Garden Mixer");

    // A landline: the product's message, then what to do.
    await page.getByLabel("Mobile number").fill("02 9876 5432");
    await page.getByRole("button", { name: "Send OTP" }).click();
    await page.getByText("Failed to send OTP.").waitFor();
    await expect
      .poll(() => page.getByText("it must be an Australian mobile starting 04, like 0412 345 678").isVisible())
      .toBe(true);
    await expectAccessible(page, "the phone step with its advice");

    // No connection: the other message, and its own advice.
    await context.setOffline(true);
    await page.getByLabel("Mobile number").fill("0463 666 777");
    await page.getByRole("button", { name: "Send OTP" }).click();
    await page.getByText("Error sending OTP.").waitFor();
    await expect.poll(() => page.getByText("Check your connection, then try again.").isVisible()).toBe(true);
    await context.setOffline(false);

    await page.getByRole("button", { name: "Send OTP" }).click();
    const otp = page.getByLabel("OTP", { exact: true });
    await otp.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("booking-otp");
    await expect.poll(() => otp.getAttribute("autocomplete")).toBe("one-time-code");
    await expect.poll(() => otp.getAttribute("inputmode")).toBe("numeric");
    const resend = page.getByRole("button", { name: "Resend code" });
    expect(await resend.count()).toBe(0);
    await page.clock.fastForward(25_000);
    expect(await resend.count()).toBe(0);
    await page.clock.fastForward(6_000);
    await resend.waitFor();
    await expectAccessible(page, "the code step with Resend code");
    await expectNoSidewaysScroll(page);

    const codes = async () => (await devOutbox(server.url)).filter((m) => m.to === "+61463666777").length;
    expect(await codes()).toBe(1);
    await resend.click();
    await page.getByText("We sent a new code to +61 463 666 777.").waitFor();
    await expect.poll(codes).toBe(2);
    // The clock starts again for the next one.
    await expect.poll(() => resend.count()).toBe(0);

    // Past the server's limit (2 codes per phone here), Resend says so rather than failing quietly.
    await page.clock.fastForward(31_000);
    await resend.click();
    await page.getByText("Failed to send OTP.").waitFor();
    await expect.poll(() => page.getByText("Too many codes were asked for.", { exact: false }).isVisible()).toBe(true);
    expect(await codes()).toBe(2);

    // The newest code still verifies.
    await otp.fill(await codeFor(server.url, "+61463666777"));
    await page.getByRole("button", { name: "Verify OTP" }).click();
    await page.getByLabel("Name").waitFor();
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 120_000);

  it("says a code voided by five wrong guesses can't be used and offers Resend code at once", async () => {
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    // The clock stands still: Resend code can only show because the code is void, not after 30 s.
    await page.clock.install();
    await page.clock.pauseAt(Date.now() + 1_000);
    await bookFromHome(page, "Open Garden Mixer");
    await page.getByLabel("Mobile number").fill("0455 123 987");
    await page.getByRole("button", { name: "Send OTP" }).click();
    const otp = page.getByLabel("OTP", { exact: true });
    await otp.waitFor();
    const code = await codeFor(server.url, "+61455123987");
    expect(code).toMatch(/^\d{6}$/);
    const verify = async (typed: string) => {
      await otp.fill(typed);
      const answered = page.waitForResponse((r) => r.url().includes("/api/verify-otp"));
      await page.getByRole("button", { name: "Verify OTP" }).click();
      await answered;
    };
    const resend = page.getByRole("button", { name: "Resend code" });
    for (let i = 1; i <= 5; i++) {
      await verify(String((Number(code) + i) % 1_000_000).padStart(6, "0"));
      await page.getByText("Incorrect OTP.").waitFor();
    }

    // The right code now: the server voided it after the fifth wrong one.
    await verify(code);
    await page.getByText("This code can't be used any more. Tap Resend code for a new one.").waitFor();
    expect(await page.getByText("Incorrect OTP.").count()).toBe(0);
    await resend.waitFor();
    // axe times itself with the page's timers: the clock runs again once Resend code has shown.
    await page.clock.resume();
    await expectAccessible(page, "the code step with a void code");
    await expectNoSidewaysScroll(page);

    // Resend code goes through send-otp (its per-phone limits apply); the new code verifies.
    await resend.click();
    await page.getByText("We sent a new code to +61 455 123 987.").waitFor();
    await expect.poll(() => codeFor(server.url, "+61455123987")).not.toBe(code);
    await verify(await codeFor(server.url, "+61455123987"));
    await page.getByLabel("Name").waitFor();
    expect(pageErrors).toEqual([]);
    await context.close();
  }, 120_000);

  // Issue 46, item 11. It replaces e2e/photo-upload.test.ts's "sends a file the browser cannot decode
  // unchanged, and shows the server's answer": the phone now decodes the photo when it is chosen, so
  // such a file is refused at once and never sent.
  it("refuses a text file named fake.jpg as soon as it is chosen, and does not keep or send it", async () => {
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    const sent: string[] = [];
    page.on("request", (request) => {
      if (request.url().includes("/api/save-user-details")) sent.push(request.url());
    });
    await page.goto("/");
    await page
      .locator("article.event-card", { hasText: "Open Garden Mixer" })
      .getByRole("button", { name: "Book Tickets" })
      .click();
    await page.waitForURL("**/otp-verification?eventID=*");
    await verifyPhone(page, server.url, "0412 345 604", "+61412345604");
    await page.getByLabel("Name").fill("Meera Iyer");
    await page.getByLabel("Email", { exact: true }).fill("meera@example.com");
    await page.getByLabel("Gender").selectOption("female");
    await fillDateOfBirth(page);
    await page.getByLabel("I have read who sees my details").check();

    // Typed image/jpeg by its name, so only decoding it shows it is text.
    const fake = {
      name: "fake.jpg",
      mimeType: "image/jpeg",
      buffer: Buffer.from("this is a text file, not a photo\n"),
    };
    await page.getByLabel("Photo").setInputFiles(fake);
    await page.getByText("Image upload is required.").waitFor();
    await expect.poll(() => page.getByText("Choose a photo").isVisible()).toBe(true);
    expect(await page.getByText("fake.jpg").count()).toBe(0);
    expect(await page.getByLabel("Photo").evaluate((input: HTMLInputElement) => input.files?.length ?? 0)).toBe(0);

    // Nor does a file that starts like a JPEG but is not one; Submit then sends nothing.
    const notDecodable = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(20_000, 7)]);
    await page
      .getByLabel("Photo")
      .setInputFiles({ name: "IMG_0003.jpg", mimeType: "image/jpeg", buffer: notDecodable });
    await expect.poll(() => page.getByText("Choose a photo").isVisible()).toBe(true);
    await page.getByText("Image upload is required.").waitFor();
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByText("Image upload is required.").waitFor();
    expect(sent).toEqual([]);
    expect(page.url()).toMatch(/\/otp-verification/);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("has a readable /privacy page naming the server's retention period", async () => {
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    await page.goto("/privacy");
    await page.getByRole("heading", { name: "Privacy", level: 1 }).waitFor();
    await page.getByText("45 days").waitFor();
    for (const heading of [
      "What we keep",
      "Who sees what",
      "How long we keep it",
      "Details kept for next time",
      "Seeing and erasing what we keep",
    ]) {
      await expect.poll(() => page.getByRole("heading", { name: heading, exact: true }).isVisible()).toBe(true);
    }
    await expect.poll(() => page.getByText("see your mobile number in their matches").isVisible()).toBe(true);
    await expectAccessible(page, "the privacy page");
    await expectNoSidewaysScroll(page);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
