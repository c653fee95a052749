import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { utcToWallClock } from "../common/time-zone.ts";
import { openDatabase } from "../db/client.ts";
import { bookings, events, feedback, refundClaims } from "../db/schema.ts";
import { insertEvent, insertHeldBooking, insertPaidBookings } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, desktop, newContext, noBrowser, signInAsOrganiser } from "./harness.ts";
import { expectAccessible } from "./page-checks.ts";
import { openTab } from "./steps.ts";

// The organiser's desk (docs/decisions/014-organiser-desk.md) at desktop size: the Overview, a cancel through its dialog, an
// address edit, per-row refund results and the CSV download, each screen checked with axe-core.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
// Whole hours: the edit form offers quarter hours only, as the API accepts.
const inDays = (n: number) => Math.floor(Date.now() / HOUR) * HOUR + n * DAY;

const test = browserSuite();

describe.skipIf(noBrowser)("the organiser's desk on a desktop", () => {
  let server: AppServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  const alerts: string[] = [];
  const ids: Record<string, number> = {};
  const phones: Record<string, string> = {};

  const withDb = <T>(use: (db: ReturnType<typeof openDatabase>) => T): T => {
    const db = openDatabase(`${server.dataDir}/app.db`);
    try {
      return use(db);
    } finally {
      db.$client.close();
    }
  };

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    const db = openDatabase(`${server.dataDir}/app.db`);
    const uploads = `${server.dataDir}/uploads`;
    /** Paid bookings the local provider can refund (its payments are `pi_local_…`). */
    const paid = (eventId: number, name: string, gender: "male" | "female") => {
      const [p] = insertPaidBookings(db, eventId, 1, { name, gender });
      db.update(bookings)
        .set({ paymentIntentId: `pi_local_desk_${p!.bookingId}` })
        .where(eq(bookings.id, p!.bookingId))
        .run();
      phones[name] = p!.phone;
      return p!;
    };

    const harbour = await insertEvent(db, uploads, { name: "Harbour Mixer", startsAt: inDays(3) });
    paid(harbour.id, "Asha Rao", "female");
    paid(harbour.id, "Vikram Shah", "male");
    paid(harbour.id, "=Formula Fan", "male");
    insertHeldBooking(db, harbour.id, { name: "Still Paying" });

    const later = await insertEvent(db, uploads, { name: "Later Soiree", startsAt: inDays(20) });
    const ball = await insertEvent(db, uploads, {
      name: "Winter Ball",
      startsAt: inDays(-10),
      status: "ended",
      // Its results went out the next day: the Overview shows the matches only once released.
      resultsReleasedAt: inDays(-9),
    });
    const meera = paid(ball.id, "Meera Iyer", "female");
    const dev = paid(ball.id, "Dev Kapoor", "male");
    // Both came and rated each other: "Gave feedback" counts guests who came and rated everyone they met.
    for (const p of [meera, dev]) {
      db.update(bookings).set({ checkedInAt: ball.startsAt }).where(eq(bookings.id, p.bookingId)).run();
    }
    for (const [from, to] of [
      [meera.userId, dev.userId],
      [dev.userId, meera.userId],
    ]) {
      db.insert(feedback)
        .values({ fromUserId: from!, toUserId: to!, eventId: ball.id, value: "like", clientTs: 1, updatedAt: 1 })
        .run();
    }

    const rainy = await insertEvent(db, uploads, { name: "Rainy Night", startsAt: inDays(5) });
    paid(rainy.id, "Kabir Singh", "male");
    paid(rainy.id, "Priya Nair", "female");

    const typo = await insertEvent(db, uploads, {
      name: "Typo Night",
      address: "1 Gorge St, Sydney",
      startsAt: inDays(6),
    });

    const stormy = await insertEvent(db, uploads, { name: "Stormy Night", startsAt: inDays(7) });
    paid(stormy.id, "Leela Das", "female");
    const [stuck] = insertPaidBookings(db, stormy.id, 1, { name: "Omar Sheikh", gender: "male" });
    db.update(bookings).set({ paymentIntentId: "pi_unknown_omar" }).where(eq(bookings.id, stuck!.bookingId)).run();

    const refundNight = await insertEvent(db, uploads, { name: "Refund Night", startsAt: inDays(8) });
    paid(refundNight.id, "Zara Khan", "female");
    const [broken] = insertPaidBookings(db, refundNight.id, 1, { name: "Rohan Mehta", gender: "male" });
    // A payment the provider does not know: its refund fails, as a real one sometimes does.
    db.update(bookings).set({ paymentIntentId: "pi_unknown_rohan" }).where(eq(bookings.id, broken!.bookingId)).run();

    Object.assign(ids, {
      harbour: harbour.id,
      later: later.id,
      ball: ball.id,
      rainy: rainy.id,
      typo: typo.id,
      stormy: stormy.id,
      stuck: stuck!.bookingId,
      refundNight: refundNight.id,
    });
    db.$client.close();

    // newContext's parameter is typed after the phone profile, so the desktop one spells out its defaults.
    ({ context, pageErrors } = await newContext(browser, server.url, {
      ...desktop,
      isMobile: false,
      hasTouch: false,
      deviceScaleFactor: 1,
    }));
    page = await context.newPage();
    page.on("dialog", (d) => {
      alerts.push(d.message());
      void d.accept();
    });
    await signInAsOrganiser(page);
  });

  afterAll(async () => {
    expect(pageErrors).toEqual([]);
    await context?.close();
  });

  const panel = () => page.getByRole("tabpanel");
  const tab = (name: string) => page.getByRole("tab", { name, exact: true });
  const pickEvent = async (name: string) => {
    const picker = panel().getByLabel("Event", { exact: true });
    await picker.locator("option", { hasText: name }).first().waitFor({ state: "attached" });
    const value = await picker.locator("option", { hasText: name }).first().getAttribute("value");
    await picker.selectOption(value!);
  };
  const status = () => panel().getByRole("status").filter({ hasNotText: "Loading" });
  const overviewRow = (name: string) => panel().getByRole("row").filter({ hasText: name });

  it("shows the Overview, the first tab: one row per event, soonest first, ended below, with every number", async () => {
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
    // The panel opens on it; from another tab, Home comes back to it with the keyboard.
    await expect.poll(() => tab("Overview").getAttribute("aria-selected")).toBe("true");
    await tab("Add Event").click();
    await expect.poll(() => tab("Add Event").getAttribute("aria-selected")).toBe("true");
    await tab("Add Event").focus();
    await page.keyboard.press("Home");
    await expect.poll(() => tab("Overview").getAttribute("aria-selected")).toBe("true");
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Overview");
    const table = panel().getByRole("table");
    await expect
      .poll(() => table.getByRole("columnheader").allTextContents())
      .toEqual([
        "Event",
        "Starts",
        "Status",
        "Seats paid",
        "Holds",
        "Waitlist",
        "Checked in",
        "Revenue",
        "Matches",
        "Gave feedback",
        "Open",
      ]);
    await expect
      .poll(() => table.locator("tbody th").allTextContents())
      .toEqual([
        "Harbour Mixer",
        "Rainy Night",
        "Typo Night",
        "Stormy Night",
        "Refund Night",
        "Later Soiree",
        "Winter Ball",
      ]);

    const cells = async (name: string) => overviewRow(name).getByRole("cell").allTextContents();
    await expect.poll(async () => (await cells("Harbour Mixer")).join("|")).toContain("Upcoming|3/10|1|");
    const harbour = await cells("Harbour Mixer");
    expect(harbour.slice(5)).toEqual(["0", "$135.00", "—", "—", "ParticipantsEdit"]);
    await expect.poll(async () => (await cells("Winter Ball")).slice(1, 2)).toEqual(["Ended"]);
    await expect
      .poll(async () => (await cells("Winter Ball")).slice(5))
      .toEqual(["2", "$90.00", "1", "2", "ParticipantsEdit"]);

    await expectAccessible(page, "the Overview");

    // The tabs answer the arrow keys.
    await tab("Overview").focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => tab("Add Event").getAttribute("aria-selected")).toBe("true");
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Add Event");
  });

  it("cancels an event only after its dialog says what will happen; Escape changes nothing", async () => {
    await openTab(page, "Edit Event");
    await pickEvent("Rainy Night");
    const cancel = panel().getByRole("button", { name: "Cancel event" });
    await expect.poll(() => cancel.isEnabled()).toBe(true);

    await cancel.click();
    const dialog = page.getByRole("dialog");
    await dialog.waitFor();
    await expect.poll(() => dialog.textContent()).toContain("Refunds 2 payments, $90.00");
    expect(await dialog.textContent()).toContain("Texts 2 participants");
    // Focus is inside the dialog, on the safe choice.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Go back");
    await expectAccessible(page, "the cancel dialog");
    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.count()).toBe(0);
    expect(withDb((db) => db.select().from(events).where(eq(events.id, ids.rainy!)).get()?.status)).toBe("upcoming");

    await cancel.click();
    await dialog.getByRole("button", { name: "Cancel event" }).click();
    await expect.poll(() => status().textContent()).toContain("Event cancelled.");
    expect(await status().textContent()).toContain("Refunded 2 of 2");
    await expect.poll(() => panel().getByRole("button", { name: "Update Event" }).isDisabled()).toBe(true);

    const rows = withDb((db) => db.select().from(bookings).where(eq(bookings.eventId, ids.rainy!)).all());
    expect(rows.map((b) => b.status)).toEqual(["refunded", "refunded"]);
    const outbox = (await (await fetch(`${server.url}/api/dev/outbox`)).json()) as { to: string; body: string }[];
    for (const name of ["Kabir Singh", "Priya Nair"]) {
      expect(outbox.filter((m) => m.to === phones[name] && m.body.includes("cancelled"))).toHaveLength(1);
    }
    // The home page no longer offers it.
    const home = await context.newPage();
    await home.goto("/");
    await home.getByText("Harbour Mixer").first().waitFor();
    expect(await home.getByText("Rainy Night").count()).toBe(0);
    await home.close();
  });

  it("offers Finish refunds on a cancelled event whose refund failed, and it refunds the rest", async () => {
    await openTab(page, "Edit Event");
    await pickEvent("Stormy Night");
    await panel().getByRole("button", { name: "Cancel event" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("button", { name: "Cancel event" }).click();
    await panel().getByText("Event cancelled, but some refunds failed.").waitFor();
    await panel().getByText("Refunded 1 of 2. Press Finish refunds to try the rest again.").waitFor();
    await panel().getByText("1 payment still to refund.", { exact: false }).waitFor();

    // The provider knows the payment again (say, a network blip has passed): the retry refunds it.
    // The failed attempt left its refund claimed (decision 002), so the claim names the payment too.
    withDb((db) => {
      const paymentIntentId = `pi_local_desk_${ids.stuck}`;
      db.update(bookings).set({ paymentIntentId }).where(eq(bookings.id, ids.stuck!)).run();
      db.update(refundClaims).set({ paymentIntentId }).where(eq(refundClaims.bookingId, ids.stuck!)).run();
    });
    const finish = panel().getByRole("button", { name: "Finish refunds" });
    await expect.poll(() => finish.isEnabled()).toBe(true);
    await finish.click();
    await expect.poll(() => dialog.textContent()).toContain("Finish the refunds of Stormy Night?");
    await expectAccessible(page, "the finish refunds dialog");
    await dialog.getByRole("button", { name: "Finish refunds" }).click();
    await expect.poll(() => status().textContent()).toContain("Refunded 1 of 1");
    await expect.poll(() => panel().getByRole("button", { name: "Cancel event" }).isDisabled()).toBe(true);
    expect(await panel().getByRole("button", { name: "Finish refunds" }).count()).toBe(0);
    const statuses = withDb((db) => db.select().from(bookings).where(eq(bookings.eventId, ids.stormy!)).all());
    expect(statuses.map((b) => b.status)).toEqual(["refunded", "refunded"]);
  });

  it("fixes a typo in an event's address from the Edit tab", async () => {
    await openTab(page, "Edit Event");
    await pickEvent("Typo Night");
    const address = panel().getByLabel("Address", { exact: true });
    await expect.poll(() => address.inputValue()).toBe("1 Gorge St, Sydney");
    expect(await panel().getByLabel("Ticket price (AUD)", { exact: true }).inputValue()).toBe("45.00");
    await address.fill("1 George St, Sydney NSW 2000");
    await panel().getByRole("button", { name: "Update Event" }).click();
    await expect.poll(() => status().textContent()).toBe("Event updated successfully!");
    const detail = (await (await fetch(`${server.url}/api/get-event/${ids.typo}`)).json()) as Record<string, unknown>;
    expect(detail.event_address).toBe("1 George St, Sydney NSW 2000");
    await expectAccessible(page, "the Edit tab");
  });

  it("shows each refund's result on its row and says Refunded N of M when one failed", async () => {
    await openTab(page, "User Details");
    await pickEvent("Refund Night");
    const rows = panel().locator("tbody tr");
    await expect.poll(() => rows.count()).toBe(2);
    await panel().getByLabel("Select Zara Khan", { exact: true }).check();
    await panel().getByLabel("Select Rohan Mehta", { exact: true }).check();
    await panel().getByRole("button", { name: "Refund", exact: true }).click();
    const dialog = page.getByRole("dialog");
    await expect.poll(() => dialog.textContent()).toContain("Refunds 2 payments, $90.00");
    alerts.length = 0;
    await dialog.getByRole("button", { name: "Refund", exact: true }).click();
    await expect.poll(() => alerts.length, { timeout: 10_000 }).toBe(3);
    expect(alerts).toEqual(["Refund Failed", "Refund initiated for 2 participant(s)", "Refunded 1 of 2"]);
    await expect.poll(() => rows.filter({ hasText: "Zara Khan" }).textContent()).toContain("Refunded");
    await expect.poll(() => rows.filter({ hasText: "Rohan Mehta" }).textContent()).toContain("Refund failed");
    expect(await rows.filter({ hasText: "Rohan Mehta" }).textContent()).toContain("Paid");
    // Zara's row says Refunded once (its status), not again beside it.
    await expect
      .poll(async () => (await rows.filter({ hasText: "Zara Khan" }).textContent())?.match(/Refunded/g))
      .toHaveLength(1);
  });

  it("lists email, national phone, payment and times, and downloads the participants as CSV", async () => {
    await openTab(page, "User Details");
    await pickEvent("Harbour Mixer");
    const rows = panel().locator("tbody tr");
    await expect.poll(() => rows.count()).toBe(3);
    expect(await panel().getByRole("columnheader").allTextContents()).toEqual([
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
    const asha = phones["Asha Rao"]!;
    const national = `0${asha.slice(3, 6)} ${asha.slice(6, 9)} ${asha.slice(9)}`;
    const ashaRow = rows.filter({ hasText: "Asha Rao" });
    expect(await ashaRow.textContent()).toContain(national);
    expect(await ashaRow.textContent()).toContain("pi_local_desk_");
    await expectAccessible(page, "User Details");

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      panel().getByRole("button", { name: "Export CSV" }).click(),
    ]);
    // Named after the event and its date at the venue; the times on the venue's clock, its zone in the header.
    const harbour = withDb((db) => db.select().from(events).where(eq(events.id, ids.harbour!)).get()!);
    expect(download.suggestedFilename()).toBe(
      `harbour-mixer-${utcToWallClock(harbour.startsAt, "Australia/Sydney").date}-participants.csv`,
    );
    const csv = readFileSync((await download.path())!, "utf8").split("\n");
    expect(csv[0]).toBe(
      "name,email,phone,gender,age,status,amount,discount,code,payment_intent_id,invoice_number,booked_at (Australia/Sydney),checked_in_at (Australia/Sydney)",
    );
    expect(csv.slice(1, -1)).toHaveLength(3);
    const ashaPaidAt = withDb((db) => db.select().from(bookings).where(eq(bookings.phone, asha)).get()!.paidAt!);
    const booked = utcToWallClock(ashaPaidAt, "Australia/Sydney");
    const bookedAt = `${booked.date} ${String(booked.hour).padStart(2, "0")}:${String(booked.minute).padStart(2, "0")}`;
    expect(csv[1]).toMatch(
      new RegExp(`^Asha Rao,[^,]+,${national},female,\\d*,paid,45.00,0.00,,pi_local_desk_\\d+,,${bookedAt},$`),
    );
    expect(csv[3]).toMatch(/^'=Formula Fan,/);
  });
});
