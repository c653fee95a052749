import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { describe, expect } from "vitest";
import { storeImage } from "../api/booking/images.ts";
import { feedbackToken } from "../api/lib/capability.ts";
import { openDatabase } from "../db/client.ts";
import { events, feedback, users } from "../db/schema.ts";
import { insertEvent, insertPaidBookings, makeImage } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, noBrowser } from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks.ts";

const env = { SESSION_SECRET: "e2e-secret-e2e-secret-e2e-secret-012345" };

const test = browserSuite({ serviceWorker: true });

describe.skipIf(noBrowser)("partner feedback on a phone", () => {
  let server: AppServer;
  let eventId: number;
  const people: Record<string, { userId: number; phone: string }> = {};

  test.beforeAll(async ({ server: fileServer }) => {
    server = fileServer;
    const db = openDatabase(`${server.dataDir}/app.db`);
    const uploads = `${server.dataDir}/uploads`;
    const event = await insertEvent(db, uploads, { name: "Harbour Mixer" });
    db.update(events).set({ status: "started" }).where(eq(events.id, event.id)).run();
    eventId = event.id;
    const colours = [
      { r: 30, g: 90, b: 200 },
      { r: 20, g: 160, b: 90 },
      { r: 220, g: 120, b: 40 },
      { r: 160, g: 40, b: 160 },
    ];
    const roster = [
      ["Vikram", "male"],
      ["Arjun", "male"],
      ["Priya", "female"],
      ["Anika", "female"],
    ] as const;
    for (const [i, [name, gender]] of roster.entries()) {
      const [p] = insertPaidBookings(db, event.id, 1, { name, gender });
      const photo = await storeImage(uploads, await makeImage("jpeg", 800, 800, colours[i]));
      db.update(users).set(photo).where(eq(users.id, p!.userId)).run();
      people[name] = p!;
    }
    db.$client.close();
  });

  const participantLink = (name: string, token?: string) => {
    const userId = people[name]!.userId;
    return `/ParticipantFeedback?par1=${userId}&par2=${eventId}&t=${token ?? feedbackToken(env, "start", userId, eventId)}`;
  };
  const reportLink = (name: string, page: "start" | "report" = "report", event = eventId) => {
    const userId = people[name]!.userId;
    return `/EventFeedback?par1=${event}&par2=${userId}&t=${feedbackToken(env, page, userId, event)}`;
  };
  /** "released": ended with its results out, as Release results leaves it. */
  const setStatus = (id: number, status: "started" | "ended" | "released") => {
    const db = openDatabase(`${server.dataDir}/app.db`);
    try {
      const change = status === "released" ? { status: "ended" as const, resultsReleasedAt: Date.now() } : { status };
      db.update(events).set(change).where(eq(events.id, id)).run();
    } finally {
      db.$client.close();
    }
  };
  const card = (page: Page, name: string) => page.locator("article.partner-card", { hasText: name });
  const pressed = (page: Page, name: string, button: "Like" | "Dislike") =>
    card(page, name).getByRole("button", { name: button, exact: true }).getAttribute("aria-pressed");
  const stored = () => {
    const db = openDatabase(`${server.dataDir}/app.db`);
    try {
      return db
        .select({ from: feedback.fromUserId, to: feedback.toUserId, value: feedback.value })
        .from(feedback)
        .where(eq(feedback.eventId, eventId))
        .all();
    } finally {
      db.$client.close();
    }
  };

  test("rates partners from a link, and the report shows the mutual match with a number to call", async ({
    guestPhone,
  }) => {
    const { context, page, pageErrors } = guestPhone;
    await page.goto(participantLink("Vikram"));
    await page.getByRole("heading", { name: "Your Partners" }).waitFor();
    await card(page, "Priya").waitFor();
    // Only the other gender, by name, each with a photo that actually loaded (the thumbnail).
    expect(await page.locator("article.partner-card .partner-name").allTextContents()).toEqual(["Anika", "Priya"]);
    await expect
      .poll(() =>
        page
          .locator("article.partner-card img")
          .evaluateAll((imgs) => imgs.map((img) => (img as HTMLImageElement).naturalWidth)),
      )
      .toEqual([320, 320]);
    await expect.poll(() => page.getByText("All choices saved").isVisible()).toBe(true);
    await expectAccessible(page, "the partners page");

    await card(page, "Priya").getByRole("button", { name: "Like", exact: true }).click();
    await card(page, "Anika").getByRole("button", { name: "Dislike", exact: true }).click();
    await expect.poll(() => pressed(page, "Priya", "Like")).toBe("true");
    await expect.poll(() => pressed(page, "Priya", "Dislike")).toBe("false");
    await expect.poll(() => pressed(page, "Anika", "Dislike")).toBe("true");
    await page.getByText("All choices saved").waitFor();

    // A change of mind: the last choice is the one highlighted and kept.
    await card(page, "Anika").getByRole("button", { name: "Like", exact: true }).click();
    await expect.poll(() => pressed(page, "Anika", "Like")).toBe("true");
    await expect.poll(() => pressed(page, "Anika", "Dislike")).toBe("false");
    await page.getByText("All choices saved").waitFor();
    await expect
      .poll(() => stored().filter((f) => f.from === people.Vikram!.userId))
      .toEqual(
        expect.arrayContaining([
          { from: people.Vikram!.userId, to: people.Priya!.userId, value: "like" },
          { from: people.Vikram!.userId, to: people.Anika!.userId, value: "like" },
        ]),
      );
    expect(stored()).toHaveLength(2);

    // Venue Wi-Fi drops: taps wait on the device, the last one wins, and they go when it is back.
    await context.setOffline(true);
    await card(page, "Anika").getByRole("button", { name: "Dislike", exact: true }).click();
    await card(page, "Priya").getByRole("button", { name: "Dislike", exact: true }).click();
    await card(page, "Priya").getByRole("button", { name: "Like", exact: true }).click();
    await page.getByText("2 choices waiting to sync").waitFor();
    await expectAccessible(page, "the partners page with taps waiting");
    await expect.poll(() => pressed(page, "Anika", "Dislike")).toBe("true");
    await context.setOffline(false);
    await page.getByText("All choices saved").waitFor({ timeout: 15_000 });
    await card(page, "Anika").getByRole("button", { name: "Like", exact: true }).click();
    await page.getByText("All choices saved").waitFor();
    await expect.poll(() => stored().find((f) => f.to === people.Anika!.userId)?.value).toBe("like");

    // A reload shows the same choices, from the device.
    await page.reload();
    await card(page, "Anika").waitFor();
    await expect.poll(() => pressed(page, "Anika", "Like")).toBe("true");
    await expect.poll(() => pressed(page, "Priya", "Like")).toBe("true");

    await expectNoSidewaysScroll(page);

    // Priya likes him back through her own link; Arjun likes Priya.
    for (const [who, whom] of [
      ["Priya", "Vikram"],
      ["Arjun", "Priya"],
    ] as const) {
      const other = await context.newPage();
      await other.goto(participantLink(who));
      await card(other, whom).getByRole("button", { name: "Like", exact: true }).click();
      await expect.poll(() => pressed(other, whom, "Like")).toBe("true");
      await other.getByText("All choices saved").waitFor();
      await other.close();
    }

    // The report opens when the results are released.
    setStatus(eventId, "released");
    await page.goto(reportLink("Vikram"));
    await page.getByRole("heading", { name: /Mutual matches/ }).waitFor();
    const mutual = page.locator("section", { has: page.getByRole("heading", { name: /Mutual matches/ }) });
    await mutual.getByText("Priya").waitFor();
    const tel = mutual.getByRole("link", { name: /^04/ });
    await expect.poll(() => tel.getAttribute("href")).toBe(`tel:${people.Priya!.phone}`);
    const iliked = page.locator("section", { has: page.getByRole("heading", { name: /You liked/ }) });
    await expect.poll(() => iliked.getByText("Anika").isVisible()).toBe(true);
    // No number for someone who didn't like him back.
    await expect.poll(() => iliked.getByRole("link").count()).toBe(0);
    const likedMe = page.locator("section", { has: page.getByRole("heading", { name: /They liked you/ }) });
    await expect.poll(() => likedMe.locator("li").count()).toBe(0);
    await expectAccessible(page, "the report");
    await expectNoSidewaysScroll(page);

    // Priya's report: Vikram mutual, Arjun liked her (with his number).
    await page.goto(reportLink("Priya"));
    const hers = page.locator("section", { has: page.getByRole("heading", { name: /They liked you/ }) });
    await hers.getByText("Arjun").waitFor();
    await expect.poll(() => hers.getByRole("link").getAttribute("href")).toBe(`tel:${people.Arjun!.phone}`);

    expect(pageErrors).toEqual([]);
  });

  test("says clearly when the link is wrong or incomplete", async ({ guestPhone }) => {
    const { page } = guestPhone;
    await page.goto(participantLink("Vikram", "not-the-right-token"));
    await page.getByRole("alert").getByText("This feedback link isn't valid.", { exact: false }).waitFor();
    await expect.poll(() => page.locator("article.partner-card").count()).toBe(0);
    await expectAccessible(page, "a wrong feedback link");

    await page.goto("/ParticipantFeedback?par1=abc");
    await page.getByRole("alert").getByText("This feedback link is incomplete.", { exact: false }).waitFor();

    await page.goto(`/EventFeedback?par1=${eventId}&par2=${people.Vikram!.userId}&t=nope`);
    await page.getByRole("alert").getByText("This feedback link isn't valid.", { exact: false }).waitFor();

    // The partners link's token does not open the report, whatever the ids say.
    await page.goto(reportLink("Vikram", "start"));
    await page.getByRole("alert").getByText("This feedback link isn't valid.", { exact: false }).waitFor();
    await expect.poll(() => page.getByRole("heading", { name: /Mutual matches/ }).count()).toBe(0);
  });

  test("tells someone who opens the report before the release when the results arrive", async ({ guestPhone }) => {
    const db = openDatabase(`${server.dataDir}/app.db`);
    const early = await insertEvent(db, `${server.dataDir}/uploads`, { name: "Late Mixer" });
    db.update(events).set({ status: "started" }).where(eq(events.id, early.id)).run();
    people.Meera = insertPaidBookings(db, early.id, 1, { name: "Meera", gender: "female" })[0]!;
    insertPaidBookings(db, early.id, 1, { name: "Rohan", gender: "male" });
    db.$client.close();

    const { page, pageErrors } = guestPhone;
    await page.goto(reportLink("Meera", "report", early.id));
    // 12:00 PM the day after the event, on the venue's clock (Sydney: AEDT or AEST).
    const notice = page.getByRole("status").filter({ hasText: /Your matches arrive at 12:00 PM AE[DS]T / });
    await notice.waitFor();
    expect(await page.getByRole("alert").count()).toBe(0);

    // Ending the night is not enough: the report waits for the results.
    setStatus(early.id, "ended");
    await notice.getByRole("button", { name: "Check again" }).click();
    await notice.waitFor();
    setStatus(early.id, "released");
    await notice.getByRole("button", { name: "Check again" }).click();
    await page.getByRole("heading", { name: /Mutual matches/ }).waitFor();
    expect(pageErrors).toEqual([]);
  });
});
