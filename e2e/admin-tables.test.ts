import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../db/client.ts";
import { promoCodes, users, waitlistEntries } from "../db/schema.ts";
import { insertEvent, insertPaidBookings } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, newContext, noBrowser, signInAsOrganiser } from "./harness.ts";

// Issue 46, item 10: at 1366 × 768, the organiser's usual laptop, every admin table fits the window
// with realistic data (long names, several events): nothing scrolls sideways, and the Overview's last
// column (Participants, Edit) is on screen. Fixed by wrapping and compact columns, not by hiding data.

const DAY = 86_400_000;
const laptop = { viewport: { width: 1366, height: 768 } };
const LONG_EVENT_NAMES = [
  "Thursday Evening Professionals Speed Dating at The Grand Harbourside Hotel Rooftop Bar",
  "Sunday Afternoon Indian & South Asian Singles Mixer (Ages 28–38) in Parramatta",
  "Friday Night Women Meet Men Over Cocktails and Canapés at the Rocks",
  "Saturday Long Lunch One Group Get-Together for Book Lovers and Coffee Snobs",
];

const test = browserSuite();

describe.skipIf(noBrowser)("the admin tables on a 1366 px laptop", () => {
  let server: AppServer;
  let browser: Browser;
  let firstEvent: number;

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    const db = openDatabase(`${server.dataDir}/app.db`);
    const uploads = `${server.dataDir}/uploads`;
    for (const [i, name] of LONG_EVENT_NAMES.entries()) {
      const event = await insertEvent(db, uploads, {
        name,
        address: "Level 42, The Grand Harbourside Hotel, 123 Circular Quay West, The Rocks NSW 2000",
        startsAt: Date.now() + (i + 3) * DAY,
        totalSeats: 40,
        seatsMale: 20,
        seatsFemale: 20,
      });
      if (i === 0) firstEvent = event.id;
      const guests = insertPaidBookings(db, event.id, 6, { name: "Venkata Lakshmi Narasimha Subrahmanya Sastry" });
      for (const [k, guest] of guests.entries())
        db.update(users)
          .set({ email: `venkata.lakshmi.narasimha.subrahmanya.sastry.${k}@very-long-company-domain.com.au` })
          .where(eq(users.id, guest.userId))
          .run();
      db.insert(waitlistEntries)
        .values({
          eventId: event.id,
          phone: `+6141100000${i}`,
          gender: "female",
          name: "Anantha Padmanabha Krishnamurthy",
        })
        .run();
      db.insert(promoCodes)
        .values({ eventId: event.id, code: `EARLYBIRDFRIENDSANDFAMILY${i}`, percentOff: 15, maxUses: 40 })
        .run();
    }
    db.$client.close();
  }, 120_000);

  /** Nothing on the page is wider than the window, and every table and its last column are on screen. */
  async function expectFits(page: Page, where: string) {
    const tables = page.locator("main table");
    await expect.poll(() => tables.count(), { message: `a table on ${where}` }).toBeGreaterThan(0);
    const overflow = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      const name = (el: Element) => `${el.tagName.toLowerCase()}.${el.className}: ${el.textContent?.slice(0, 40)}`;
      const shown = [...document.querySelectorAll("main *")].filter((el) => !el.closest(".sr-only"));
      // Past the window's right edge (cut off, or only reachable by scrolling sideways).
      const past = shown.filter((el) => el.getBoundingClientRect().right > width + 0.5);
      // A box that scrolls sideways: what it holds is wider than it is.
      const scrolls = shown.filter(
        (el) => ["auto", "scroll"].includes(getComputedStyle(el).overflowX) && el.scrollWidth > el.clientWidth + 1,
      );
      return {
        page: document.documentElement.scrollWidth - width,
        wide: [...past, ...scrolls].slice(0, 5).map(name),
      };
    });
    expect(overflow, where).toEqual({ page: 0, wide: [] });
  }

  it("fits the Overview, with each row's Participants link inside the window", async () => {
    const { context, pageErrors } = await newContext(browser, server.url, laptop);
    const page = await context.newPage();
    await signInAsOrganiser(page);
    const rows = page.locator(".admin-overview-table tbody tr");
    await expect.poll(() => rows.count()).toBe(LONG_EVENT_NAMES.length);
    // The numbers have loaded: the widest state of the table.
    await expect.poll(() => page.locator(".admin-overview-table").textContent()).not.toContain("…");
    await expectFits(page, "the Overview");
    for (const name of LONG_EVENT_NAMES) {
      const link = page.getByRole("link", { name: `Participants of ${name}` });
      const box = (await link.boundingBox())!;
      expect(box.x + box.width, `Participants of ${name}`).toBeLessThanOrEqual(1366);
    }
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("fits User Details (participants and waitlist) and Edit Event (promo codes)", async () => {
    const { context, pageErrors } = await newContext(browser, server.url, laptop);
    const page = await context.newPage();
    await signInAsOrganiser(page, `/admin?tab=user-details&event=${firstEvent}`);
    await page.getByText("venkata.lakshmi.narasimha.subrahmanya.sastry.0", { exact: false }).first().waitFor();
    await page.getByText("Anantha Padmanabha Krishnamurthy").first().waitFor();
    await expectFits(page, "User Details");

    await page.goto(`/admin?tab=edit-event&event=${firstEvent}`);
    await page.getByText("EARLYBIRDFRIENDSANDFAMILY0").waitFor();
    await expectFits(page, "Edit Event");
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
