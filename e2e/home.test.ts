import { eq } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../db/client.ts";
import { events } from "../db/schema.ts";
import { insertEvent, insertPaidBookings } from "../test/fixtures.ts";
import { type AppServer, launchBrowser, newContext, noBrowser, startAppServer } from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks.ts";

describe.skipIf(noBrowser)("home page on a phone", () => {
  let server: AppServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startAppServer({ SEED_DEMO: "0" });
    // The running server and this test share the SQLite file (WAL lets both use it).
    const db = openDatabase(`${server.dataDir}/app.db`);
    const uploads = `${server.dataDir}/uploads`;
    const low = await insertEvent(db, uploads, {
      name: "Low Seats Night",
      startsAt: Date.UTC(2031, 2, 7, 19, 30),
      totalSeats: 10,
    });
    insertPaidBookings(db, low.id, 6);
    const full = await insertEvent(db, uploads, {
      name: "Full House",
      startsAt: Date.UTC(2031, 2, 8, 9, 5),
      totalSeats: 4,
    });
    insertPaidBookings(db, full.id, 4);
    const started = await insertEvent(db, uploads, { name: "Already Going", startsAt: Date.UTC(2031, 2, 9, 0, 0) });
    db.update(events).set({ status: "started" }).where(eq(events.id, started.id)).run();
    const ended = await insertEvent(db, uploads, { name: "Long Gone", startsAt: Date.UTC(2031, 2, 10, 0, 0) });
    db.update(events).set({ status: "ended" }).where(eq(events.id, ended.id)).run();
    await insertEvent(db, uploads, { name: "Plenty Of Room", startsAt: Date.UTC(2031, 2, 11, 12, 0), totalSeats: 50 });
    await insertEvent(db, uploads, {
      name: "Perth Evening",
      startsAt: Date.UTC(2031, 2, 12, 11, 0),
      timeZone: "Australia/Perth",
    });
    // Its time has come but nobody pressed Start: still listed, no longer on sale.
    await insertEvent(db, uploads, { name: "Doors Open Now", startsAt: Date.now() - 10 * 60_000 });
    // Nobody pressed End either: 20 hours after a 2-hour night it leaves the home page by itself.
    await insertEvent(db, uploads, { name: "Forgotten Night", startsAt: Date.now() - 20 * 3_600_000 });
    db.$client.close();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("shows each card's date, seat label and booking state, and books from a card", async () => {
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    await page.goto("/");
    await expect.poll(() => page.getByRole("heading", { name: "Upcoming Events" }).isVisible()).toBe(true);
    await page.locator(".event-card:not(.skeleton)").first().waitFor();

    const card = (name: string) => page.locator("article.event-card", { hasText: name });

    // The venue's clock with its zone first, the UTC form beneath.
    const when = (name: string, part: "local" | "utc") => card(name).locator(`.event-${part}-time`).textContent();
    await expect.poll(() => when("Low Seats Night", "local")).toBe("2031-03-08 06:30 AM AEDT");
    await expect.poll(() => when("Low Seats Night", "utc")).toBe("2031-03-07 07:30 PM UTC");
    await expect.poll(() => when("Full House", "utc")).toBe("2031-03-08 09:05 AM UTC");
    await expect.poll(() => when("Perth Evening", "local")).toBe("2031-03-12 07:00 PM AWST");
    await expect.poll(() => when("Perth Evening", "utc")).toBe("2031-03-12 11:00 AM UTC");
    await expect.poll(() => card("Low Seats Night").getByText("Only 40% seats left!").isVisible()).toBe(true);
    await expect
      .poll(() => card("Low Seats Night").getByRole("button", { name: "Book Tickets" }).isEnabled())
      .toBe(true);

    await expect.poll(() => card("Full House").getByText("Sold Out").isVisible()).toBe(true);
    await expect.poll(() => card("Full House").getByRole("button", { name: "Book Tickets" }).isDisabled()).toBe(true);

    await expect.poll(() => card("Already Going").getByRole("heading").textContent()).toContain("started");
    await expect
      .poll(() => card("Already Going").getByRole("button", { name: "Book Tickets" }).isDisabled())
      .toBe(true);

    await expect.poll(() => card("Plenty Of Room").locator(".seats-label").count()).toBe(0);
    await expect.poll(() => card("Long Gone").count()).toBe(0);

    await expect.poll(() => card("Doors Open Now").getByText("Booking closed").isVisible()).toBe(true);
    await expect
      .poll(() => card("Doors Open Now").getByRole("button", { name: "Book Tickets" }).isDisabled())
      .toBe(true);
    await expect.poll(() => card("Forgotten Night").count()).toBe(0);

    await expect
      .poll(() => page.getByRole("heading", { name: "Speed date to find your next Date!" }).isVisible())
      .toBe(true);
    await expect.poll(() => page.locator("footer").textContent()).toContain("2024");
    await expect.poll(() => page.locator("footer").textContent()).toContain("rights reserved");

    await expectNoSidewaysScroll(page);
    await expectAccessible(page, "the home page");

    await card("Low Seats Night").getByRole("button", { name: "Book Tickets" }).click();
    await page.waitForURL("**/otp-verification");
    expect(await page.evaluate(() => (history.state?.usr?.event as { event_name?: string })?.event_name)).toBe(
      "Low Seats Night",
    );
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("shows the router fallback for an unknown route", async () => {
    const { context } = await newContext(browser, server.url);
    const page = await context.newPage();
    await page.goto("/no-such-page");
    await page.getByRole("heading", { name: "Unexpected Application Error!" }).waitFor();
    await expect.poll(() => page.getByText("404 Not Found").isVisible()).toBe(true);
    await expectAccessible(page, "the router fallback");
    await context.close();
  });
});
