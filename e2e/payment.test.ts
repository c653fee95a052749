import { eq } from "drizzle-orm";
import type { Browser, BrowserContext, Dialog, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../db/client.ts";
import { bookings, users } from "../db/schema.ts";
import { verifiedPhoneCookie } from "../test/api-harness.ts";
import { yearLike } from "../test/clock.ts";
import { insertEvent, insertHeldBooking, makeImage } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, callsOf, fillDateOfBirth, newContext, noBrowser, phone } from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks.ts";

// Set here, not left to the harness, so a test can sign the cookie of a browser that verified its phone.
const SESSION_SECRET = "e2e-payment-secret-e2e-payment-secret-0123";

// Dates in a year laid out like 2031, always ahead of the clock (test/clock.ts).
const Y = yearLike(2031);
// Ages are counted on the night, so a guest's date of birth goes with the event's year: 29 or 30 then.
const BORN = `${Y - 30}-05-03`;

const test = browserSuite({ serverEnv: { SESSION_SECRET } });

describe.skipIf(noBrowser)("paying through the local checkout and checking in at the door", () => {
  let server: AppServer;
  let browser: Browser;
  let photo: Buffer;
  let doorEventId: number;

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    const db = openDatabase(`${server.dataDir}/app.db`);
    const uploads = `${server.dataDir}/uploads`;
    await insertEvent(db, uploads, {
      name: "Rooftop Mixer",
      startsAt: Date.UTC(Y, 5, 6, 9, 30),
      address: "5 Rooftop Lane, Sydney NSW 2000",
      priceCents: 4500,
      totalSeats: 10,
    });
    doorEventId = (
      await insertEvent(db, uploads, {
        name: "Door Check Social",
        startsAt: Date.UTC(Y, 6, 7, 19, 0),
        address: "9 Lantern St, Melbourne VIC 3000",
        priceCents: 3950,
      })
    ).id;
    db.$client.close();
    photo = await makeImage("png", 400, 400);
  });

  const readBooking = (userId: number) => {
    const db = openDatabase(`${server.dataDir}/app.db`);
    try {
      return db.select().from(bookings).where(eq(bookings.userId, userId)).get();
    } finally {
      db.$client.close();
    }
  };

  /** From the "Test checkout" page to the ticket on /success; returns the code shown. */
  async function payAndSeeTicket(page: Page, eventName: string, amount: string) {
    await page.waitForURL("**/api/dev/checkout/**");
    expect(await page.title()).toBe("Test checkout");
    await expect.poll(() => page.getByText(eventName).isVisible()).toBe(true);
    await expect.poll(() => page.getByText(amount).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole("button", { name: "Cancel" }).isVisible()).toBe(true);
    await expectAccessible(page, "the test checkout");
    // The success URL as the checkout returns to it, before the page tidies the address bar.
    const landing = page.waitForEvent("framenavigated", {
      predicate: (frame) => frame === page.mainFrame() && frame.url().includes("/success?"),
    });
    await page.getByRole("button", { name: "Pay" }).click();
    const url = new URL((await landing).url());
    expect([...url.searchParams.keys()]).toEqual([
      "session_id",
      "userID",
      "eventID",
      "eventName",
      "amount",
      "userEmail",
      "phone",
    ]);
    const code = page.locator(".ticket-code");
    await code.waitFor({ timeout: 20_000 });
    const qr = page.getByRole("img", { name: /QR code/ });
    await expect.poll(() => qr.isVisible()).toBe(true);
    await expect.poll(() => qr.getAttribute("src")).toMatch(/^data:image\/png;base64,/);
    expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
    await expect.poll(() => page.getByRole("link", { name: "Download QR" }).getAttribute("download")).toMatch(/\.png$/);
    // The payment's receipt, from the ticket's own capability: a PDF named by its number.
    const invoice = page.getByRole("link", { name: "Download invoice" });
    await expect.poll(() => invoice.getAttribute("href")).toMatch(/^\/api\/invoice\?bookingId=\d+&t=[\w-]+$/);
    const pdf = await callsOf(page.request).get(new URL((await invoice.getAttribute("href")) ?? "", server.url).href);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toBe("application/pdf");
    expect(pdf.headers()["content-disposition"]).toMatch(/^attachment; filename="INV-\d{6}\.pdf"$/);
    await page.getByText("Your ticket is saved on this device").waitFor();
    // The email and the phone leave the address bar and the history; what a reload needs stays.
    await expect
      .poll(() => [...new URL(page.url()).searchParams.keys()])
      .toEqual(["session_id", "userID", "eventID", "eventName", "amount"]);
    const cdp = await page.context().newCDPSession(page);
    const history = (await cdp.send("Page.getNavigationHistory")) as { entries: { url: string }[] };
    for (const entry of history.entries) {
      expect(entry.url).not.toMatch(/userEmail=|[?&]phone=/);
      expect(decodeURIComponent(entry.url)).not.toContain(url.searchParams.get("userEmail") ?? "@");
    }
    await cdp.detach();
    // The phone the code went to, as an Australian reads it.
    await expect
      .poll(() => page.locator(".payment-success .notice").textContent())
      .toMatch(/texted your code to 04\d\d \d{3} \d{3}\./);
    await expectAccessible(page, "the ticket on the success page");
    await expectNoSidewaysScroll(page);
    const uniqueCode = (await code.textContent()) ?? "";
    expect(uniqueCode).toMatch(/^[A-Z2-9]{10}$/);
    expect(await page.evaluate(() => localStorage.getItem("paymentIntentId"))).toMatch(/^pi_local_/);
    return {
      uniqueCode,
      userID: Number(url.searchParams.get("userID")),
      eventID: Number(url.searchParams.get("eventID")),
    };
  }

  /**
   * The saved ticket shows on My tickets (/me, signed out) with the network gone: reached from the header, and opened
   * afresh (a reload at the door), when the service worker serves the shell and IndexedDB the ticket.
   */
  async function ticketIsSaved(context: BrowserContext, page: Page, eventName: string, uniqueCode: string) {
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await context.setOffline(true);
    await page.getByRole("link", { name: "My tickets" }).first().click();
    await page.waitForURL("**/me");
    for (const reload of [false, true]) {
      if (reload) await page.reload();
      const ticket = page.getByRole("article", { name: `Ticket for ${eventName}` });
      await ticket.waitFor();
      await expect.poll(() => ticket.locator(".ticket-code").textContent()).toBe(uniqueCode);
      const qr = ticket.getByRole("img", { name: /QR code/ });
      await expect.poll(() => qr.isVisible()).toBe(true);
      expect(await qr.evaluate((img: HTMLImageElement) => img.src.startsWith("data:image/png;base64,"))).toBe(true);
    }
    await expectAccessible(page, "My tickets, offline");
    await context.setOffline(false);
  }

  async function checkInAtTheDoor(
    page: Page,
    ids: { eventID: number; userID: number },
    expected: string[],
    uniqueCode: string,
  ) {
    await page.goto(`/confirm-booking?eventID=${ids.eventID}&userID=${ids.userID}`);
    await page.getByLabel("Unique code").waitFor();
    for (const text of expected) await page.getByText(text).waitFor();
    await page.getByLabel("Unique code").fill("WRONGCODE9");
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.getByText("Invalid code. Please try again.").waitFor();
    await expectAccessible(page, "the door check with its error");
    await expect.poll(() => page.getByText("Booking confirmed! Thank you!").count()).toBe(0);
    // The attendee's own code, weeks before the night: right, but not an arrival.
    await page.getByLabel("Unique code").fill(uniqueCode);
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.getByText("Booking confirmed! Thank you!").waitFor();
    await page.getByText("You're not checked in yet: show your ticket at the door on the night.").waitFor();
    expect(readBooking(ids.userID)?.checkedInAt).toBeNull();
    // Door staff, signed in, confirming the same code: checked in.
    const login = await page.evaluate(
      async () =>
        (
          await fetch("/api/admin-login", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ password: "e2e-admin-password" }),
          })
        ).status,
    );
    expect(login).toBe(200);
    // Weeks ahead the doors are shut: staff learn whose ticket it is, and nobody arrives yet.
    await page.getByRole("button", { name: "Confirm" }).click();
    await page.getByText(/'s ticket\. Doors open at .*: not checked in yet\.$/).waitFor();
    expect(readBooking(ids.userID)?.checkedInAt).toBeNull();
    // Once the organiser opens the doors, the same confirmation checks the attendee in.
    const opened = await page.evaluate(
      async (eventId) =>
        (
          await fetch("/api/open-doors", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ eventId }),
          })
        ).status,
      ids.eventID,
    );
    expect(opened).toBe(200);
    await page.getByRole("button", { name: "Confirm" }).click();
    await expect.poll(() => readBooking(ids.userID)?.checkedInAt ?? 0).toBeGreaterThan(0);
    await page.getByText(/'s ticket: checked in\.$/).waitFor();
    await expect.poll(() => page.getByText("You're not checked in yet", { exact: false }).count()).toBe(0);
    await page.getByText("Booking confirmed! Thank you!").waitFor();
  }

  it("books from the home page, pays, gets a ticket and is checked in with the right code", async () => {
    const { context, pageErrors } = await newContext(browser, server.url, { ...phone, serviceWorkers: "allow" });
    const page = await context.newPage();
    page.on("dialog", (dialog: Dialog) => void dialog.accept());
    await page.goto("/");
    await page
      .locator("article.event-card", { hasText: "Rooftop Mixer" })
      .getByRole("button", { name: "Book Tickets" })
      .click();
    await page.waitForURL("**/otp-verification?eventID=*");
    await page.getByLabel("Mobile number").fill("0433 222 111");
    await page.getByRole("button", { name: "Send OTP" }).click();
    await page.getByLabel("OTP", { exact: true }).waitFor();
    const outbox = (await (await fetch(`${server.url}/api/dev/outbox`)).json()) as { to: string; body: string }[];
    const otp =
      outbox
        .filter((m) => m.to === "+61433222111")
        .at(-1)
        ?.body.match(/\b(\d{6})\b/)?.[1] ?? "";
    await page.getByLabel("OTP", { exact: true }).fill(otp);
    await page.getByRole("button", { name: "Verify OTP" }).click();
    await page.getByLabel("Name").fill("Meera Iyer");
    await page.getByLabel("Email", { exact: true }).fill("meera@example.com");
    await page.getByLabel("Gender").selectOption("female");
    await fillDateOfBirth(page, BORN);
    await page.getByLabel("Photo").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: photo });
    await page.getByLabel("I have read who sees my details").check();
    await page.getByRole("button", { name: "Submit" }).click();
    await page.waitForURL("**/confirmation?eventID=*");
    await page.getByRole("button", { name: "Proceed to Payment" }).click();

    const ticket = await payAndSeeTicket(page, "Rooftop Mixer", "$45.00");
    await expect.poll(() => page.getByText("Meera Iyer").isVisible()).toBe(true);
    await expect.poll(() => page.getByText(`${Y}-06-06 09:30 AM`).isVisible()).toBe(true);
    expect(readBooking(ticket.userID)).toMatchObject({ status: "paid", uniqueCode: ticket.uniqueCode });
    const sms = (await (await fetch(`${server.url}/api/dev/outbox`)).json()) as { to: string; body: string }[];
    expect(sms.filter((m) => m.to === "+61433222111" && m.body.includes(ticket.uniqueCode))).toHaveLength(1);

    await ticketIsSaved(context, page, "Rooftop Mixer", ticket.uniqueCode);
    await checkInAtTheDoor(
      page,
      ticket,
      ["Rooftop Mixer", `${Y}-06-06 09:30 AM`, "5 Rooftop Lane, Sydney NSW 2000"],
      ticket.uniqueCode,
    );
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("goes from a held seat through checkout to the door without the booking pages", async () => {
    const db = openDatabase(`${server.dataDir}/app.db`);
    const held = insertHeldBooking(db, doorEventId, { name: "Kabir Singh", email: "kabir@example.com" });
    db.$client.close();

    const { context, pageErrors } = await newContext(browser, server.url, { ...phone, serviceWorkers: "allow" });
    // The browser that held the seat proved the phone first; only that browser may start its checkout.
    const [name, value] = verifiedPhoneCookie({ SESSION_SECRET }, held.phone).split("=") as [string, string];
    await context.addCookies([{ name, value, url: server.url }]);
    const page = await context.newPage();
    await page.goto("/tickets");
    await page.getByText("No tickets are saved on this device yet.", { exact: false }).waitFor();
    await expect.poll(() => page.getByRole("link", { name: "Browse events" }).isVisible()).toBe(true);

    // What "Proceed to Payment" does (pwa/features/payment/start-checkout.ts), from the page itself.
    await page.evaluate(
      async ({ userID, eventID }) => {
        const response = await fetch("/api/create-checkout-session", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ userID, eventID, amount: 0.5, userEmail: "kabir@example.com", eventName: "x" }),
        });
        const { url } = (await response.json()) as { url: string };
        window.location.assign(url);
      },
      { userID: held.userId, eventID: doorEventId },
    );
    const ticket = await payAndSeeTicket(page, "Door Check Social", "$39.50");
    expect(ticket).toMatchObject({ userID: held.userId, eventID: doorEventId });
    await expect.poll(() => page.getByText("Kabir Singh").isVisible()).toBe(true);

    // Reloading /success neither fails nor sends a second SMS.
    await page.reload();
    await page.locator(".ticket-code").waitFor();
    await expect.poll(() => page.locator(".ticket-code").textContent()).toBe(ticket.uniqueCode);
    const sms = (await (await fetch(`${server.url}/api/dev/outbox`)).json()) as { to: string; body: string }[];
    expect(sms.filter((m) => m.to === held.phone)).toHaveLength(1);

    await ticketIsSaved(context, page, "Door Check Social", ticket.uniqueCode);
    await checkInAtTheDoor(
      page,
      ticket,
      ["Door Check Social", `${Y}-07-07 07:00 PM`, "9 Lantern St, Melbourne VIC 3000"],
      ticket.uniqueCode,
    );
    const db2 = openDatabase(`${server.dataDir}/app.db`);
    expect(db2.select().from(users).where(eq(users.id, held.userId)).get()?.name).toBe("Kabir Singh");
    db2.$client.close();
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
