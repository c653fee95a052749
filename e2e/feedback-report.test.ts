import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { storeImage } from "../api/booking/images.ts";
import { feedbackToken } from "../api/lib/capability.ts";
import { openDatabase } from "../db/client.ts";
import { feedback, users } from "../db/schema.ts";
import { insertEvent, insertPaidBookings, makeImage } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, newContext, noBrowser } from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks.ts";

const env = { SESSION_SECRET: "e2e-secret-e2e-secret-e2e-secret-012345" };

// Words that would read as a verdict on someone's night: a like that was not returned, or nobody at all.
const REJECTION = /didn't|did not|rejected|not choose|no one|nobody|not liked|unfortunately/i;

const test = browserSuite();

describe.skipIf(noBrowser)("the mutual-likes report's wording", () => {
  let server: AppServer;
  let browser: Browser;
  let eventId: number;
  const people: Record<string, number> = {};

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    const db = openDatabase(`${server.dataDir}/app.db`);
    const uploads = `${server.dataDir}/uploads`;
    const event = await insertEvent(db, uploads, {
      name: "Quiet Night",
      status: "ended",
      resultsReleasedAt: Date.now(),
      startsAt: Date.now() - 86_400_000,
    });
    eventId = event.id;
    for (const [i, [name, gender]] of (
      [
        ["Meera", "female"],
        ["Leela", "female"],
        ["Dev", "male"],
        ["Sanjay", "male"],
        ["Nikhil", "male"],
      ] as const
    ).entries()) {
      const [p] = insertPaidBookings(db, eventId, 1, { name, gender });
      const photo = await storeImage(uploads, await makeImage("jpeg", 400, 400, { r: 40 + i * 40, g: 100, b: 150 }));
      db.update(users).set(photo).where(eq(users.id, p!.userId)).run();
      people[name] = p!.userId;
    }
    // Meera liked Dev and Sanjay; Dev liked her back; Nikhil liked her. Leela liked nobody and nobody liked her.
    const now = Date.now();
    const like = (from: string, to: string) => ({
      fromUserId: people[from]!,
      toUserId: people[to]!,
      eventId,
      value: "like" as const,
      clientTs: now,
      updatedAt: now,
    });
    db.insert(feedback)
      .values([like("Meera", "Dev"), like("Dev", "Meera"), like("Meera", "Sanjay"), like("Nikhil", "Meera")])
      .run();
    db.$client.close();
  });

  const reportOf = (name: string) => {
    const userId = people[name]!;
    return `/EventFeedback?par1=${eventId}&par2=${userId}&t=${feedbackToken(env, "report", userId, eventId)}`;
  };
  const group = (page: Page, heading: string) =>
    page.locator("section", { has: page.getByRole("heading", { name: heading }) });

  it("lists a one-sided like kindly, under the three headings", async () => {
    const { context, pageErrors } = await newContext(browser, server.url);
    const page = await context.newPage();
    await page.goto(reportOf("Meera"));
    await group(page, "Mutual matches 1").getByText("Dev").waitFor();
    await group(page, "They liked you 1").getByText("Nikhil").waitFor();
    const liked = group(page, "You liked 1");
    await liked.getByText("Sanjay").waitFor();
    await liked
      .getByText(
        "People you enjoyed meeting. Numbers are only shared when both people like each other, to keep everyone's privacy.",
      )
      .waitFor();
    await group(page, "They liked you 1")
      .getByText("They enjoyed meeting you. Their details are here if you'd like to say hello.")
      .waitFor();
    expect(await page.locator("main").textContent()).not.toMatch(REJECTION);
    await expectAccessible(page, "the report");
    await expectNoSidewaysScroll(page);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it("keeps an empty report gentle: no zero counts, no verdicts", async () => {
    const { context } = await newContext(browser, server.url);
    const page = await context.newPage();
    await page.goto(reportOf("Leela"));
    // The headings carry no count when nobody is listed under them.
    for (const heading of ["Mutual matches", "They liked you", "You liked"]) {
      await page.getByRole("heading", { name: heading, exact: true }).waitFor();
    }
    await group(page, "Mutual matches")
      .getByText("No mutual matches from this night. That happens often, and every event brings new people to meet.")
      .waitFor();
    await expect.poll(() => page.getByText("Nothing more to show here.").count()).toBe(2);
    expect(await page.locator("main").textContent()).not.toMatch(REJECTION);
    await expectAccessible(page, "an empty report");
    await context.close();
  });
});
