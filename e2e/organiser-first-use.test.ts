import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { utcToWallClock } from "../common/time-zone.ts";
import { wallClockToUtc } from "../common/venue-time-input.ts";
import { openDatabase } from "../db/client.ts";
import { bookings, events, users } from "../db/schema.ts";
import { insertEvent, insertPaidBookings, makeImage } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, desktop, newContext, noBrowser, signInAsOrganiser } from "./harness.ts";
import { expectAccessible } from "./page-checks.ts";
import { openTab } from "./steps.ts";

// What an organiser trips over the first time, on a 1366 px laptop: where /admin opens, getting from
// the Overview to an event, where the saved event went, a wide participants table, starting an
// event days early by mistake, and a spreadsheet named and timed for the venue
// (docs/decisions/014-organiser-desk.md).

const DAY = 86_400_000;
const ZONE = "Australia/Sydney";
const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
/** 7 pm at the venue, `days` days from today there. */
const sevenPm = (days: number) => {
  const date = utcToWallClock(Date.now() + days * DAY, ZONE).date;
  return { date, at: wallClockToUtc({ date, hour: 19, minute: 0 }, ZONE) };
};

const test = browserSuite();

describe.skipIf(noBrowser)("the organiser's first time at the desk, at 1366 px", () => {
  let server: AppServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  const harbourNight = sevenPm(7);
  // Booked at 7:05 pm Sydney time on 20 November 2026 (AEDT, UTC+11): 08:05 UTC.
  const bookedAt = Date.UTC(2026, 10, 20, 8, 5);
  const ids: Record<string, number> = {};

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    const db = openDatabase(`${server.dataDir}/app.db`);
    const uploads = `${server.dataDir}/uploads`;
    const harbour = await insertEvent(db, uploads, {
      name: "Harbour Lights Mixer",
      startsAt: harbourNight.at,
      address: "Level 3, 200 George Street, Sydney NSW 2000",
    });
    // Long names and addresses, and payment ids as long as Stripe's: the table must still fit.
    const people = [
      ["Priyanka Venkataraman", "priyanka.venkataraman@example.com.au", "female"],
      ["Vikram Shah", "vikram.shah1988@gmail.com", "male"],
      ["Lakshmi Subramaniam-Chandrasekaran", "lakshmi.subramaniam.chandrasekaran@bigpond.com.au", "female"],
      ["Mohammed Abdul Rahman", "m.abdulrahman@protonmail.com", "male"],
    ] as const;
    for (const [i, [name, email, gender]] of people.entries()) {
      const [p] = insertPaidBookings(db, harbour.id, 1, { name, gender, paidAt: bookedAt + i * 60_000 });
      db.update(users).set({ email }).where(eq(users.id, p!.userId)).run();
      db.update(bookings)
        .set({ paymentIntentId: `pi_local_3PqXyZ2eZvKYlo2C1Ab${p!.bookingId}` })
        .where(eq(bookings.id, p!.bookingId))
        .run();
    }
    // Vikram came in at 6:55 pm on the night.
    db.update(bookings)
      .set({ checkedInAt: harbourNight.at - 5 * 60_000 })
      .where(eq(bookings.phone, db.select().from(users).where(eq(users.name, "Vikram Shah")).get()!.phone))
      .run();
    const later = await insertEvent(db, uploads, { name: "Later Soiree", startsAt: sevenPm(20).at });
    Object.assign(ids, { harbour: harbour.id, later: later.id });
    db.$client.close();

    // newContext's parameter is typed after the phone profile, so the desktop one spells out its defaults.
    ({ context, pageErrors } = await newContext(browser, server.url, {
      ...desktop,
      isMobile: false,
      hasTouch: false,
      deviceScaleFactor: 1,
      acceptDownloads: true,
      // The organiser's laptop is not at the venue: every date and time must still be the venue's.
      timezoneId: "Europe/London",
    }));
    page = await context.newPage();
    page.on("dialog", (d) => void d.accept());
    await signInAsOrganiser(page);
  });

  afterAll(async () => {
    expect(pageErrors).toEqual([]);
    await context?.close();
  });

  const panel = () => page.getByRole("tabpanel");
  const selected = async () => page.getByRole("tab", { selected: true }).textContent();
  const picked = () =>
    panel()
      .getByLabel("Event", { exact: true })
      .evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent ?? "");

  it("opens /admin on the Overview", async () => {
    await expect.poll(selected).toBe("Overview");
    expect(new URL(page.url()).pathname).toBe("/admin");
    await expect
      .poll(() => panel().getByRole("table").locator("tbody th").allTextContents())
      .toEqual(["Harbour Lights Mixer", "Later Soiree"]);
    const harbour = panel().getByRole("row").filter({ hasText: "Harbour Lights Mixer" });
    await expect.poll(() => harbour.getByRole("cell").nth(1).textContent()).toBe("Upcoming");
    await expectAccessible(page, "the Overview with its links");
    // Reloading keeps it: the address names no other tab.
    await page.reload();
    await expect.poll(selected).toBe("Overview");
  });

  it("links each Overview row to its participants and its edit form, and Back returns", async () => {
    const row = panel().getByRole("row").filter({ hasText: "Harbour Lights Mixer" });
    await row.getByRole("link", { name: "Participants of Harbour Lights Mixer" }).click();
    await expect.poll(selected).toBe("User Details");
    await expect.poll(picked).toContain("Harbour Lights Mixer");
    await expect.poll(() => panel().locator("tbody tr").first().textContent()).toContain("Priyanka Venkataraman");
    // Focus moved to the new panel rather than falling to the top of the page.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute("role"))).toBe("tabpanel");

    await page.goBack();
    await expect.poll(selected).toBe("Overview");
    await panel()
      .getByRole("row")
      .filter({ hasText: "Later Soiree" })
      .getByRole("link", { name: "Edit Later Soiree" })
      .click();
    await expect.poll(selected).toBe("Edit Event");
    await expect.poll(picked).toContain("Later Soiree");
    await expect.poll(() => panel().getByLabel("Event name", { exact: true }).inputValue()).toBe("Later Soiree");
    expect(new URL(page.url()).searchParams.get("event")).toBe(String(ids.later));
  });

  it("gives the Edit tab's price field the height of its neighbours", async () => {
    await page.goto(`/admin?tab=edit-event&event=${ids.harbour}`);
    const price = panel().getByLabel("Ticket price (AUD)", { exact: true });
    await expect.poll(() => price.inputValue()).toBe("45.00");
    const height = async (label: string) => (await panel().getByLabel(label, { exact: true }).boundingBox())!.height;
    // Its hint makes its cell taller than Duration's beside it; neither input stretches.
    expect(await height("Ticket price (AUD)")).toBe(await height("Event name"));
    expect(await height("Duration (hours)")).toBe(await height("Event name"));
    await expectAccessible(page, "the Edit tab");
  });

  it("warns in Start Event's dialog when the event's day has not come, with its date", async () => {
    const start = panel().getByRole("button", { name: "Start Event" });
    await expect.poll(() => start.isEnabled()).toBe(true);
    await start.click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    const weekday = WEEKDAYS[new Date(`${harbourNight.date}T00:00:00Z`).getUTCDay()];
    const abbreviation = new Intl.DateTimeFormat("en-AU", { timeZone: ZONE, timeZoneName: "short" })
      .formatToParts(harbourNight.at)
      .find((p) => p.type === "timeZoneName")?.value;
    await expect
      .poll(() => dialog.locator("p").first().textContent())
      .toBe(
        `This event is planned for ${weekday} ${harbourNight.date} 07:00 PM ${abbreviation}; starting now texts everyone today.`,
      );
    expect(await dialog.textContent()).toContain("Texts 4 participants");
    await expectAccessible(page, "the Start Event dialog with its warning");
    await dialog.getByRole("button", { name: "Go back" }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    const status = openDatabase(`${server.dataDir}/app.db`);
    expect(status.select().from(events).where(eq(events.id, ids.harbour!)).get()?.status).toBe("upcoming");
    status.$client.close();
  });

  it("puts the saved message beside Save Event, with a link to the new event's edit form", async () => {
    await openTab(page, "Add Event");
    const form = panel();
    const { date } = sevenPm(10);
    await form.getByLabel("Event name", { exact: true }).fill("Diwali Rooftop Social");
    await form.getByLabel("Date", { exact: true }).fill(date);
    await form.getByLabel("Hour", { exact: true }).selectOption("19");
    await form.getByLabel("Address", { exact: true }).fill("1 Rooftop Lane, Sydney NSW 2000");
    await form.getByLabel("Total seats", { exact: true }).fill("20");
    await form.getByLabel("Ticket price (AUD)", { exact: true }).fill("45");
    await form.getByLabel("Duration (hours)", { exact: true }).fill("2");
    await form.getByLabel("From age", { exact: true }).fill("25");
    await form.getByLabel("To age", { exact: true }).fill("35");
    await form
      .getByLabel("Event image")
      .setInputFiles({ name: "rooftop.png", mimeType: "image/png", buffer: await makeImage("png") });
    const save = form.getByRole("button", { name: "Save Event" });
    await save.click();
    const message = form.getByRole("status").filter({ hasText: "Event saved successfully!" });
    await message.waitFor();

    // Beside the button: on its line, to its right.
    const button = (await save.boundingBox())!;
    const box = (await message.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(button.x + button.width);
    expect(box.y).toBeLessThan(button.y + button.height);
    expect(box.y + box.height).toBeGreaterThan(button.y);
    await expectAccessible(page, "the Add Event tab after saving");

    const db = openDatabase(`${server.dataDir}/app.db`);
    const saved = db.select().from(events).where(eq(events.name, "Diwali Rooftop Social")).get()!;
    db.$client.close();
    await message.getByRole("link", { name: "Edit Diwali Rooftop Social" }).click();
    await expect.poll(selected).toBe("Edit Event");
    await expect
      .poll(() => panel().getByLabel("Event name", { exact: true }).inputValue())
      .toBe("Diwali Rooftop Social");
    await expect.poll(picked).toContain("Diwali Rooftop Social");
    expect(new URL(page.url()).searchParams.get("event")).toBe(String(saved.id));
  });

  it("fits the participants table in the window with every column, and says Refunded once", async () => {
    await page.goto(`/admin?tab=user-details&event=${ids.harbour}`);
    const rows = panel().locator("tbody tr");
    await expect.poll(() => rows.count()).toBe(4);
    const wrap = panel().getByRole("region", { name: "Participants" });
    const fit = () =>
      wrap.evaluate((el) => ({
        overflow: el.scrollWidth - el.clientWidth,
        page: document.documentElement.scrollWidth - window.innerWidth,
      }));
    await expect.poll(fit).toEqual({ overflow: 0, page: 0 });
    // Every column heading lies inside the visible table.
    const region = (await wrap.boundingBox())!;
    for (const header of await panel().getByRole("columnheader").all()) {
      const box = (await header.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(region.x + region.width + 0.5);
    }
    const vikram = rows.filter({ hasText: "Vikram Shah" });
    // Times on the venue's clock, the date over the time.
    expect(await vikram.textContent()).toContain("2026-11-20 07:06 PM AEDT");
    await expectAccessible(page, "User Details");

    await panel().getByLabel("Select Mohammed Abdul Rahman", { exact: true }).check();
    await panel().getByRole("button", { name: "Refund", exact: true }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Refund", exact: true }).click();
    const mohammed = rows.filter({ hasText: "Mohammed Abdul Rahman" });
    await expect.poll(() => mohammed.locator(".admin-badge").textContent()).toBe("Refunded");
    expect((await mohammed.textContent())?.match(/Refunded/g)).toHaveLength(1);
    await expect.poll(fit).toEqual({ overflow: 0, page: 0 });
    await expectAccessible(page, "User Details after a refund");
  });

  it("downloads the CSV named after the event and its date, times on the venue's clock", async () => {
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      panel().getByRole("button", { name: "Export CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`harbour-lights-mixer-${harbourNight.date}-participants.csv`);
    const lines = readFileSync((await download.path())!, "utf8").split("\n");
    expect(lines[0]).toBe(
      "name,email,phone,gender,age,status,amount,discount,code,payment_intent_id,invoice_number,booked_at (Australia/Sydney),checked_in_at (Australia/Sydney)",
    );
    const checkedIn = utcToWallClock(harbourNight.at - 5 * 60_000, ZONE);
    expect(lines[1]).toMatch(/^Priyanka Venkataraman,.*,2026-11-20 19:05,$/);
    expect(lines[2]).toMatch(new RegExp(`^Vikram Shah,.*,2026-11-20 19:06,${checkedIn.date} 18:55$`));
    expect(lines[4]).toMatch(/^Mohammed Abdul Rahman,.*,refunded,45\.00,0\.00,,.*,2026-11-20 19:08,$/);
  });

  it("says nothing extra in Start Event's dialog on the event's own day", async () => {
    // A laptop at the venue on the morning of the event; the server is not asked. Its own context:
    // Playwright's clock swaps Date for a class whose subclasses (TZDate) come back as plain Dates,
    // read in the browser's zone, so this browser is put in the venue's.
    const { context: venue, pageErrors: venueErrors } = await newContext(browser, server.url, {
      ...desktop,
      isMobile: false,
      hasTouch: false,
      deviceScaleFactor: 1,
      timezoneId: ZONE,
    });
    await venue.clock.setFixedTime(wallClockToUtc({ date: harbourNight.date, hour: 9, minute: 0 }, ZONE));
    await venue.addCookies(await context.cookies());
    const morning = await venue.newPage();
    await morning.goto(`/admin?tab=edit-event&event=${ids.harbour}`);
    const start = morning.getByRole("tabpanel").getByRole("button", { name: "Start Event" });
    await expect.poll(() => start.isEnabled()).toBe(true);
    await start.click();
    const dialog = morning.getByRole("dialog");
    await expect.poll(() => dialog.textContent()).toContain("Texts 3 participants");
    expect(await dialog.textContent()).not.toContain("planned for");
    await dialog.getByRole("button", { name: "Go back" }).click();
    expect(venueErrors).toEqual([]);
    await venue.close();
  });
});
