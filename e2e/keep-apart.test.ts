import { eq } from "drizzle-orm";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../db/client.ts";
import { eventRounds } from "../db/rounds-schema.ts";
import { bookings, users } from "../db/schema.ts";
import { insertEvent, insertPaidBookings } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, callsOf, newContext, noBrowser, phone, signInAsOrganiser } from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks.ts";

// Nobody across the table twice (docs/decisions/030-nobody-across-the-table-twice.md), on the
// organiser's Rounds tab at 390 px: three women and three men come back a month after a night where
// two of the pairs met. A full rotation must seat those two again, and the tab says so; two rounds
// leave room to avoid them, and the note goes. Then the organiser marks two guests Keep apart, the
// plan is re-planned without them together, and Undo takes the mark off.

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const test = browserSuite();

describe.skipIf(noBrowser)("Keep apart and who met at an earlier night, on the Rounds tab", () => {
  let server: AppServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let pageErrors: string[];
  let eventId: number;
  const ids: Record<string, number> = {};

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    const db = openDatabase(`${server.dataDir}/app.db`);
    const uploads = `${server.dataDir}/uploads`;
    const guests = [
      ["Anika Rao", "female"],
      ["Priya Nair", "female"],
      ["Meera Iyer", "female"],
      ["Dev Kumar", "male"],
      ["Arjun Shah", "male"],
      ["Kabir Singh", "male"],
    ] as const;
    /** Books each guest (a new users row, the same verified number) and checks them in. */
    const book = (event: number, names: readonly (typeof guests)[number][], phones: Record<string, string>) => {
      const booked: Record<string, number> = {};
      for (const [i, [name, gender]] of names.entries()) {
        const [p] = insertPaidBookings(db, event, 1, { name, gender, paidAt: Date.now() - 2 * DAY });
        if (phones[name]) {
          db.update(users).set({ phone: phones[name] }).where(eq(users.id, p!.userId)).run();
          db.update(bookings).set({ phone: phones[name] }).where(eq(bookings.id, p!.bookingId)).run();
        } else phones[name] = p!.phone;
        db.update(bookings)
          .set({ checkedInAt: Date.now() - 60 * MINUTE + i })
          .where(eq(bookings.id, p!.bookingId))
          .run();
        booked[name] = p!.userId;
      }
      return booked;
    };

    // Last month: four of them came, and round 1 of 2 was played (Anika met Dev, Priya met Arjun).
    const phones: Record<string, string> = {};
    const lastMonth = await insertEvent(db, uploads, {
      name: "Last Month's Mixer",
      status: "ended",
      startsAt: Date.now() - 30 * DAY,
      startedAt: Date.now() - 30 * DAY,
      endedAt: Date.now() - 30 * DAY + 2 * 60 * MINUTE,
    });
    const was = book(lastMonth.id, [guests[0], guests[1], guests[3], guests[4]], phones);
    db.insert(eventRounds)
      .values({
        eventId: lastMonth.id,
        status: "finished",
        roundMinutes: 5,
        breakMinutes: 1,
        maxRounds: null,
        seated: "female",
        plan: [
          {
            round: 1,
            pairs: [
              { table: 1, femaleID: was["Anika Rao"]!, maleID: was["Dev Kumar"]! },
              { table: 2, femaleID: was["Priya Nair"]!, maleID: was["Arjun Shah"]! },
            ],
            sitOut: [],
          },
          {
            round: 2,
            pairs: [
              { table: 1, femaleID: was["Anika Rao"]!, maleID: was["Arjun Shah"]! },
              { table: 2, femaleID: was["Priya Nair"]!, maleID: was["Dev Kumar"]! },
            ],
            sitOut: [],
          },
        ],
        plannedFor: Object.values(was),
        plannedAt: Date.now() - 30 * DAY,
        current: 1,
        phase: null,
        phaseEndsAt: null,
        pausedRemainingMs: null,
        updatedAt: Date.now() - 30 * DAY,
      })
      .run();

    // Tonight: all six, under way.
    const tonight = await insertEvent(db, uploads, {
      name: "Repeat Night",
      status: "started",
      startsAt: Date.now() - 10 * MINUTE,
      startedAt: Date.now() - 10 * MINUTE,
    });
    eventId = tonight.id;
    Object.assign(ids, book(eventId, guests, phones));
    db.$client.close();

    ({ context, pageErrors } = await newContext(browser, server.url, phone));
    page = await context.newPage();
  });

  afterAll(async () => {
    await context?.close();
  });

  const note = () => page.getByText(/pairs? met at an earlier night/);
  /** Each table cell of the plan, as its text (seated name, mover's name, Met before). */
  const cells = () => page.locator(".rounds-plan tbody td:not(.rounds-sitout)").allTextContents();

  it("says how many pairs met at an earlier night when a full night must seat them again", async () => {
    await signInAsOrganiser(page, `/admin?tab=rounds&event=${eventId}`);
    await page.getByText("Present: 3 women, 3 men").waitFor();
    await page.getByRole("button", { name: "Plan rounds", exact: true }).click();
    await page.getByText("2 pairs met at an earlier night", { exact: false }).waitFor();
    expect(await page.getByText("Met before", { exact: true }).count()).toBe(2);
    const again = await page.locator(".rounds-plan td.rounds-again").allTextContents();
    expect(again.sort()).toEqual(["Anika RaoDev KumarMet before", "Priya NairArjun ShahMet before"]);
    await expectNoSidewaysScroll(page);
    await expectAccessible(page, "the Rounds tab with pairs who met before");
  });

  it("with two rounds there is room to avoid them, and the note goes", async () => {
    await page.getByLabel("Max rounds").fill("2");
    await page.getByRole("button", { name: "Re-plan rounds", exact: true }).click();
    await expect.poll(async () => (await page.locator(".rounds-plan tbody tr").count()) === 2).toBe(true);
    await expect.poll(() => note().count()).toBe(0);
    for (const cell of await cells()) {
      expect(cell).not.toBe("Anika RaoDev Kumar");
      expect(cell).not.toBe("Priya NairArjun Shah");
    }
  });

  it("marks two guests Keep apart: the plan is re-planned without them together, and Undo takes it off", async () => {
    // A pair the plan seats together now (women stay seated, so a cell reads woman then man).
    const shown = await callsOf(page.request).get(`/api/admin-event/${eventId}/rounds`);
    const first = ((await shown.json()) as { rounds: { pairs: { femaleID: number; maleID: number }[] }[] }).rounds[0]!
      .pairs[0]!;
    const nameOf = (id: number) => Object.entries(ids).find(([, v]) => v === id)![0];
    const [seated, mover] = [nameOf(first.femaleID), nameOf(first.maleID)];
    expect((await cells()).some((c) => c.startsWith(`${seated}${mover}`))).toBe(true);
    const card = page.getByRole("region", { name: "Keep apart" });
    await card.getByText("Nobody is kept apart.").waitFor();
    await card.getByLabel("Guest", { exact: true }).selectOption({ label: `${seated} (woman)` });
    await card.getByLabel("Keep apart from").selectOption({ label: `${mover} (man)` });
    await card.getByRole("button", { name: "Keep apart", exact: true }).click();
    await card.getByText(`${seated} and ${mover}`).waitFor();
    // The re-planned rounds show at once: they share no table in any round.
    await expect.poll(async () => (await cells()).some((c) => c.startsWith(`${seated}${mover}`))).toBe(false);
    expect(await page.locator(".rounds-plan tbody tr").count()).toBe(2);
    await expectAccessible(page, "the Rounds tab with a pair kept apart");
    await expectNoSidewaysScroll(page);

    // Re-planning keeps them apart too.
    const replanned = page.waitForResponse(
      (r) => r.url().endsWith("/api/plan-rounds") && !r.request().postData()?.includes('"preview":true'),
    );
    await page.getByRole("button", { name: "Re-plan rounds", exact: true }).click();
    expect((await replanned).status()).toBe(200);
    await expect.poll(async () => (await cells()).some((c) => c.startsWith(`${seated}${mover}`))).toBe(false);

    await card.getByRole("button", { name: `Undo: let ${seated} and ${mover} be seated together` }).click();
    await card.getByText("Nobody is kept apart.").waitFor();
    expect(pageErrors).toEqual([]);
  });
});
