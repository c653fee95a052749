import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Db, openDatabase } from "../../db/client.ts";
import { bookings, events } from "../../db/schema.ts";
import { yearLike } from "../../test/clock.ts";
import { recordingSms } from "../../test/fakes/sms.ts";
import { insertEvent, insertPaidBookings } from "../../test/fixtures.ts";
import { type Env, parseEnv } from "../env.ts";
import { silentLogger } from "../lib/log.ts";
import { backgroundJobs } from "../ops/jobs.ts";
import { createScheduler } from "../ops/scheduler.ts";
import { createLocalPayments } from "../providers/payments/local.ts";
import { dueReminder } from "./reminders.ts";

// Dates in a year laid out like 2031, always ahead of the clock (test/clock.ts).
const Y = yearLike(2031);

const HOUR = 3_600_000;
const MINUTE = 60_000;

let dir: string;
let env: Env;
let db: Db;
let clock: number;
let texts: { to: string; body: string }[];

const sms = recordingSms((text) => texts.push(text));

/** A server's scheduler over the database file: what `server.ts` starts, with the test's clock. */
const scheduler = () =>
  createScheduler(
    { log: silentLogger, now: () => clock },
    backgroundJobs({
      db,
      env,
      sms,
      payments: createLocalPayments(env, db, () => clock),
      log: silentLogger,
      now: () => clock,
    }),
  );

/** Moves the clock minute by minute, ticking like the server does, so no moment is skipped. */
async function runUntil(until: number, s = scheduler()) {
  while (clock < until) {
    clock = Math.min(until, clock + MINUTE);
    await s.tick();
  }
}

const start = Date.parse(`${Y}-03-14T08:00:00.000Z`);

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "sdt-reminders-"));
  env = parseEnv({
    NODE_ENV: "test",
    DATABASE_PATH: join(dir, "app.db"),
    UPLOADS_DIR: join(dir, "uploads"),
    SESSION_SECRET: "test-secret-test-secret-test-secret-0123",
    PUBLIC_BASE_URL: "https://tickets.example.com",
    ALLOW_LOCAL_PROVIDERS: "1",
  });
  db = openDatabase(env.DATABASE_PATH);
  texts = [];
});
afterEach(() => {
  db.$client.close();
  rmSync(dir, { recursive: true, force: true });
});

async function sydneyEvent() {
  return insertEvent(db, env.UPLOADS_DIR, {
    name: "Harbour Mixer",
    address: "10 Circular Quay W, Sydney",
    startsAt: start,
    timeZone: "Australia/Sydney",
  });
}

function paidAt(eventId: number, at: number, count = 1) {
  const rows = insertPaidBookings(db, eventId, count);
  for (const r of rows) db.update(bookings).set({ paidAt: at }).where(eq(bookings.id, r.bookingId)).run();
  return rows;
}

describe("reminders", () => {
  it("texts each paid attendee once 24 hours and once 2 hours before, with the local time and ticket link", async () => {
    const event = await sydneyEvent();
    const [a, b] = paidAt(event.id, start - 3 * 24 * HOUR, 2);
    clock = start - 25 * HOUR;
    await runUntil(start + HOUR);

    for (const attendee of [a!, b!]) {
      const mine = texts.filter((t) => t.to === attendee.phone);
      expect(mine.map((t) => t.body)).toEqual([
        `Reminder: Harbour Mixer is tomorrow, ${Y}-03-14 07:00 PM AEDT, at 10 Circular Quay W, Sydney. Your ticket: https://tickets.example.com/tickets`,
        `Reminder: Harbour Mixer is today, ${Y}-03-14 07:00 PM AEDT, at 10 Circular Quay W, Sydney. Your ticket: https://tickets.example.com/tickets`,
      ]);
    }
  });

  it("sends at the moment, not before: nothing at 24 hours and one minute ahead", async () => {
    const event = await sydneyEvent();
    paidAt(event.id, start - 3 * 24 * HOUR);
    clock = start - 26 * HOUR;
    await runUntil(start - 24 * HOUR - MINUTE);
    expect(texts).toEqual([]);
    await runUntil(start - 24 * HOUR);
    expect(texts).toHaveLength(1);
  });

  it("never texts a refunded attendee, or anyone for an ended event", async () => {
    const event = await sydneyEvent();
    const [refunded] = paidAt(event.id, start - 3 * 24 * HOUR);
    db.update(bookings).set({ status: "refunded" }).where(eq(bookings.id, refunded!.bookingId)).run();
    const ended = await insertEvent(db, env.UPLOADS_DIR, { startsAt: start, status: "ended" });
    paidAt(ended.id, start - 3 * 24 * HOUR);
    clock = start - 25 * HOUR;
    await runUntil(start);
    expect(texts).toEqual([]);
  });

  it("sends nothing twice after a restart, a second server or a retried tick", async () => {
    const event = await sydneyEvent();
    paidAt(event.id, start - 3 * 24 * HOUR, 3);
    clock = start - 24 * HOUR;
    await scheduler().tick();
    expect(texts).toHaveLength(3);

    // A restart: a new connection and a new scheduler on the same file, and a second server beside it.
    db.$client.close();
    db = openDatabase(env.DATABASE_PATH);
    const [first, second] = [scheduler(), scheduler()];
    await Promise.all([first.tick(), second.tick(), first.tick()]);
    clock += 30 * MINUTE;
    await second.tick();
    expect(texts).toHaveLength(3);
    await runUntil(start - 2 * HOUR);
    expect(texts).toHaveLength(6);
  });

  it("gives someone who pays under 24 hours ahead the first reminder at once, unless the second is near", async () => {
    const event = await sydneyEvent();
    clock = start - 5 * HOUR;
    const [late] = paidAt(event.id, clock);
    await runUntil(start - 90 * MINUTE);
    const [lastMinute] = paidAt(event.id, clock);
    await runUntil(start);
    // Both say "today": the first went at 2 pm on the day of a 7 pm event.
    expect(texts.filter((t) => t.to === late!.phone).map((t) => t.body.split(",")[0])).toEqual([
      "Reminder: Harbour Mixer is today",
      "Reminder: Harbour Mixer is today",
    ]);
    // Paid after the 2-hour moment had passed: no reminder at all (the confirmation text has the time).
    expect(texts.filter((t) => t.to === lastMinute!.phone)).toEqual([]);
  });

  it("sends only the latest reminder due after the server was down through an earlier one", async () => {
    const event = await sydneyEvent();
    const [a] = paidAt(event.id, start - 3 * 24 * HOUR);
    clock = start - 90 * MINUTE;
    await scheduler().tick();
    expect(texts.filter((t) => t.to === a!.phone).map((t) => t.body.split(",")[0])).toEqual([
      "Reminder: Harbour Mixer is today",
    ]);
  });

  it("follows REMINDER_HOURS, and sends none when it is empty", async () => {
    const event = await sydneyEvent();
    paidAt(event.id, start - 3 * 24 * HOUR);
    env = { ...env, REMINDER_HOURS: [] };
    clock = start - 25 * HOUR;
    await runUntil(start);
    expect(texts).toEqual([]);
    env = { ...env, REMINDER_HOURS: [48] };
    db.update(events)
      .set({ startsAt: start + 3 * 24 * HOUR })
      .where(eq(events.id, event.id))
      .run();
    await runUntil(start + 24 * HOUR);
    expect(texts.map((t) => t.body.split(",")[0])).toEqual(["Reminder: Harbour Mixer is in 2 days"]);
  });
});

describe("dueReminder", () => {
  const hours = [24, 2];
  it("is the latest moment passed, skipped when it passed before the payment", () => {
    expect(dueReminder({ paidAt: 0 }, start, hours, start - 25 * HOUR)).toBeNull();
    expect(dueReminder({ paidAt: 0 }, start, hours, start - 24 * HOUR)).toBe(24);
    expect(dueReminder({ paidAt: 0 }, start, hours, start - 2 * HOUR)).toBe(2);
    expect(dueReminder({ paidAt: start - HOUR }, start, hours, start - 30 * MINUTE)).toBeNull();
    expect(dueReminder({ paidAt: 0 }, start, hours, start)).toBeNull();
  });
});
