import { readFile } from "node:fs/promises";
import type { Browser, Dialog } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../db/client.ts";
import { events } from "../db/schema.ts";
import { makeImage } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, fillDateOfBirth, newContext, noBrowser, submitOrganiserPassword } from "./harness.ts";
import { expectAccessible } from "./page-checks.ts";
import { openTab } from "./steps.ts";

// Venue time at phone size (docs/decisions/005-venue-time.md): an organiser types a Sydney evening in the admin form, and everyone reads
// it on the venue's clock with its zone, while the API keeps UTC.

const PASSWORD = "e2e-admin-password";

/** A mid-December date at least three days away: Sydney is on daylight saving (AEDT, UTC+11) then. */
function summerDate(now = Date.now()): string {
  const today = new Date(now);
  let year = today.getUTCFullYear();
  if (Date.UTC(year, 11, 15) - now < 3 * 86_400_000) year++;
  return `${year}-12-15`;
}

const test = browserSuite();

describe.skipIf(noBrowser)("the venue's local time, from the admin form to the ticket", () => {
  let server: AppServer;
  let browser: Browser;

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
  });
  it("shows a 7 pm Sydney event as 07:00 PM AEDT on its card and ticket, stored as 08:00 UTC", async () => {
    const date = summerDate();
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    page.on("dialog", (dialog: Dialog) => void dialog.accept());

    await page.goto("/admin");
    await submitOrganiserPassword(page, PASSWORD);
    // The panel opens on the Overview.
    await openTab(page, "Add Event");
    const panel = page.getByRole("tabpanel");
    await expect.poll(() => panel.getByLabel("Time zone").inputValue()).toBe("Australia/Sydney");
    await panel.getByLabel("Event name", { exact: true }).fill("Harbour Lights Mixer");
    await panel.getByLabel("Date", { exact: true }).fill(date);
    await panel.getByLabel("Hour", { exact: true }).selectOption("19");
    await panel.getByLabel("Minute", { exact: true }).selectOption("0");
    await panel.getByLabel("Address", { exact: true }).fill("10 Circular Quay W, Sydney NSW 2000");
    await panel.getByLabel("Total seats", { exact: true }).fill("20");
    await panel.getByLabel("Ticket price (AUD)", { exact: true }).fill("45");
    await panel.getByLabel("Duration (hours)", { exact: true }).fill("2.5");
    await panel.getByLabel("From age", { exact: true }).fill("25");
    await panel.getByLabel("To age", { exact: true }).fill("35");
    await panel
      .getByLabel("Event image")
      .setInputFiles({ name: "harbour.png", mimeType: "image/png", buffer: await makeImage("png") });
    await expectAccessible(page, "the Add Event form");
    await panel.getByRole("button", { name: "Save Event" }).click();
    await page.getByText("Event saved successfully!").waitFor();

    const db = openDatabase(`${server.dataDir}/app.db`);
    const stored = db.select().from(events).get();
    db.$client.close();
    expect(new Date(stored!.startsAt).toISOString()).toBe(`${date}T08:00:00.000Z`);
    const list = (await (await fetch(`${server.url}/api/get-events`)).json()) as Record<string, unknown>[];
    expect(list[0]).toMatchObject({ EventDateTime: `${date}T08:00:00.000Z`, time_zone: "Australia/Sydney" });

    // The card.
    await page.goto("/");
    const card = page.locator("article.event-card", { hasText: "Harbour Lights Mixer" });
    // The card starts with the venue's weekday (a Sydney evening is the same day in UTC here).
    const weekday = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"][new Date(`${date}T00:00:00Z`).getUTCDay()];
    await expect.poll(() => card.locator(".event-local-time").textContent()).toBe(`${weekday} ${date} 07:00 PM AEDT`);
    await expect.poll(() => card.locator(".event-utc-time").textContent()).toBe(`${date} 08:00 AM UTC`);
    await expectAccessible(page, "the home page");

    // Booked and paid: the ticket says the same.
    await card.getByRole("button", { name: "Book Tickets" }).click();
    await page.getByLabel("Mobile number").fill("0433 555 777");
    await page.getByRole("button", { name: "Send OTP" }).click();
    await page.getByLabel("OTP", { exact: true }).waitFor();
    const outbox = (await (await fetch(`${server.url}/api/dev/outbox`)).json()) as { to: string; body: string }[];
    const otp = outbox.findLast((m) => m.to === "+61433555777")?.body.match(/\b(\d{6})\b/)?.[1] ?? "";
    await page.getByLabel("OTP", { exact: true }).fill(otp);
    await page.getByRole("button", { name: "Verify OTP" }).click();
    await page.getByLabel("Name").fill("Priya Nair");
    await page.getByLabel("Email", { exact: true }).fill("priya@example.com");
    await page.getByLabel("Gender").selectOption("female");
    await fillDateOfBirth(page);
    await page
      .getByLabel("Photo")
      .setInputFiles({ name: "me.png", mimeType: "image/png", buffer: await makeImage("png", 300, 300) });
    await page.getByLabel("I have read who sees my details").check();
    await page.getByRole("button", { name: "Submit" }).click();
    await page.waitForURL("**/confirmation?eventID=*");
    await expect.poll(() => page.locator(".event-local-time").textContent()).toBe(`${date} 07:00 PM AEDT`);
    await page.getByRole("button", { name: "Proceed to Payment" }).click();
    await page.waitForURL("**/api/dev/checkout/**");
    await page.getByRole("button", { name: "Pay" }).click();
    await page.waitForURL("**/success?**");
    const ticket = page.getByRole("article", { name: "Ticket for Harbour Lights Mixer" });
    await expect.poll(() => ticket.locator(".event-local-time").textContent()).toBe(`${date} 07:00 PM AEDT`);
    await expect.poll(() => ticket.locator(".event-utc-time").textContent()).toBe(`${date} 08:00 AM UTC`);
    await expectAccessible(page, "the ticket on the success page");

    // The confirmation SMS names the local time too.
    const texts = (await (await fetch(`${server.url}/api/dev/outbox`)).json()) as { to: string; body: string }[];
    expect(texts.findLast((m) => m.to === "+61433555777")?.body).toContain(`${date} 07:00 PM AEDT`);

    // Add to calendar: an .ics made on the phone, in UTC.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      ticket.getByRole("button", { name: "Add to calendar" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("Harbour-Lights-Mixer.ics");
    const ics = await readFile((await download.path())!, "utf8");
    expect(ics).toContain(`DTSTART:${date.replace(/-/g, "")}T080000Z\r\n`);
    expect(ics).toContain(`DTEND:${date.replace(/-/g, "")}T103000Z\r\n`);
    expect(ics).toContain("LOCATION:10 Circular Quay W\\, Sydney NSW 2000\r\n");

    // The saved ticket on /tickets.
    await page.getByRole("link", { name: "My tickets" }).first().click();
    const saved = page.getByRole("article", { name: "Ticket for Harbour Lights Mixer" });
    await expect.poll(() => saved.locator(".event-local-time").textContent()).toBe(`${date} 07:00 PM AEDT`);
    await expect.poll(() => saved.getByRole("button", { name: "Add to calendar" }).isVisible()).toBe(true);

    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
