import { eq } from "drizzle-orm";
import type { Browser } from "playwright-core";
import { describe, expect, it } from "vitest";
import { storeImage } from "../api/booking/images.ts";
import { openDatabase } from "../db/client.ts";
import { events } from "../db/schema.ts";
import { yearLike } from "../test/clock.ts";
import { insertEvent, insertPaidBookings, makeImage } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, newContext, noBrowser, phone } from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks.ts";

// Dates in a year laid out like 2031, always ahead of the clock (test/clock.ts).
const Y = yearLike(2031);

const test = browserSuite();

describe.skipIf(noBrowser)("home page on a phone", () => {
  let server: AppServer;
  let browser: Browser;

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    // The running server and this test share the SQLite file (WAL lets both use it).
    const db = openDatabase(`${server.dataDir}/app.db`);
    const uploads = `${server.dataDir}/uploads`;
    const low = await insertEvent(db, uploads, {
      name: "Low Seats Night",
      startsAt: Date.UTC(Y, 2, 7, 19, 30),
      totalSeats: 10,
    });
    insertPaidBookings(db, low.id, 6);
    const full = await insertEvent(db, uploads, {
      name: "Full House",
      startsAt: Date.UTC(Y, 2, 8, 9, 5),
      totalSeats: 4,
    });
    insertPaidBookings(db, full.id, 4);
    const started = await insertEvent(db, uploads, { name: "Already Going", startsAt: Date.UTC(Y, 2, 9, 0, 0) });
    db.update(events).set({ status: "started" }).where(eq(events.id, started.id)).run();
    const ended = await insertEvent(db, uploads, { name: "Long Gone", startsAt: Date.UTC(Y, 2, 10, 0, 0) });
    db.update(events).set({ status: "ended" }).where(eq(events.id, ended.id)).run();
    await insertEvent(db, uploads, { name: "Plenty Of Room", startsAt: Date.UTC(Y, 2, 11, 12, 0), totalSeats: 50 });
    // An organiser's phone photo, taken upright: three times as tall as it is wide.
    const portrait = await storeImage(uploads, await makeImage("jpeg", 600, 1800, { r: 60, g: 90, b: 180 }));
    const tall = await insertEvent(db, uploads, {
      name: "Portrait Picture Night",
      startsAt: Date.UTC(Y, 2, 13, 8, 0),
      totalSeats: 20,
      imageName: portrait.imageName,
    });
    insertPaidBookings(db, tall.id, 17);
    const balanced = await insertEvent(db, uploads, {
      name: "Balanced Low",
      startsAt: Date.UTC(Y, 2, 14, 8, 0),
      totalSeats: 10,
      seatsMale: 5,
      seatsFemale: 5,
    });
    insertPaidBookings(db, balanced.id, 2, { gender: "female" });
    insertPaidBookings(db, balanced.id, 4, { gender: "male" });
    await insertEvent(db, uploads, {
      name: "Perth Evening",
      startsAt: Date.UTC(Y, 2, 12, 11, 0),
      timeZone: "Australia/Perth",
    });
    // Its time has come but nobody pressed Start: still listed, no longer on sale.
    await insertEvent(db, uploads, { name: "Doors Open Now", startsAt: Date.now() - 10 * 60_000 });
    // Nobody pressed End either: 20 hours after a 2-hour night it leaves the home page by itself.
    await insertEvent(db, uploads, { name: "Forgotten Night", startsAt: Date.now() - 20 * 3_600_000 });
    db.$client.close();
  });

  it("shows each card's date, seat label and booking state, and books from a card", async () => {
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    await page.goto("/");
    await expect.poll(() => page.getByRole("heading", { name: "Upcoming Events" }).isVisible()).toBe(true);
    await page.locator(".event-card:not(.skeleton)").first().waitFor();

    const card = (name: string) => page.locator("article.event-card", { hasText: name });

    // The venue's clock with its zone first, starting with the venue's weekday; the UTC form beneath.
    const when = (name: string, part: "local" | "utc") => card(name).locator(`.event-${part}-time`).textContent();
    // 07:30 PM UTC on a Friday is Saturday morning in Sydney: the venue's day is the one named.
    await expect.poll(() => when("Low Seats Night", "local")).toBe(`Sat ${Y}-03-08 06:30 AM AEDT`);
    await expect.poll(() => when("Low Seats Night", "utc")).toBe(`${Y}-03-07 07:30 PM UTC`);
    await expect.poll(() => when("Full House", "utc")).toBe(`${Y}-03-08 09:05 AM UTC`);
    await expect.poll(() => when("Perth Evening", "local")).toBe(`Wed ${Y}-03-12 07:00 PM AWST`);
    await expect.poll(() => when("Perth Evening", "utc")).toBe(`${Y}-03-12 11:00 AM UTC`);
    await expect.poll(() => card("Low Seats Night").getByText("Only 40% seats left!").isVisible()).toBe(true);
    // An event with one pool of seats gives the count once few remain, as a balanced one does per gender.
    const seats = (name: string) => card(name).locator(".event-seats dd").allTextContents();
    await expect.poll(() => seats("Low Seats Night")).toEqual(["4 seats left"]);
    await expect.poll(() => seats("Portrait Picture Night")).toEqual(["3 seats left"]);
    await expect.poll(() => card("Portrait Picture Night").getByText("Only 15% seats left!").isVisible()).toBe(true);
    await expect.poll(() => seats("Balanced Low")).toEqual(["Women: 3 seats left", "Men: 1 seat left"]);
    await expect.poll(() => seats("Plenty Of Room")).toEqual([]);
    await expect.poll(() => seats("Full House")).toEqual([]);

    // A portrait picture is cropped to the cards' 8:5 frame: its card is no taller than a landscape one's.
    // (Pictures load lazily: bring it on screen, and wait until it has.)
    await card("Portrait Picture Night").scrollIntoViewIfNeeded();
    await expect
      .poll(() =>
        card("Portrait Picture Night")
          .locator("img")
          .evaluate((img: HTMLImageElement) => img.naturalHeight),
      )
      .toBeGreaterThan(0);
    const media = (await card("Portrait Picture Night").locator(".event-card-media").boundingBox())!;
    expect(Math.abs(media.height - (media.width * 5) / 8)).toBeLessThan(2);
    const tallCard = (await card("Portrait Picture Night").boundingBox())!;
    const plainCard = (await card("Plenty Of Room").boundingBox())!;
    expect(tallCard.height).toBeLessThan(plainCard.height + 80);
    expect(tallCard.height).toBeLessThan(700);
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
    await page.waitForURL("**/otp-verification?eventID=*");
    // The booking page holds the card's event as the screens read it (its fields by the code's names,
    // mapped once from get-event's reply: docs/decisions/044-one-name-per-field.md), in its store.
    await expect
      .poll(() => page.evaluate(() => JSON.parse(sessionStorage.getItem("saathi-booking") ?? "{}").state?.event?.name))
      .toBe("Low Seats Night");
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("paints the app's frame from the HTML, and the app draws over it once its code has run", async () => {
    // Without any code: the home page's heading, its list loading and its blurb; a page whose code
    // comes later, its header and the loading line.
    const still = await newContext(browser, server.url, { ...phone, javaScriptEnabled: false });
    const html = await still.context.newPage();
    await html.goto("/");
    await expect.poll(() => html.getByRole("heading", { level: 1, name: "Upcoming Events" }).isVisible()).toBe(true);
    await expect.poll(() => html.getByRole("status", { name: "Loading events" }).isVisible()).toBe(true);
    await html.goto("/tickets");
    await expect.poll(() => html.getByText("Loading…").isVisible()).toBe(true);
    await expect.poll(() => html.getByRole("link", { name: "My tickets" }).isVisible()).toBe(true);
    await still.context.close();

    // With the code: one header, one page, the list in place of its loading state.
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    await page.goto("/tickets");
    await expect
      .poll(() => page.getByText("No tickets are saved on this device yet", { exact: false }).isVisible())
      .toBe(true);
    expect(await page.locator(".site-header").count()).toBe(1);
    expect(await page.locator("main").count()).toBe(1);
    await page.goto("/");
    await expect.poll(() => page.getByRole("heading", { name: /Plenty Of Room/ }).isVisible()).toBe(true);
    expect(await page.locator(".site-header").count()).toBe(1);
    expect(await page.getByRole("status", { name: "Loading events" }).count()).toBe(0);
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
