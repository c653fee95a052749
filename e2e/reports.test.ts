import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import type { Locator } from "playwright-core";
import { describe, expect } from "vitest";
import { wallClockToUtc } from "../common/venue-time-input.ts";
import { openDatabase } from "../db/client.ts";
import { bookings, refunds } from "../db/schema.ts";
import { insertEvent, insertPaidBookings } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { noBrowser } from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks.ts";
import { openTab } from "./steps.ts";

// The Reports tab at 1366 px (issue 51): a past period seeded with known money (three paid seats in
// August 2025 at $44.00, $22.00 of one refunded in September, on Sydney's clock, the business's), the
// period picked with the keyboard, the Money chart drawn, the table under it with the same dollars,
// and its Download CSV holding them; axe-core clean; no guest's name anywhere on the tab.

const test = browserSuite();
const sydney = (date: string) => wallClockToUtc({ date, hour: 12, minute: 0 }, "Australia/Sydney");
const GUESTS = ["Meera Iyer", "Tara Singh", "Kabir Rao"];

/** The cells of a table's body, row by row. */
const cells = (table: Locator) =>
  table
    .locator("tbody tr")
    .evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll("th, td")].map((c) => c.textContent?.trim())));

describe.skipIf(noBrowser)("the Reports tab", () => {
  test("draws the money of a period picked with the keyboard, with the same numbers in its table and its CSV", async ({
    server,
    organiser,
  }) => {
    const db = openDatabase(`${server.dataDir}/app.db`);
    try {
      const night = await insertEvent(db, `${server.dataDir}/uploads`, {
        name: "Winter Reports Night",
        startsAt: sydney("2025-08-20"),
        priceCents: 4400,
      });
      const paid = GUESTS.map((name, i) => {
        const [p] = insertPaidBookings(db, night.id, 1, { name, paidAt: sydney(`2025-08-1${i}`) });
        db.update(bookings).set({ amountCents: 4400 }).where(eq(bookings.id, p!.bookingId)).run();
        return db.select().from(bookings).where(eq(bookings.id, p!.bookingId)).get()!;
      });
      db.insert(refunds)
        .values({
          bookingId: paid[0]!.id,
          paymentIntentId: paid[0]!.paymentIntentId!,
          refundId: "re_e2e_reports",
          amountCents: 2200,
          reason: "admin",
          createdAt: sydney("2025-09-05"),
        })
        .run();
    } finally {
      db.$client.close();
    }

    const { page, pageErrors } = organiser;
    await openTab(page, "Reports");
    const thisMonth = page.getByRole("radio", { name: "This month" });
    await thisMonth.waitFor();
    expect(await thisMonth.isChecked()).toBe(true);

    // The period with the keyboard: the arrow keys move along the radios to Any two months.
    await thisMonth.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
    await expect.poll(() => page.getByRole("radio", { name: "Any two months" }).isChecked()).toBe(true);
    await page.getByLabel("First month").fill("2025-08");
    await page.getByLabel("Last month").fill("2025-09");
    await page.getByText("Showing August 2025 to September 2025.").waitFor();

    const money = page.getByRole("region", { name: "Money", exact: true });
    await money.locator(".report-chart-plot canvas").first().waitFor();
    const chart = money.getByRole("img", { name: "Money: a chart of the numbers in the table", exact: false });
    expect(await chart.getAttribute("aria-label")).toContain("Money, August 2025 to September 2025");
    const table = money.getByRole("table", { name: "Money, August 2025 to September 2025" });
    await expect
      .poll(() => cells(table))
      .toEqual([
        ["August 2025", "3", "$132.00", "$0.00", "$132.00", "$0.00"],
        ["September 2025", "0", "$0.00", "$22.00", "-$22.00", "$0.00"],
      ]);
    // The legend names each line, drawn solid, dashed and dotted.
    expect(
      await money.getByRole("list", { name: "Money: the chart's legend" }).getByRole("listitem").allTextContents(),
    ).toEqual(["Gross", "Refunds", "Net"]);

    // Download CSV: the same rows, in dollars; September's net a negative number a spreadsheet sums.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      money.getByRole("link", { name: "Download CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("money-2025-08-to-2025-09.csv");
    expect(readFileSync(await download.path(), "utf8")).toBe(
      "month,bookings,gross,refunds,net,gst\r\n2025-08,3,132.00,0.00,132.00,0.00\r\n2025-09,0,0.00,22.00,-22.00,0.00\r\n",
    );

    // The other reports over the same months: the night's seats, and the GST summary's line.
    const seats = page.getByRole("region", { name: "Seats", exact: true });
    await seats.getByRole("rowheader", { name: "Winter Reports Night" }).waitFor();
    await page
      .getByRole("region", { name: "GST summary for the BAS" })
      .getByText("A summary for your accountant: it is not a BAS", { exact: false })
      .waitFor();
    // Counts and money only: no guest's name on the tab.
    for (const name of GUESTS) expect(await page.getByText(name).count()).toBe(0);

    await expectAccessible(page, "the Reports tab");
    // At phone width the page does not scroll sideways: a wide table scrolls inside its box.
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSidewaysScroll(page);
    expect(pageErrors).toEqual([]);
  });
});
