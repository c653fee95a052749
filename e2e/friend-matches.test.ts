import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { storeImage } from "../api/booking/images.ts";
import { feedbackToken } from "../api/lib/capability.ts";
import { openDatabase } from "../db/client.ts";
import { events, feedback, users } from "../db/schema.ts";
import { insertEvent, insertPaidBookings, makeImage } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, newContext, noBrowser } from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks.ts";

const env = { SESSION_SECRET: "e2e-secret-e2e-secret-e2e-secret-012345" };

// Issue 37 at 390 px: a night that offers Friend. The partners page offers Date, Friend and No; the
// report shows a friend match in its own group; and what one side chooses to share changes what the
// other sees, at once.

const test = browserSuite();

describe.skipIf(noBrowser)("friend matches and what each side shares", () => {
  let server: AppServer;
  let browser: Browser;
  let eventId: number;
  const people: Record<string, { userId: number; phone: string }> = {};

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    const db = openDatabase(`${server.dataDir}/app.db`);
    const uploads = `${server.dataDir}/uploads`;
    const event = await insertEvent(db, uploads, {
      name: "Friends Welcome",
      status: "started",
      startsAt: Date.now() - 3_600_000,
      offersFriend: true,
    });
    eventId = event.id;
    for (const [i, [name, gender]] of (
      [
        ["Kavya", "female"],
        ["Rohan", "male"],
      ] as const
    ).entries()) {
      const [p] = insertPaidBookings(db, eventId, 1, { name, gender });
      const photo = await storeImage(uploads, await makeImage("jpeg", 400, 400, { r: 60 + i * 80, g: 90, b: 140 }));
      db.update(users).set(photo).where(eq(users.id, p!.userId)).run();
      people[name] = p!;
    }
    // Kavya chose Date for Rohan before the page was opened; Rohan chooses on the page below.
    const now = Date.now();
    db.insert(feedback)
      .values({
        fromUserId: people.Kavya!.userId,
        toUserId: people.Rohan!.userId,
        eventId,
        value: "like",
        clientTs: now,
        updatedAt: now,
      })
      .run();
    db.$client.close();
  });

  const link = (page: "start" | "report", name: string) => {
    const userId = people[name]!.userId;
    const t = feedbackToken(env, page, userId, eventId);
    return page === "start"
      ? `/ParticipantFeedback?par1=${userId}&par2=${eventId}&t=${t}`
      : `/EventFeedback?par1=${eventId}&par2=${userId}&t=${t}`;
  };
  const group = (page: Page, heading: string) =>
    page.locator("section", { has: page.getByRole("heading", { name: heading }) });

  it("offers Date, Friend and No, then shows the friend match and follows the other's sharing choice", async () => {
    const rohan = await newContext(browser, server.url);
    const page = await rohan.context.newPage();
    await page.goto(link("start", "Rohan"));
    const card = page.getByRole("article", { name: "Kavya" });
    for (const label of ["Date", "Friend", "No"]) await card.getByRole("button", { name: label }).waitFor();
    const saved = page.waitForResponse((r) => r.url().endsWith("/api/save-feedback") && r.status() === 200);
    await card.getByRole("button", { name: "Friend" }).click();
    await card.getByRole("button", { name: "Friend", pressed: true }).waitFor();
    await saved;
    await expectAccessible(page, "the partners page with Friend");
    await expectNoSidewaysScroll(page);

    // The results come out.
    const db = openDatabase(`${server.dataDir}/app.db`);
    db.update(events).set({ status: "ended", resultsReleasedAt: Date.now() }).where(eq(events.id, eventId)).run();
    db.$client.close();

    // Rohan sees Kavya as a friend match, with her number (she has not chosen: Mobile).
    await page.goto(link("report", "Rohan"));
    const friends = group(page, "Friend matches 1");
    await friends.getByText("Kavya").waitFor();
    const kavyaPhone = people.Kavya!.phone;
    await expect.poll(() => friends.locator(`a[href="tel:${kavyaPhone}"]`).count()).toBe(1);

    // Kavya, on her phone, chooses Nothing for Rohan.
    const kavya = await newContext(browser, server.url);
    const hers = await kavya.context.newPage();
    await hers.goto(link("report", "Kavya"));
    const herFriends = group(hers, "Friend matches 1");
    await herFriends.getByText("Rohan").waitFor();
    const choice = herFriends.getByRole("group", { name: "What Rohan can see of you" });
    await choice.getByRole("radio", { name: "Mobile" }).waitFor();
    expect(await choice.getByRole("radio", { name: "Mobile" }).isChecked()).toBe(true);
    await choice.getByRole("radio", { name: "Nothing" }).check();
    await hers.getByText("Saved: Rohan sees none of your contact details.").waitFor();
    await expectAccessible(hers, "the report with a sharing choice");
    await expectNoSidewaysScroll(hers);

    // Rohan's report, loaded again, no longer shows her number, and says so kindly.
    await page.reload();
    await group(page, "Friend matches 1").getByText("Kavya chose not to share contact details.").waitFor();
    expect(await page.locator(`a[href="tel:${kavyaPhone}"]`).count()).toBe(0);

    // She changes her mind to Instagram: the handle is asked, then shown to him.
    await choice.getByRole("radio", { name: "Instagram" }).check();
    await herFriends.getByLabel("Your Instagram handle").fill("@kavya.draws");
    await herFriends.getByRole("button", { name: "Save" }).click();
    await hers.getByText("Saved: Rohan sees your Instagram, @kavya.draws.").waitFor();
    await page.reload();
    await group(page, "Friend matches 1").getByRole("link", { name: "Instagram: @kavya.draws" }).waitFor();

    expect([...rohan.pageErrors, ...kavya.pageErrors]).toEqual([]);
    await rohan.context.close();
    await kavya.context.close();
  });
});
