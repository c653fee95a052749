import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { feedbackToken } from "../api/lib/capability.ts";
import { openDatabase } from "../db/client.ts";
import { events } from "../db/schema.ts";
import { insertEvent, insertPaidBookings } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { type AppServer, desktop, newContext, noBrowser, phone, signInAsOrganiser } from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks.ts";
import { organiserCookie } from "./steps.ts";

// The night's results (docs/decisions/021-results.md): the report waits for the release and says
// when it comes; a tap that reaches the server after the release is reported on the page; the
// organiser types in a paper scorecard on the Rounds tab and releases the results.

const env = { SESSION_SECRET: "e2e-secret-e2e-secret-e2e-secret-012345" };
type Person = { userId: number; phone: string };

const test = browserSuite();

describe.skipIf(noBrowser)("results", () => {
  let server: AppServer;
  let browser: Browser;
  let adminCookie = "";

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    adminCookie = await organiserCookie(server.url);
  });

  const post = (path: string, body: unknown, cookie = "") =>
    fetch(server.url + path, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify(body),
    });
  const releaseResults = async (eventId: number) =>
    expect((await post("/api/release-results", { eventId }, adminCookie)).status).toBe(200);
  const guestTap = async (eventId: number, from: Person, to: Person, feedback: "like" | "dislike") => {
    const response = await post("/api/save-feedback", {
      eventID: eventId,
      fromUserID: from.userId,
      toUserID: to.userId,
      feedback,
      token: feedbackToken(env, "start", from.userId, eventId),
    });
    expect(response.status).toBe(200);
  };
  const withDb = <T>(fn: (db: ReturnType<typeof openDatabase>) => T): T => {
    const db = openDatabase(`${server.dataDir}/app.db`);
    try {
      return fn(db);
    } finally {
      db.$client.close();
    }
  };
  const endNight = (eventId: number) =>
    withDb((db) => db.update(events).set({ status: "ended", endedAt: Date.now() }).where(eq(events.id, eventId)).run());

  /** A started night in Sydney with the people named, paid; returns them by name. */
  async function night(name: string, roster: [string, "male" | "female"][]) {
    const uploads = `${server.dataDir}/uploads`;
    const db = openDatabase(`${server.dataDir}/app.db`);
    try {
      const event = await insertEvent(db, uploads, { name, status: "started", startedAt: Date.now() });
      const people: Record<string, Person> = {};
      for (const [who, gender] of roster) people[who] = insertPaidBookings(db, event.id, 1, { name: who, gender })[0]!;
      return { eventId: event.id, people };
    } finally {
      db.$client.close();
    }
  }

  const partnersLink = (eventId: number, p: Person) =>
    `/ParticipantFeedback?par1=${p.userId}&par2=${eventId}&t=${feedbackToken(env, "start", p.userId, eventId)}`;
  const reportLink = (eventId: number, p: Person) =>
    `/EventFeedback?par1=${eventId}&par2=${p.userId}&t=${feedbackToken(env, "report", p.userId, eventId)}`;
  const card = (page: Page, name: string) => page.locator("article.partner-card", { hasText: name });
  const mutualSection = (page: Page) =>
    page.locator("section", { has: page.getByRole("heading", { name: /Mutual matches/ }) });

  describe("on a phone", () => {
    it("the report says when the results arrive, and shows the matches once they are released", async () => {
      const { eventId, people } = await night("Harbour Mixer", [
        ["Vikram", "male"],
        ["Priya", "female"],
      ]);
      const { Vikram, Priya } = people as Record<"Vikram" | "Priya", Person>;
      const { context, pageErrors } = await newContext(browser, server.url, phone);
      const page = await context.newPage();

      await page.goto(partnersLink(eventId, Vikram));
      // The tap reaching the server, not the status line: "All choices saved" shows before the tap
      // is even queued, and a tap that arrived after the release would be rolled back.
      const saved = page.waitForResponse((r) => r.url().endsWith("/api/save-feedback") && r.ok());
      await card(page, "Priya").getByRole("button", { name: "Like", exact: true }).click();
      await saved;
      await page.getByText("All choices saved").waitFor();
      await guestTap(eventId, Priya, Vikram, "like");
      endNight(eventId);

      // Ended, not released: the report says when, on the venue's clock with its zone.
      await page.goto(reportLink(eventId, Vikram));
      const notice = page.getByRole("status").filter({ hasText: /Your matches arrive at 12:00 PM AE[DS]T / });
      await notice.waitFor();
      expect(await page.getByRole("heading", { name: /Mutual matches/ }).count()).toBe(0);
      await expectAccessible(page, "the report before the release");
      await expectNoSidewaysScroll(page);

      await releaseResults(eventId);
      await notice.getByRole("button", { name: "Check again" }).click();
      await mutualSection(page).getByText("Priya").waitFor();
      await expectAccessible(page, "the report after the release");
      expect(pageErrors).toEqual([]);
      await context.close();
    });

    it("a tap queued offline that reaches the server after the release is rolled back to the saved choice", async () => {
      const { eventId, people } = await night("Late Tap Social", [
        ["Anika", "female"],
        ["Arjun", "male"],
        ["Dev", "male"],
      ]);
      const { Anika } = people as Record<"Anika", Person>;
      const { context, pageErrors } = await newContext(browser, server.url, { ...phone, serviceWorkers: "allow" });
      const page = await context.newPage();
      await page.goto(partnersLink(eventId, Anika));
      const pressed = (name: string, choice: "Like" | "Dislike") =>
        card(page, name).getByRole("button", { name: choice, exact: true }).getAttribute("aria-pressed");
      await card(page, "Arjun").getByRole("button", { name: "Dislike", exact: true }).click();
      // Wait for the server to hold the Dislike before going offline.
      await expect
        .poll(async () => {
          const reply = await post("/api/get-participants", {
            eventID: eventId,
            userID: Anika.userId,
            token: feedbackToken(env, "start", Anika.userId, eventId),
          });
          const { participants } = (await reply.json()) as { participants: { username: string; myChoice: string }[] };
          return participants.find((p) => p.username === "Arjun")?.myChoice;
        })
        .toBe("dislike");
      await page.getByText("All choices saved").waitFor();

      // On the way home, out of signal: she changes her mind, and two taps wait on the phone.
      await context.setOffline(true);
      await card(page, "Arjun").getByRole("button", { name: "Like", exact: true }).click();
      await card(page, "Dev").getByRole("button", { name: "Dislike", exact: true }).click();
      await page.getByText("2 choices waiting to sync").waitFor();

      // Meanwhile the night ends and the results go out.
      endNight(eventId);
      await releaseResults(eventId);

      // Back online, the taps arrive too late: the phone shows what the server kept, says why once,
      // and links to the matches; nothing claims the refused taps were saved.
      await context.setOffline(false);
      const closed = page
        .getByRole("status")
        .filter({ hasText: /^Ratings closed at .+ AE[DS]T .*; your earlier choices stand\./ });
      await closed.waitFor();
      await expect.poll(() => pressed("Arjun", "Dislike")).toBe("true");
      expect(await pressed("Arjun", "Like")).toBe("false");
      expect(await pressed("Dev", "Dislike")).toBe("false");
      expect(await page.getByText("your earlier choices stand").count()).toBe(1);
      expect(await page.getByText("All choices saved").count()).toBe(0);
      await expect
        .poll(() => card(page, "Arjun").getByRole("button", { name: "Like", exact: true }).isDisabled())
        .toBe(true);
      const matches = page.getByRole("link", { name: "See your matches" });
      await matches.waitFor();
      await expectAccessible(page, "the partners page after ratings closed");
      await expectNoSidewaysScroll(page);

      // A reload shows the same, from the server.
      await page.reload();
      await closed.waitFor();
      await expect.poll(() => pressed("Arjun", "Dislike")).toBe("true");
      expect(await page.getByText("All choices saved").count()).toBe(0);

      await matches.click();
      await page.getByRole("heading", { name: /Mutual matches/ }).waitFor();
      expect(pageErrors).toEqual([]);
      await context.close();
    });
  });

  describe("on a desktop", () => {
    it("the organiser enters a paper card, releases the results, and the guest's report shows the match", async () => {
      const { eventId, people } = await night("Paper Card Evening", [
        ["Meera", "female"],
        ["Rohan", "male"],
        ["Sanjay", "male"],
      ]);
      const { Meera, Rohan, Sanjay } = people as Record<"Meera" | "Rohan" | "Sanjay", Person>;
      // Rohan rates on his phone; Meera rates on paper.
      await guestTap(eventId, Rohan, Meera, "like");

      const { context, pageErrors } = await newContext(browser, server.url, desktop);
      const page = await context.newPage();
      await signInAsOrganiser(page, "/admin?tab=rounds");
      const picker = page.getByLabel("Event", { exact: true });
      const options = () => picker.locator("option").allTextContents();
      await expect.poll(async () => (await options()).some((o) => o.includes("Paper Card Evening"))).toBe(true);
      await picker.selectOption({ label: (await options()).find((o) => o.includes("Paper Card Evening"))! });

      const results = page.getByRole("region", { name: "Results" });
      await results.getByText("Ratings: 1 of 3 done").waitFor();
      await results.getByLabel("Guest").selectOption({ label: "Meera" });
      const scorecard = results.getByRole("list", { name: "People Meera met" });
      const row = (name: string) => scorecard.getByRole("listitem").filter({ hasText: name });
      await row("Rohan").getByRole("button", { name: "Like", exact: true }).click();
      await expect
        .poll(() => row("Rohan").getByRole("button", { name: "Like", exact: true }).getAttribute("aria-pressed"))
        .toBe("true");
      await row("Sanjay").getByRole("button", { name: "Dislike", exact: true }).click();
      await results.getByText("Ratings: 2 of 3 done").waitFor();
      await expectAccessible(page, "the Rounds tab's paper scorecard");

      // Rohan rated Meera on his phone: his row shows it read-only, and a card cannot change it.
      await results.getByLabel("Guest").selectOption({ label: "Rohan (done)" });
      const his = results
        .getByRole("list", { name: "People Rohan met" })
        .getByRole("listitem")
        .filter({ hasText: "Meera" });
      await his.getByText("Rated on their phone").waitFor();
      await expect.poll(() => his.getByRole("button", { name: "Dislike", exact: true }).isDisabled()).toBe(true);
      expect(await his.getByRole("button", { name: "Like", exact: true }).getAttribute("aria-pressed")).toBe("true");

      // Sanjay rates on his phone: the count follows the room's stream, with no reload (issue 46).
      await guestTap(eventId, Sanjay, Meera, "dislike");
      await results.getByText("Ratings: 3 of 3 done").waitFor();

      endNight(eventId);
      await results.getByRole("button", { name: "Release results", exact: true }).click();
      const dialog = page.getByRole("dialog");
      await dialog.getByRole("button", { name: "Release results" }).click();
      await results.getByText("Results released: guests have their matches.").waitFor();

      // Meera's report, opened from her results text, shows the match her paper card made.
      const outbox = (await (await fetch(`${server.url}/api/dev/outbox`)).json()) as { to: string; body: string }[];
      const text = outbox.find((m) => m.to === Meera.phone && m.body.includes("/EventFeedback"));
      expect(text?.body).toContain("1 mutual match!");
      const link = new URL(text!.body.match(/https?:\/\/\S+/)![0]);
      const guest = await context.newPage();
      await guest.goto(link.pathname + link.search);
      await mutualSection(guest).getByText("Rohan").waitFor();
      expect(pageErrors).toEqual([]);
      await context.close();
    });
  });
});
