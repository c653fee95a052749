import { eq, like } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { utcToWallClock } from "../common/time-zone.ts";
import { tomorrowIn, wallClockToUtc } from "../common/venue-time-input.ts";
import { openDatabase } from "../db/client.ts";
import { bookings, events } from "../db/schema.ts";
import { insertPaidBookings, makeImage } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, desktop, newContext, noBrowser } from "./harness.ts";
import { expectAccessible } from "./page-checks.ts";
import { openTab } from "./steps.ts";

const DAY = 86_400_000;
const PASSWORD = "e2e-admin-password";

const test = browserSuite();

describe.skipIf(noBrowser)("admin panel on a desktop", () => {
  let server: AppServer;
  let browser: Browser;

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
  });
  const db = () => openDatabase(`${server.dataDir}/app.db`);
  const status = (page: Page) => page.getByRole("status").filter({ hasNotText: "Loading" });
  const pickEvent = async (page: Page, name: string) => {
    const picker = page.getByLabel("Event", { exact: true });
    await picker.locator("option", { hasText: name }).first().waitFor({ state: "attached" });
    const value = await picker.locator("option", { hasText: name }).first().getAttribute("value");
    await picker.selectOption(value!);
  };

  it("logs in, adds, edits, starts and ends an event, and refunds two participants", async () => {
    // newContext's parameter is typed after the phone profile, so the desktop one spells out its defaults.
    const { context, pageErrors } = await newContext(browser, server.url, {
      ...desktop,
      isMobile: false,
      hasTouch: false,
      deviceScaleFactor: 1,
    });
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on("dialog", (d) => {
      dialogs.push(d.message());
      void d.accept();
    });

    // The close button leaves the locked panel.
    await page.goto("/admin");
    await page.getByRole("dialog").waitFor();
    await page.getByRole("button", { name: "Close" }).click();
    await page.waitForURL((url) => url.pathname === "/");

    // Wrong password, then the right one.
    await page.goto("/admin");
    await page.getByLabel("Password", { exact: true }).fill("not the password");
    await page.getByRole("button", { name: "Submit" }).click();
    await expect.poll(() => page.getByRole("alert").textContent()).toContain("Invalid credentials. Please try again.");
    await expectAccessible(page, "the admin login with its error");
    await expect.poll(() => page.getByRole("tablist").count()).toBe(0);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("tablist").waitFor();
    // The organiser's desk (docs/decisions/014) adds Overview before the three original tabs, and opens on it.
    expect(await page.getByRole("tab").allTextContents()).toEqual([
      "Overview",
      "Add Event",
      "Edit Event",
      "User Details",
      "Rounds",
      "Host access",
      "Invite",
      // Issue 51: the Owner's, Managers' and Finance's.
      "Reports",
      // The owner's alone (issue 49): the password's sign-in is the owner.
      "Team",
    ]);
    await expect.poll(() => page.getByRole("tab", { name: "Overview" }).getAttribute("aria-selected")).toBe("true");

    // Add Event.
    await openTab(page, "Add Event");
    // The form speaks the venue's clock; the server default zone (EVENT_TIME_ZONE) is Sydney's.
    const tomorrow = tomorrowIn("Australia/Sydney", Date.now());
    const date = utcToWallClock(Date.now() + 10 * DAY, "Australia/Sydney").date;
    const panel = page.getByRole("tabpanel");
    await expect.poll(() => panel.getByLabel("Date", { exact: true }).getAttribute("min")).toBe(tomorrow);
    await expect.poll(() => panel.getByLabel("Hour", { exact: true }).locator("option").count()).toBe(24);
    expect(await panel.getByLabel("Minute", { exact: true }).locator("option").allTextContents()).toEqual([
      "00",
      "15",
      "30",
      "45",
    ]);
    await panel.getByLabel("Event name", { exact: true }).fill("E2E Launch Party");
    await panel.getByLabel("Date", { exact: true }).fill(date);
    await panel.getByLabel("Hour", { exact: true }).selectOption("20");
    await panel.getByLabel("Minute", { exact: true }).selectOption("30");
    await panel.getByLabel("Address", { exact: true }).fill("200 George St, Sydney NSW 2000");
    await panel.getByLabel("Total seats", { exact: true }).fill("20");
    await panel.getByLabel("Ticket price (AUD)", { exact: true }).fill("39.50");
    await panel.getByLabel("Duration (hours)", { exact: true }).fill("2.5");
    await panel.getByLabel("From age", { exact: true }).fill("25");
    await panel.getByLabel("To age", { exact: true }).fill("38");
    await panel
      .getByLabel("Event image")
      .setInputFiles({ name: "party.png", mimeType: "image/png", buffer: await makeImage("png") });
    await expectAccessible(page, "the Add Event tab");
    await panel.getByRole("button", { name: "Save Event" }).click();
    await expect.poll(() => status(page).locator(".message").textContent()).toBe("Event saved successfully!");
    await status(page).getByRole("link", { name: "Edit E2E Launch Party" }).waitFor();

    const added = db();
    const event = added.select().from(events).where(eq(events.name, "E2E Launch Party")).get()!;
    added.$client.close();
    expect(event.startsAt).toBe(wallClockToUtc({ date, hour: 20, minute: 30 }, "Australia/Sydney"));
    expect(event.timeZone).toBe("Australia/Sydney");
    expect(event).toMatchObject({ priceCents: 3950, totalSeats: 20, durationHours: 2.5, fromAge: 25, toAge: 38 });

    // Edit Event: prefilled, then renamed with more seats.
    await openTab(page, "Edit Event");
    await pickEvent(page, "E2E Launch Party");
    await expect.poll(() => panel.getByLabel("Event name", { exact: true }).inputValue()).toBe("E2E Launch Party");
    await expect.poll(() => panel.getByLabel("Date", { exact: true }).inputValue()).toBe(date);
    await expect.poll(() => panel.getByLabel("Hour", { exact: true }).inputValue()).toBe("20");
    await expect.poll(() => panel.getByLabel("Minute", { exact: true }).inputValue()).toBe("30");
    expect(await panel.getByLabel("Minute", { exact: true }).locator("option").allTextContents()).toEqual([
      "00",
      "15",
      "30",
      "45",
    ]);
    await expect.poll(() => panel.getByLabel("Total seats", { exact: true }).inputValue()).toBe("20");
    await panel.getByLabel("Event name", { exact: true }).fill("E2E Launch Party Deluxe");
    await panel.getByLabel("Total seats", { exact: true }).fill("24");
    await panel.getByLabel("Minute", { exact: true }).selectOption("45");
    await panel.getByRole("button", { name: "Update Event" }).click();
    await expect.poll(() => status(page).textContent()).toBe("Event updated successfully!");
    const detail = (await (await fetch(`${server.url}/api/get-event/${event.id}`)).json()) as Record<string, unknown>;
    expect(detail).toMatchObject({
      event_name: "E2E Launch Party Deluxe",
      total_seats: 24,
      EventDateTime: new Date(wallClockToUtc({ date, hour: 20, minute: 45 }, "Australia/Sydney")).toISOString(),
    });

    const start = panel.getByRole("button", { name: "Start Event" });
    const end = panel.getByRole("button", { name: "End Event" });
    await expect.poll(() => start.isEnabled()).toBe(true);
    await expect.poll(() => end.isDisabled()).toBe(true);

    // Three people booked and paid through the local checkout.
    const writer = db();
    const people = [
      ...insertPaidBookings(writer, event.id, 1, { name: "Asha Rao", gender: "female" }),
      ...insertPaidBookings(writer, event.id, 1, { name: "Vikram Shah", gender: "male" }),
      ...insertPaidBookings(writer, event.id, 1, { name: "Priya Nair", gender: "female" }),
    ];
    for (const p of people) {
      writer
        .update(bookings)
        .set({ paymentIntentId: `pi_local_e2e_${p.bookingId}` })
        .where(eq(bookings.id, p.bookingId))
        .run();
    }
    writer.$client.close();

    // Start, after its confirmation says who will be texted, with the texts going out.
    const dialog = page.getByRole("dialog");
    await start.click();
    await expect.poll(() => dialog.textContent()).toContain("Texts 3 participants");
    await expectAccessible(page, "the Start Event dialog");
    await dialog.getByRole("button", { name: "Start Event" }).click();
    await expect.poll(() => status(page).textContent()).toContain("Event has started! SMS sent to participants.");
    await expect.poll(() => start.isDisabled()).toBe(true);
    await expect.poll(() => end.isEnabled()).toBe(true);

    const outbox = await fetch(`${server.url}/api/dev/outbox`);
    expect(outbox.status).toBe(200);
    const messages = (await outbox.json()) as { to: string; body: string }[];
    for (const p of people) {
      const text = messages.find((m) => m.to === p.phone && m.body.includes("/ParticipantFeedback"));
      expect(text?.body).toContain(`/ParticipantFeedback?par1=${p.userId}&par2=${event.id}&t=`);
    }

    // Asha and Vikram came (checked in at the door); Priya never arrived.
    const door = db();
    for (const p of people.slice(0, 2)) {
      door.update(bookings).set({ checkedInAt: Date.now() }).where(eq(bookings.id, p.bookingId)).run();
    }
    door.$client.close();

    // End, likewise confirmed, saying who came and who did not.
    await end.click();
    await expect.poll(() => dialog.textContent()).toContain("Texts 2 guests who came; 1 no-show");
    await dialog.getByRole("button", { name: "End Event" }).click();
    await expect.poll(() => status(page).textContent()).toContain("Event has ended! SMS sent to participants.");
    await expect.poll(() => end.isDisabled()).toBe(true);
    await expect.poll(() => start.isDisabled()).toBe(true);
    await expect.poll(() => panel.getByRole("button", { name: "Update Event" }).isDisabled()).toBe(true);
    // The end asks for the ratings again; the report link waits for the release of the results.
    const after = (await (await fetch(`${server.url}/api/dev/outbox`)).json()) as { to: string; body: string }[];
    const thanks = after.filter((m) => m.body.includes("Rate the people you met by "));
    expect(thanks.map((m) => m.to).sort()).toEqual([people[0]!.phone, people[1]!.phone].sort());
    for (const m of thanks) expect(m.body).toContain(`/ParticipantFeedback?par1=`);
    // The no-show is not thanked: one sorry, with whom to ask and no rating link.
    expect(after.filter((m) => m.to === people[2]!.phone && m.body.startsWith("Sorry we missed you at "))).toHaveLength(
      1,
    );
    expect(after.filter((m) => m.body.includes(`/EventFeedback?par1=${event.id}&par2=`))).toHaveLength(0);

    // User Details: the participants, then a refund of two.
    await openTab(page, "User Details");
    await pickEvent(page, "E2E Launch Party Deluxe");
    const rows = panel.locator("tbody tr");
    await expect.poll(() => rows.count()).toBe(3);
    await expect.poll(() => rows.first().textContent()).toContain("Asha Rao");
    // Phones read the national way: +61412345678 as 0412 345 678.
    const ashaPhone = people[0]!.phone;
    const national = `0${ashaPhone.slice(3, 6)} ${ashaPhone.slice(6, 9)} ${ashaPhone.slice(9)}`;
    await expect.poll(() => rows.first().textContent()).toContain(national);
    expect(await panel.getByRole("columnheader").allTextContents()).toEqual([
      "",
      "Photo",
      "Name",
      "Email",
      "Gender",
      "Phone",
      "Amount",
      "Payment",
      "Invoice",
      "Status",
      "Booked",
      "Checked in",
    ]);

    const refundButton = panel.getByRole("button", { name: "Refund", exact: true });
    await refundButton.click();
    await expect.poll(() => panel.getByRole("alert").textContent()).toBe("No participants selected for refund.");
    await expectAccessible(page, "User Details with its error");

    // Slow the refunds down so the batch is visibly running, and count what reaches the server.
    let refundCalls = 0;
    await page.route("**/api/refund", async (route) => {
      refundCalls++;
      await new Promise((r) => setTimeout(r, 400));
      await route.continue();
    });
    await panel.getByLabel("Select Asha Rao", { exact: true }).check();
    await panel.getByLabel("Select Priya Nair", { exact: true }).check();
    await refundButton.click();
    await expect.poll(() => dialog.textContent()).toContain("Refunds 2 payments, $90.00");
    await dialog.getByRole("button", { name: "Refund", exact: true }).click();
    const processing = panel.getByRole("button", { name: "Processing..." });
    await processing.waitFor();
    await expect.poll(() => processing.isDisabled()).toBe(true);
    await processing.click({ force: true });
    await expect.poll(() => dialogs.length, { timeout: 10_000 }).toBe(2);
    expect(dialogs).toEqual(["Refund initiated for 2 participant(s)", "Refund Successfull"]);
    expect(refundCalls).toBe(2);

    await expect.poll(() => rows.filter({ hasText: "refunded" }).count()).toBe(2);
    await expect.poll(() => rows.filter({ hasText: "Vikram Shah" }).textContent()).toContain("Paid");
    await expect.poll(() => rows.filter({ hasText: "Asha Rao" }).textContent()).toContain("Refunded");
    await expect.poll(() => refundButton.isEnabled()).toBe(true);
    const check = db();
    const refunded = check.select().from(bookings).where(like(bookings.paymentIntentId, "pi_local_e2e_%")).all();
    check.$client.close();
    expect(refunded.filter((b) => b.status === "refunded")).toHaveLength(2);

    // A session that lapses brings the password modal back.
    await context.clearCookies();
    await openTab(page, "Edit Event");
    await openTab(page, "User Details");
    await pickEvent(page, "E2E Launch Party Deluxe");
    await page.getByLabel("Password", { exact: true }).waitFor();

    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
