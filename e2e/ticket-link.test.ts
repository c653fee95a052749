import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { utcToWallClock } from "../common/time-zone.ts";
import { yearLike } from "../test/clock.ts";
import { makeImage } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, newContext, noBrowser, phone, signInAsOrganiser } from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks.ts";
import { addEvent, bookAndPay, openTab } from "./steps.ts";

// At phone size, the success URL is not a ticket (docs/decisions/010-tickets-are-not-urls.md). A browser that did not verify the
// booking's phone (an installed app on iOS keeps its storage apart from Safari, where the card
// checkout returned) is told the ticket was texted; the texted link shows the ticket on that phone,
// saves it, and leaves the address bar clean.

const SESSION_SECRET = "e2e-ticket-link-secret-e2e-ticket-link-0123";

// Dates in a year laid out like 2031, always ahead of the clock (test/clock.ts).
const Y = yearLike(2031);

const test = browserSuite({ serverEnv: { SESSION_SECRET } });

describe.skipIf(noBrowser)("the texted ticket link", () => {
  let server: AppServer;
  let browser: Browser;
  let eventId: number;

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    eventId = (
      await addEvent(server, {
        name: "Lantern Social",
        startsAt: Date.UTC(Y, 6, 7, 9, 0),
        address: "9 Lantern St, Melbourne VIC 3000",
        priceCents: 3950,
      })
    ).id;
  });

  const paidBooking = (name: string) => bookAndPay(server, SESSION_SECRET, eventId, name);

  it("another phone opening the success URL is told the ticket was texted; the link adds it there", async () => {
    const booking = await paidBooking("Anika Rao");
    const { context, pageErrors } = await newContext(browser, server.url, { ...phone, serviceWorkers: "allow" });
    const page = await context.newPage();

    // The success URL in a browser that never verified the phone: no ticket, a clear way to get it.
    await page.goto(booking.successPath);
    await page.getByText("Your ticket has been texted to you.").waitFor();
    await page.getByText(/Open the link in the text message/).waitFor();
    expect(await page.locator(".ticket-code").count()).toBe(0);
    expect(await page.getByText(booking.uniqueCode).count()).toBe(0);
    await expectAccessible(page, "the success page in another browser");
    await expectNoSidewaysScroll(page);

    // The texted link: the ticket shows, is saved, and the token leaves the address bar.
    await page.goto(booking.linkPath);
    const ticket = page.getByRole("article", { name: "Ticket for Lantern Social" });
    await ticket.waitFor();
    await expect.poll(() => ticket.locator(".ticket-code").textContent()).toBe(booking.uniqueCode);
    await expect.poll(() => ticket.getByText("Anika Rao").isVisible()).toBe(true);
    await expect.poll(() => ticket.getByText("9 Lantern St, Melbourne VIC 3000").isVisible()).toBe(true);
    const qr = ticket.getByRole("img", { name: /QR code/ });
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(100);
    await page.getByText("Ticket added for Lantern Social.", { exact: false }).waitFor();
    await expect.poll(() => new URL(page.url()).search).toBe("");
    expect(new URL(page.url()).pathname).toBe("/tickets");
    await expectAccessible(page, "the ticket opened from the texted link");
    await expectNoSidewaysScroll(page);

    // With the keyboard alone: Tab reaches the ticket's actions.
    await page.locator("body").focus();
    const reached: string[] = [];
    for (let i = 0; i < 12 && !reached.includes("Download QR"); i++) {
      await page.keyboard.press("Tab");
      reached.push(await page.evaluate(() => document.activeElement?.textContent?.trim() ?? ""));
    }
    expect(reached).toContain("Download QR");

    // Saved on this phone: back on the success URL the ticket shows, and at the door with no network.
    await page.goto(booking.successPath);
    await expect.poll(() => page.locator(".ticket-code").first().textContent()).toBe(booking.uniqueCode);
    await page.goto("/tickets");
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await context.setOffline(true);
    await page.reload();
    await expect
      .poll(() =>
        page.getByRole("article", { name: "Ticket for Lantern Social" }).locator(".ticket-code").textContent(),
      )
      .toBe(booking.uniqueCode);
    await context.setOffline(false);

    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("a wrong or cut-off link says so plainly and saves nothing", async () => {
    const booking = await paidBooking("Dev Malhotra");
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    const bookingId = new URL(booking.linkPath, server.url).searchParams.get("add");

    await page.goto(`/tickets?add=${bookingId}&t=not-the-token`);
    await page.getByRole("alert").getByText("This ticket link isn't valid.", { exact: false }).waitFor();
    await page.getByText("No tickets are saved on this device yet.", { exact: false }).waitFor();
    expect(await page.getByText(booking.uniqueCode).count()).toBe(0);
    await expectAccessible(page, "a wrong ticket link");
    await expectNoSidewaysScroll(page);

    await page.goto(`/tickets?add=${bookingId}`);
    await page.getByRole("alert").getByText("This ticket link is incomplete.", { exact: false }).waitFor();

    expect(pageErrors).toEqual([]);
    await context.close();
  });
  // Venue notes (issue 47, part 3): set on Add, edited on Edit, then read by a guest on the event's
  // booking page and on the ticket, all at 390 px.
  it("the organiser sets Venue notes on Add and edits them; a guest sees them on the event page and the ticket", async () => {
    const { context, pageErrors } = await newContext(browser, server.url, phone);
    const page = await context.newPage();
    await signInAsOrganiser(page);
    await openTab(page, "Add Event");
    const panel = page.getByRole("tabpanel");
    const date = utcToWallClock(Date.now() + 12 * 86_400_000, "Australia/Sydney").date;
    await panel.getByLabel("Event name", { exact: true }).fill("Saathi Social");
    await panel.getByLabel("Date", { exact: true }).fill(date);
    await panel.getByLabel("Address", { exact: true }).fill("5 Laneway Pl, Sydney NSW 2000");
    const notes = panel.getByLabel("Venue notes", { exact: true });
    await panel.getByText("At most 200 characters").first().waitFor();
    expect(await notes.getAttribute("maxlength")).toBe("200");
    await notes.fill("Enter via Level 1, ask for the Saathi table");
    await panel.getByLabel("Total seats", { exact: true }).fill("20");
    await panel.getByLabel("Ticket price (AUD)", { exact: true }).fill("39.50");
    await panel.getByLabel("Duration (hours)", { exact: true }).fill("2");
    await panel.getByLabel("From age", { exact: true }).fill("25");
    await panel.getByLabel("To age", { exact: true }).fill("38");
    await panel
      .getByLabel("Event image")
      .setInputFiles({ name: "party.png", mimeType: "image/png", buffer: await makeImage("png") });
    await panel.getByRole("button", { name: "Save Event" }).click();
    await page.getByText("Event saved successfully!").waitFor();
    await expectNoSidewaysScroll(page);

    await openTab(page, "Edit Event");
    const picker = page.getByLabel("Event", { exact: true });
    await picker.locator("option", { hasText: "Saathi Social" }).first().waitFor({ state: "attached" });
    await picker.selectOption(
      (await picker.locator("option", { hasText: "Saathi Social" }).first().getAttribute("value"))!,
    );
    const edited = page.getByRole("tabpanel").getByLabel("Venue notes", { exact: true });
    await expect.poll(() => edited.inputValue()).toBe("Enter via Level 1, ask for the Saathi table");
    await edited.fill("Enter via Level 2, ask for the Saathi table");
    await page.getByRole("tabpanel").getByRole("button", { name: "Update Event" }).click();
    await page.getByText("Event updated successfully!").waitFor();
    const list = (await (await fetch(`${server.url}/api/get-events`)).json()) as { id: number; event_name: string }[];
    const added = list.find((e) => e.event_name === "Saathi Social");
    expect(added).toMatchObject({ venue_notes: "Enter via Level 2, ask for the Saathi table" });
    await context.close();

    // A guest: the event's booking page, then the ticket the texted link opens.
    const guest = await newContext(browser, server.url, phone);
    const guestPage = await guest.context.newPage();
    await guestPage.goto("/");
    const card = guestPage.locator("article.event-card", { hasText: "Saathi Social" });
    // The home page's cards stay as they were: the notes are for the booking page and the ticket.
    await card.getByRole("button", { name: "Book Tickets" }).waitFor();
    expect(await card.getByText("Enter via Level 2").count()).toBe(0);
    await card.getByRole("button", { name: "Book Tickets" }).click();
    await guestPage.waitForURL("**/otp-verification?eventID=*");
    const summary = guestPage.getByLabel("Event", { exact: true });
    await summary.getByText("Venue notes").waitFor();
    await summary.getByText("Enter via Level 2, ask for the Saathi table").waitFor();
    await expectNoSidewaysScroll(guestPage);

    const booking = await bookAndPay(server, SESSION_SECRET, added!.id, "Meera Shah");
    await guestPage.goto(booking.linkPath);
    const ticket = guestPage.getByRole("article", { name: "Ticket for Saathi Social" });
    await ticket.waitFor();
    await ticket.getByText("Enter via Level 2, ask for the Saathi table").waitFor();
    await expectAccessible(guestPage, "a ticket with venue notes");
    await expectNoSidewaysScroll(guestPage);
    expect([...pageErrors, ...guest.pageErrors]).toEqual([]);
    await guest.context.close();
  });
});
