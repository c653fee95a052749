import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Db, openDatabase } from "../../db/client.ts";
import { events, feedback } from "../../db/schema.ts";
import { yearLike } from "../../test/clock.ts";
import { recordingSms } from "../../test/fakes/sms.ts";
import { insertEvent, insertPaidBookings } from "../../test/fixtures.ts";
import { type Env, parseEnv } from "../env.ts";
import { silentLogger } from "../lib/log.ts";
import { resultsEmail } from "../messaging/templates/results.ts";
import { backgroundJobs } from "../ops/jobs.ts";
import { createScheduler } from "../ops/scheduler.ts";
import { createLocalPayments } from "../providers/payments/local.ts";
import { releaseResults, resultsText } from "./results.ts";

// Dates in a year laid out like 2031, always ahead of the clock (test/clock.ts).
const Y = yearLike(2031);

// The night's end and its results as the scheduler runs them (docs/decisions/021-results.md), on a
// clock the test moves minute by minute, as the server ticks.

const HOUR = 3_600_000;
const MINUTE = 60_000;

let dir: string;
let env: Env;
let db: Db;
let clock: number;
let texts: { to: string; body: string }[];

const sms = recordingSms((text) => texts.push(text));

const deps = () => ({
  db,
  env,
  sms,
  payments: createLocalPayments(env, db, () => clock),
  log: silentLogger,
  now: () => clock,
});
const scheduler = () => createScheduler({ log: silentLogger, now: () => clock }, backgroundJobs(deps()));

async function runUntil(until: number, s = scheduler()) {
  while (clock < until) {
    clock = Math.min(until, clock + MINUTE);
    await s.tick();
  }
}

// Saturday 29 November (a year laid out like 2031), 7 pm AEDT, for 3 hours; results by default at noon on Sunday (01:00 UTC).
const start = Date.parse(`${Y}-11-29T08:00:00.000Z`);
const plannedEnd = start + 3 * HOUR;
const resultsAt = Date.parse(`${Y}-11-30T01:00:00.000Z`);

function openDb(overrides: Record<string, string> = {}) {
  env = parseEnv({
    NODE_ENV: "test",
    DATABASE_PATH: join(dir, "app.db"),
    UPLOADS_DIR: join(dir, "uploads"),
    SESSION_SECRET: "test-secret-test-secret-test-secret-0123",
    PUBLIC_BASE_URL: "https://tickets.example.com",
    ALLOW_LOCAL_PROVIDERS: "1",
    ...overrides,
  });
  db = openDatabase(env.DATABASE_PATH);
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "sdt-results-"));
  openDb();
  texts = [];
});
afterEach(() => {
  db.$client.close();
  rmSync(dir, { recursive: true, force: true });
});

type Person = { userId: number; phone: string };
/** The fixture's rows, as many as were asked for. */
const pair = (rows: Person[]) => rows as [Person, Person];

/** A night with two men and two women, paid, in the state asked for. */
async function night(status: "upcoming" | "started" | "ended" = "ended") {
  const event = await insertEvent(db, env.UPLOADS_DIR, {
    name: "Harbour Mixer",
    startsAt: start,
    durationHours: 3,
    timeZone: "Australia/Sydney",
    status,
    startedAt: status === "upcoming" ? null : start,
    endedAt: status === "ended" ? plannedEnd : null,
  });
  const [m1, m2] = pair(insertPaidBookings(db, event.id, 2, { gender: "male" }));
  const [f1, f2] = pair(insertPaidBookings(db, event.id, 2, { gender: "female" }));
  return { event, m1, m2, f1, f2 };
}

function rate(eventId: number, from: Person, to: Person, value: "like" | "dislike") {
  db.insert(feedback)
    .values({ eventId, fromUserId: from.userId, toUserId: to.userId, value, clientTs: clock, updatedAt: clock })
    .run();
}

const statusOf = (eventId: number) => db.select().from(events).where(eq(events.id, eventId)).get()!;
const textsTo = (p: Person) => texts.filter((t) => t.to === p.phone).map((t) => t.body);

describe("the automatic end", () => {
  it("ends a night nobody ended 3 hours after its planned end, with End Event's texts", async () => {
    const { event, m1, f2 } = await night("started");
    const upcoming = await insertEvent(db, env.UPLOADS_DIR, { startsAt: start, durationHours: 3 });
    insertPaidBookings(db, upcoming.id, 2);
    clock = plannedEnd;
    await runUntil(plannedEnd + 3 * HOUR - MINUTE);
    expect(statusOf(event.id).status).toBe("started");
    expect(texts).toEqual([]);

    await runUntil(plannedEnd + 3 * HOUR);
    expect(statusOf(event.id)).toMatchObject({ status: "ended", endedAt: plannedEnd + 3 * HOUR });
    expect(texts).toHaveLength(4);
    // 1 am on Sunday at the venue: the results are today at noon.
    expect(textsTo(m1)).toEqual([
      expect.stringMatching(
        /^Thanks for coming to Harbour Mixer! Rate the people you met by 12:00 PM AEDT today, when your matches arrive: https:\/\/tickets\.example\.com\/ParticipantFeedback\?par1=\d+&par2=\d+&t=/,
      ),
    ]);
    expect(textsTo(f2)[0]).not.toContain("EventFeedback");

    // A night that never started is left for the organiser to start or cancel.
    await runUntil(plannedEnd + 6 * HOUR);
    expect(statusOf(upcoming.id).status).toBe("upcoming");
    expect(texts).toHaveLength(4);
  });
});

describe("the rating reminder", () => {
  it("texts once, 3 hours before the results, only those who have not rated everyone they met", async () => {
    const { event, m1, m2, f1, f2 } = await night("ended");
    clock = plannedEnd;
    // m1 rated both women; f1 rated one of the two men; m2 and f2 rated nobody.
    rate(event.id, m1, f1, "like");
    rate(event.id, m1, f2, "dislike");
    rate(event.id, f1, m1, "like");

    await runUntil(resultsAt - 3 * HOUR - MINUTE);
    expect(texts).toEqual([]);
    await runUntil(resultsAt - 3 * HOUR);
    expect(texts.map((t) => t.to).sort()).toEqual([m2.phone, f1.phone, f2.phone].sort());
    expect(textsTo(f1)).toEqual([
      expect.stringMatching(
        /^A reminder from Harbour Mixer: rate the people you met before your matches arrive at 12:00 PM AEDT today: https:\/\/tickets\.example\.com\/ParticipantFeedback\?/,
      ),
    ]);

    // Once: not again on later ticks, after a restart, or when someone finishes meanwhile.
    db.$client.close();
    openDb();
    rate(event.id, m2, f1, "like");
    await runUntil(resultsAt - MINUTE);
    expect(texts).toHaveLength(3);
  });

  it("sends none when RATING_REMINDER_HOURS is empty", async () => {
    db.$client.close();
    openDb({ RATING_REMINDER_HOURS: "" });
    await night("ended");
    clock = plannedEnd;
    await runUntil(resultsAt - MINUTE);
    expect(texts).toEqual([]);
  });
});

describe("the release", () => {
  it("releases at resultsAt and texts each participant their matches once, across a restart", async () => {
    const { event, m1, m2, f1, f2 } = await night("ended");
    clock = resultsAt - 2 * HOUR;
    rate(event.id, m1, f1, "like");
    rate(event.id, f1, m1, "like");
    rate(event.id, m1, f2, "like");
    rate(event.id, f2, m1, "like");
    rate(event.id, m2, f1, "like"); // not liked back
    await runUntil(resultsAt - MINUTE);
    texts = [];
    expect(statusOf(event.id).resultsReleasedAt).toBeNull();

    await runUntil(resultsAt);
    expect(statusOf(event.id).resultsReleasedAt).toBe(resultsAt);
    expect(texts).toHaveLength(4);
    const reportLink = /https:\/\/tickets\.example\.com\/EventFeedback\?par1=\d+&par2=\d+&t=\S+$/;
    expect(textsTo(m1)).toEqual([
      expect.stringMatching(/^Your results from Harbour Mixer are in: 2 mutual matches! See who matched with you: /),
    ]);
    expect(textsTo(f1)).toEqual([expect.stringMatching(/: 1 mutual match! /)]);
    // Nobody liked m2 back: a kind line, not "0 matches".
    expect(textsTo(m2)).toEqual([
      expect.stringMatching(/^Your results from Harbour Mixer are in\. No mutual match this time, but thank you/),
    ]);
    for (const p of [m1, m2, f1, f2]) expect(textsTo(p)[0]).toMatch(reportLink);

    // A restart, two servers, and the organiser's button: nothing goes twice.
    db.$client.close();
    openDb();
    const [first, second] = [scheduler(), scheduler()];
    await Promise.all([first.tick(), second.tick()]);
    await runUntil(resultsAt + HOUR);
    expect(await releaseResults(deps(), event.id)).toEqual({
      releasedAt: resultsAt,
      releasedNow: false,
      sent: 0,
      failed: 0,
    });
    expect(texts).toHaveLength(4);
  });

  it("waits for the end: a night still running at its results time is released once ended", async () => {
    const { event } = await night("started");
    db.update(events).set({ resultsAt: plannedEnd }).where(eq(events.id, event.id)).run();
    clock = plannedEnd;
    await runUntil(plannedEnd + 3 * HOUR - MINUTE);
    expect(statusOf(event.id)).toMatchObject({ status: "started", resultsReleasedAt: null });
    await runUntil(plannedEnd + 3 * HOUR + MINUTE);
    expect(statusOf(event.id)).toMatchObject({ status: "ended", resultsReleasedAt: expect.any(Number) });
    // The End text and the results text, for each of the four.
    expect(texts).toHaveLength(8);
  });
});

// Issue 46, item 6: a match may have chosen Email, Instagram or Nothing, so the text promises no
// numbers. One wording, whatever the night's format and whichever matches it counts.
describe("the results wording", () => {
  it("says See who matched with you, never with their numbers, in the text and the email at every format", async () => {
    for (const format of ["women_men", "one_group", "mixed"] as const) {
      const event = await insertEvent(db, env.UPLOADS_DIR, { name: "Harbour Mixer", format });
      for (const [matches, friends] of [
        [2, 0],
        [0, 1],
        [1, 2],
      ] as const) {
        const text = resultsText(env, event, 1, matches, friends);
        expect(text, `${format} ${matches}/${friends}`).toMatch(/! See who matched with you: https:\/\//);
        const email = resultsEmail({
          sender: { businessName: "Tickets", supportEmail: "hello@example.com" },
          event,
          name: "Priya",
          reportUrl: "https://tickets.example.com/r",
          matches,
          friends,
        });
        expect(JSON.stringify(email)).toContain("See who matched with you:");
        expect(`${text} ${JSON.stringify(email)}`).not.toContain("with their numbers");
      }
    }
  });
});
