import { eq } from "drizzle-orm";
import type { Browser, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { openDatabase } from "../db/client.ts";
import { bookings } from "../db/schema.ts";
import { insertEvent, insertPaidBookings } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import {
  type AppServer,
  callsOf,
  desktop,
  devOutbox,
  newContext,
  noBrowser,
  phone,
  signInAsOrganiser,
} from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks.ts";
import { openTab } from "./steps.ts";

// Running the night from one place (docs/decisions/019-running-the-night.md): the organiser at
// 1366 px keeps the Rounds tab's event in the address, starts and ends the night there, plans with a
// `Sitting out` column and messages the guests; a host link for a night that has ended opens on
// that night, read-only.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const test = browserSuite();

describe.skipIf(noBrowser)("running the night from the Rounds tab", () => {
  let server: AppServer;
  let browser: Browser;
  let tonight: number;
  let past: number;
  const phones: string[] = [];

  test.beforeAll(async ({ server: fileServer, browser: fileBrowser }) => {
    server = fileServer;
    browser = fileBrowser;
    const db = openDatabase(`${server.dataDir}/app.db`);
    const uploads = `${server.dataDir}/uploads`;
    tonight = (await insertEvent(db, uploads, { name: "Harbour Mixer", startsAt: Date.now() + 30 * MINUTE })).id;
    const guests = [
      ["Anika Rao", "female", true],
      ["Priya Nair", "female", true],
      ["Meera Iyer", "female", false],
      ["Dev Kumar", "male", true],
      ["Arjun Shah", "male", true],
    ] as const;
    for (const [name, gender, came] of guests) {
      const [p] = insertPaidBookings(db, tonight, 1, { name, gender, paidAt: Date.now() - 24 * HOUR });
      if (came) db.update(bookings).set({ checkedInAt: Date.now() }).where(eq(bookings.id, p!.bookingId)).run();
      phones.push(p!.phone);
    }
    past = (
      await insertEvent(db, uploads, {
        name: "Last Night",
        status: "ended",
        startsAt: Date.now() - 3 * HOUR,
        startedAt: Date.now() - 3 * HOUR,
        endedAt: Date.now() - HOUR,
      })
    ).id;
    insertPaidBookings(db, past, 1, { name: "Kavya Rao", gender: "female", paidAt: Date.now() - 48 * HOUR });
    db.$client.close();
  });

  let organiser: Page;
  let organiserErrors: string[];

  it("keeps the event in the address, and starts the night beside the rounds", async () => {
    const { context, pageErrors } = await newContext(browser, server.url, desktop);
    organiserErrors = pageErrors;
    organiser = await context.newPage();
    await signInAsOrganiser(organiser, `/admin?tab=rounds&event=${tonight}`);
    await organiser.getByText("Present: 2 women, 2 men").waitFor();
    const picker = organiser.getByLabel("Event", { exact: true });
    await expect.poll(() => picker.inputValue()).toBe(String(tonight));

    const start = organiser.getByRole("button", { name: "Start Event", exact: true });
    await expect.poll(() => start.isEnabled()).toBe(true);
    expect(await organiser.getByRole("button", { name: "End Event", exact: true }).isDisabled()).toBe(true);
    await start.click();
    const dialog = organiser.getByRole("dialog", { name: "Start Harbour Mixer?" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Start Event", exact: true }).click();
    await organiser.getByText("Event has started! SMS sent to participants.").waitFor();
    await expect.poll(() => organiser.getByRole("button", { name: "End Event", exact: true }).isEnabled()).toBe(true);
    expect(new URL(organiser.url()).search).toBe(`?tab=rounds&event=${tonight}`);

    // Plan and start the rounds: the unpaired side's column is headed Sitting out.
    await organiser.getByRole("button", { name: "Plan rounds", exact: true }).click();
    await organiser.getByRole("button", { name: "Start rounds", exact: true }).waitFor();
    await organiser.getByRole("columnheader", { name: "Sitting out" }).waitFor();
    expect(await organiser.getByRole("columnheader", { name: "Break" }).count()).toBe(0);
    await organiser.getByRole("button", { name: "Start rounds", exact: true }).click();
    await organiser.getByRole("heading", { name: "Round 1 of 2" }).waitFor();
    await expectNoSidewaysScroll(organiser);
    await expectAccessible(organiser, "the Rounds tab with Start, End and Message guests");

    // Reloaded, the address brings back the same night.
    await organiser.reload();
    await organiser.getByRole("heading", { name: "Round 1 of 2" }).waitFor();
  });

  it("messages only the guests who came, showing the server's count and the exact text first", async () => {
    await organiser.getByRole("button", { name: "Message guests", exact: true }).click();
    const dialog = organiser.getByRole("dialog", { name: "Message guests" });
    await dialog.getByLabel("Everyone with a paid ticket (5)").waitFor();
    await dialog.getByLabel("Only those not yet arrived (1)").waitFor();
    await dialog.getByLabel("Only those who came (4)").check();
    await dialog.getByLabel("Message", { exact: true }).fill("Round 2 starts at the bar in five minutes");
    await dialog.getByText("Texts 4 guests:").waitFor();
    await dialog.getByText("Harbour Mixer: Round 2 starts at the bar in five minutes", { exact: true }).waitFor();
    await expectAccessible(organiser, "the Message guests dialog");
    await dialog.getByRole("button", { name: "Send to 4 guests", exact: true }).click();
    await dialog.getByText("Sent to 4 guests.").waitFor();
    await dialog.getByRole("button", { name: "Close", exact: true }).click();
    // The one Dialog (pwa/components/ui/dialog.tsx) gives the focus back to the button that opened it.
    await expect.poll(() => organiser.evaluate(() => document.activeElement?.textContent)).toBe("Message guests");

    const texts = (await devOutbox(server.url)).filter((m) => m.body.includes("five minutes"));
    expect(texts.map((m) => m.to).sort()).toEqual([phones[0], phones[1], phones[3], phones[4]].sort());
    expect(texts[0]!.body).toBe("Harbour Mixer: Round 2 starts at the bar in five minutes");
  });

  it("ends the night from the Rounds tab, and then shows it read-only", async () => {
    await organiser.getByRole("button", { name: "End Event", exact: true }).click();
    const dialog = organiser.getByRole("dialog", { name: "End Harbour Mixer?" });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "End Event", exact: true }).click();
    await organiser.getByText("This night has ended: its rounds are shown read-only.").waitFor();
    await organiser.getByRole("heading", { name: "The rounds are finished" }).waitFor();
    expect(await organiser.getByRole("button", { name: "Resume", exact: true }).count()).toBe(0);
    expect(await organiser.getByRole("button", { name: "Message guests", exact: true }).count()).toBe(0);
    expect(organiserErrors).toEqual([]);
  });

  it("opens a host link for a night that has ended on that night, read-only, not an empty chooser", async () => {
    const made = await callsOf(organiser.request).post("/api/host-links", { eventID: past, label: "Door 1" });
    expect(made.status()).toBe(200);
    const link = new URL(((await made.json()) as { url: string }).url);

    const { context, pageErrors } = await newContext(browser, server.url, phone);
    const host = await context.newPage();
    await host.goto(link.pathname + link.search);
    await host.getByRole("heading", { name: "Last Night", level: 1 }).waitFor();
    await host.getByText("Kavya Rao").waitFor();
    expect(await host.getByText("Choose an event to see who is coming.").count()).toBe(0);
    // The door's list is read-only too: nobody arrives at a night that has ended.
    await host.getByText("This night has ended, so the list is read-only.").waitFor();
    const checkIns = host.getByRole("button", { name: "Check in", exact: true });
    expect(await checkIns.count()).toBeGreaterThan(0);
    for (const button of await checkIns.all()) expect(await button.isDisabled()).toBe(true);

    await openTab(host, "Rounds");
    await host.getByText("This night has ended: its rounds are shown read-only.").waitFor();
    for (const name of ["Plan rounds", "Message guests", "Start Event", "End Event"]) {
      expect(await host.getByRole("button", { name, exact: true }).count(), name).toBe(0);
    }
    await expectAccessible(host, "a host's Rounds for a night that has ended");
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
