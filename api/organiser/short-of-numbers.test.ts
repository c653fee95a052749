import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookings, events, outboxMessages } from "../../db/schema.ts";
import { suiteTestServer, type TestServer } from "../../test/api-harness.ts";
import { insertEvent, insertPaidBookings } from "../../test/fixtures.ts";
import { sessionBrowser } from "../../test/suites/team.ts";
import { backgroundJobs } from "../ops/jobs.ts";

// Go ahead only with at least (issue 52 part 3, docs/decisions/059-short-of-numbers.md): the check at
// minimumBy, run by the background job on a moved clock, and the desk's `shortOfNumbers`.

const HOUR = 3_600_000;
const ORGANISER = { ORGANISER_PHONE: "+61400000999", ORGANISER_EMAIL: "owner@example.com" };
const server = suiteTestServer({ env: ORGANISER });
const bare = suiteTestServer();

/** A Women meet men night in 3 days that needs 3 women and 3 men, with `women` and `men` paid. */
async function night(on: TestServer, women: number, men: number) {
  const { db, env } = on.deps;
  const event = await insertEvent(db, env.UPLOADS_DIR, {
    startsAt: on.deps.now() + 72 * HOUR,
    minimumFemale: 3,
    minimumMale: 3,
    minimumBy: on.deps.now() + HOUR,
  });
  insertPaidBookings(db, event.id, women, { gender: "female" });
  insertPaidBookings(db, event.id, men, { gender: "male" });
  return event;
}

/** The job as a fresh server would run it (a restart keeps nothing in memory). */
const runCheck = (on: TestServer) =>
  backgroundJobs(on.deps)
    .find((job) => job.name === "minimum-numbers")!
    .run(on.deps.now());

const messagesTo = (on: TestServer, to: string) =>
  on.deps.db.select().from(outboxMessages).where(eq(outboxMessages.to, to)).all();

const eventRow = (on: TestServer, id: number) => on.deps.db.select().from(events).where(eq(events.id, id)).get()!;

type Listed = { id: number; shortOfNumbers: unknown };

describe("the check at minimumBy", () => {
  it("flags a night short of numbers and tells the organiser once, by one text and one email, across two runs; guests hear nothing", async () => {
    const event = await night(server, 2, 3);
    await runCheck(server);
    expect(eventRow(server, event.id).shortOfNumbersAt).toBeNull(); // not due yet
    server.advance(HOUR + 1000);
    await runCheck(server);
    await runCheck(server);
    const row = eventRow(server, event.id);
    expect(row.minimumCheckedAt).not.toBeNull();
    expect(row.shortOfNumbersAt).not.toBeNull();

    const texts = messagesTo(server, ORGANISER.ORGANISER_PHONE).filter((m) => m.body.includes(event.name));
    expect(texts).toHaveLength(1);
    expect(texts[0]!.channel).toBe("sms");
    expect(texts[0]!.body).toContain("2 of 3 women");
    expect(texts[0]!.body).not.toContain("men booked,"); // only what is short
    const emails = messagesTo(server, ORGANISER.ORGANISER_EMAIL).filter((m) => m.subject?.includes(event.name));
    expect(emails).toHaveLength(1);
    expect(emails[0]!.channel).toBe("email");

    // Nothing to any guest of the night.
    const phones = server.deps.db
      .select({ phone: bookings.phone })
      .from(bookings)
      .where(eq(bookings.eventId, event.id))
      .all()
      .map((b) => b.phone);
    for (const phone of phones) expect(messagesTo(server, phone)).toEqual([]);

    // The desk: the list and the Overview carry what is short; no phone, no name.
    const desk = sessionBrowser(server, null);
    const list = (await (await desk.get("/api/admin-events")).json()) as Listed[];
    const listed = list.find((e) => e.id === event.id)!;
    expect(listed.shortOfNumbers).toEqual({
      short: [{ side: "female", needed: 3, booked: 2 }],
      at: new Date(row.shortOfNumbersAt!).toISOString(),
    });
    const summary = (await (await desk.get(`/api/admin-event-summary/${event.id}`)).json()) as Listed;
    expect(summary.shortOfNumbers).toEqual(listed.shortOfNumbers);
    for (const phone of phones) expect(JSON.stringify(list)).not.toContain(phone);
  });

  it("does nothing for a night with enough, and shows null", async () => {
    const event = await night(server, 3, 3);
    server.advance(HOUR + 1000);
    await runCheck(server);
    const row = eventRow(server, event.id);
    expect(row.minimumCheckedAt).not.toBeNull();
    expect(row.shortOfNumbersAt).toBeNull();
    const alerts = server.deps.db.select().from(outboxMessages).all();
    expect(alerts.filter((m) => m.dedupeKey.startsWith(`short-of-numbers:${event.id}`))).toEqual([]);
    const desk = sessionBrowser(server, null);
    const list = (await (await desk.get("/api/admin-events")).json()) as Listed[];
    expect(list.find((e) => e.id === event.id)!.shortOfNumbers).toBeNull();
  });

  it("without ORGANISER_PHONE and ORGANISER_EMAIL only flags the night (the desk shows it)", async () => {
    const event = await night(bare, 1, 1);
    bare.advance(HOUR + 1000);
    await runCheck(bare);
    expect(eventRow(bare, event.id).shortOfNumbersAt).not.toBeNull();
    const all = bare.deps.db.select().from(outboxMessages).all();
    expect(all.filter((m) => m.dedupeKey.startsWith("short-of-numbers:"))).toEqual([]);
    const desk = sessionBrowser(bare, null);
    const summary = (await (await desk.get(`/api/admin-event-summary/${event.id}`)).json()) as Listed;
    expect(summary.shortOfNumbers).toMatchObject({
      short: [
        { side: "female", needed: 3, booked: 1 },
        { side: "male", needed: 3, booked: 1 },
      ],
    });
    // Once cancelled, it is no longer shown as short.
    bare.deps.db.update(events).set({ status: "cancelled" }).where(eq(events.id, event.id)).run();
    const after = (await (await desk.get(`/api/admin-event-summary/${event.id}`)).json()) as Listed;
    expect(after.shortOfNumbers).toBeNull();
  });
});
