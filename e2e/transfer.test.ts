import { describe, expect } from "vitest";
import { openDatabase } from "../db/client.ts";
import { insertEvent, makeImage } from "../test/fixtures.ts";
import { browserSuite } from "./fixtures.ts";
import { devOutbox, fillDetails, newContext, noBrowser, verifyPhone } from "./harness.ts";
import { expectAccessible, expectNoSidewaysScroll } from "./page-checks.ts";
import { bookAndPay, signInOnMe } from "./steps.ts";

// Give my ticket to a friend at phone size (issue 52, docs/decisions/058-ticket-transfer.md): the
// buyer, signed in on My nights, sends the ticket to a friend's mobile; a second phone opens the
// texted link, verifies the number, gives its details with a photo and gets its own ticket; the
// buyer's ticket then shows NOT VALID on My nights and in My tickets.

const SESSION_SECRET = "e2e-transfer-secret-e2e-transfer-secret-01";
const DAY = 24 * 3_600_000;
const FRIEND = "+61455501987";

const test = browserSuite({ serverEnv: { SESSION_SECRET } });

describe.skipIf(noBrowser)("A ticket given to a friend", () => {
  // Two phones, a booking, a photo upload and four pages: minutes, not seconds, on two busy cores.
  test("the buyer gives it, the friend takes it on a second phone, the old ticket is NOT VALID", {
    timeout: 240_000,
  }, async ({ server, browser }) => {
    const db = openDatabase(`${server.dataDir}/app.db`);
    const event = await insertEvent(db, `${server.dataDir}/uploads`, {
      name: "Harbour Lights Mixer",
      startsAt: Date.now() + 7 * DAY,
    });
    db.$client.close();
    // A man's seat, so the friend's side below is a man's (the fixture's gender otherwise depends on
    // its counter's start, random per process).
    const buyer = await bookAndPay(server, SESSION_SECRET, event.id, "Meera Iyer", "male");

    // The buyer's phone: My nights, the ticket, Give my ticket to a friend.
    const first = await newContext(browser, server.url);
    const page = await first.context.newPage();
    await page.goto("/me");
    await signInOnMe(page, server.url, buyer.phone);
    const ticket = page.getByRole("article", { name: "Ticket for Harbour Lights Mixer" });
    await ticket.getByRole("button", { name: "Give my ticket to a friend" }).click();
    await page.getByLabel("Your friend's mobile").fill("0455 501 987");
    await page.getByRole("button", { name: "Send the link" }).click();
    await page.getByText("Sent. Your friend has a text with the link", { exact: false }).waitFor();
    await expectAccessible(page, "give my ticket to a friend");
    await expectNoSidewaysScroll(page);

    // The friend's phone: the link from the text, the code, the details with a photo.
    await expect
      .poll(async () => (await devOutbox(server.url)).some((m) => m.to === FRIEND && m.body.includes("/transfer?t=")))
      .toBe(true);
    const text = (await devOutbox(server.url)).filter((m) => m.to === FRIEND).at(-1)?.body ?? "";
    expect(text).not.toContain("Meera");
    const link = new URL(text.match(/https?:\/\/\S+\/transfer\?t=\S+$/)?.[0] ?? "");
    const second = await newContext(browser, server.url);
    const friend = await second.context.newPage();
    await friend.goto(link.pathname + link.search);
    await friend.getByRole("heading", { name: "A ticket for you" }).waitFor();
    await expectAccessible(friend, "a ticket given to you");
    await verifyPhone(friend, server.url, "0455 501 987", FRIEND);
    await fillDetails(friend, {
      name: "Jordan Lee",
      email: "jordan@example.com",
      // The buyer's side (a man's seat, above): at Women meet men the seat stays on its side.
      gender: "male",
      photo: await makeImage("png", 400, 400),
    });
    await friend.getByRole("button", { name: "Submit" }).click();
    // Their own ticket, like a paid booking's: on My nights, where the code signed them in.
    // The photo is shrunk on the phone and again on the server: up to a minute under load.
    await expect.poll(() => new URL(friend.url()).pathname, { timeout: 60_000 }).toBe("/me");
    const theirs = friend.getByRole("article", { name: "Ticket for Harbour Lights Mixer" });
    await theirs.getByRole("img", { name: "QR code for Jordan Lee's ticket" }).waitFor();
    await expect.poll(() => friend.getByText("Meera").count()).toBe(0);
    await expectAccessible(friend, "the friend's ticket");
    await expectNoSidewaysScroll(friend);

    // The buyer's ticket: NOT VALID on My nights and in My tickets.
    await page.reload();
    const given = page.getByRole("article", { name: "Harbour Lights Mixer" });
    await given.getByText("Given to a friend").waitFor();
    await expect.poll(() => given.getByText("NOT VALID", { exact: false }).count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByText("Jordan").count()).toBe(0);
    await page.goto("/tickets");
    const saved = page.getByRole("article", { name: "Ticket for Harbour Lights Mixer" });
    await saved.getByText("NOT VALID: you gave this ticket to a friend", { exact: false }).waitFor();
    await expect.poll(() => saved.getByRole("img", { name: /QR code for/ }).count()).toBe(0);
    await expectAccessible(page, "a ticket given away");
    expect([...first.pageErrors, ...second.pageErrors]).toEqual([]);
    await first.context.close();
    await second.context.close();
  });
});
