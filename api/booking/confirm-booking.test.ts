import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { bookings, type Event } from "../../db/schema.ts";
import { type BrowserClient, browserClient, suiteTestServer } from "../../test/api-harness.ts";
import { yearLike } from "../../test/clock.ts";
import { insertEvent, insertPaidBookings } from "../../test/fixtures.ts";
import { isSelfArrivalOpen } from "../night/check-in.ts";

// An attendee who typed their own code on the confirm-booking page at home, days ahead, was counted as
// arrived. Now the code is still checked, but only staff, or anyone during the night (2 hours before
// the start until its end), record an arrival (docs/api.md, confirm-booking).

const PASSWORD = "correct horse battery staple";
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const server = suiteTestServer();
let admin: BrowserClient;
let attendee: BrowserClient;

beforeAll(async () => {
  admin = browserClient(server.url);
  attendee = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
});

const now = () => server.deps.now();
const storedCheckIn = (bookingId: number) =>
  server.deps.db.select().from(bookings).where(eq(bookings.id, bookingId)).get()?.checkedInAt ?? null;

let codes = 0;
/** A paid booking with a known door code at an event starting `startsIn` from now (2 hours long). */
async function booking(startsIn: number, overrides: Partial<Event> = {}) {
  const { db, env } = server.deps;
  const event = await insertEvent(db, env.UPLOADS_DIR, { startsAt: now() + startsIn, ...overrides });
  const [a] = insertPaidBookings(db, event.id, 1, { paidAt: now() - DAY });
  const code = `RIGHTCODE${++codes}`;
  db.update(bookings).set({ uniqueCode: code }).where(eq(bookings.id, a!.bookingId)).run();
  const confirm = async (client: BrowserClient = attendee, typed = code) => {
    const reply = await client.postJson("/api/confirm-booking", {
      eventID: event.id,
      userID: a!.userId,
      uniqueCode: typed,
    });
    expect(reply.status).toBe(200);
    return reply.json();
  };
  return { event, ...a!, code, confirm };
}

describe("POST /api/confirm-booking records an arrival only at the night, or for staff", () => {
  it("an attendee confirming their own code days ahead is told it is right, and is not checked in", async () => {
    const b = await booking(5 * DAY);
    expect(await b.confirm(attendee, "WRONGCODE2")).toEqual({ confirmed: false });
    expect(await b.confirm()).toEqual({ confirmed: true, checkedIn: false });
    expect(storedCheckIn(b.bookingId)).toBeNull();

    // The organiser's Overview and the door roster agree: nobody has arrived.
    const summary = (await (await admin.get(`/api/admin-event-summary/${b.event.id}`)).json()) as {
      checkedIn: number;
    };
    expect(summary.checkedIn).toBe(0);
    const roster = (await (await admin.get(`/api/admin-event/${b.event.id}/roster`)).json()) as {
      attendees: { userID: number; checkedInAt: string | null }[];
    };
    expect(roster.attendees).toEqual([expect.objectContaining({ userID: b.userId, checkedInAt: null })]);
  });

  it("staff (the admin session) confirming the code learn whose ticket it is, and record the arrival once the doors open", async () => {
    const ahead = await booking(5 * DAY);
    // Days ahead, as the review did: the code is right, but the doors are shut, so nobody arrived.
    const early = await ahead.confirm(admin);
    expect(early).toEqual({
      confirmed: true,
      checkedIn: false,
      name: expect.stringMatching(/^Attendee /),
      doorsOpenAt: new Date(ahead.event.startsAt - 3 * HOUR).toISOString(),
    });
    expect(storedCheckIn(ahead.bookingId)).toBeNull();
    expect(await ahead.confirm()).toEqual({ confirmed: true, checkedIn: false });

    // Once the doors are open (3 hours before the start), before attendees' own codes count (2 hours).
    const b = await booking(3 * HOUR - MINUTE);
    const before = now();
    const reply = (await b.confirm(admin)) as { confirmed: boolean; checkedIn: boolean; checkedInAt: string };
    expect(reply).toEqual({
      confirmed: true,
      checkedIn: true,
      checkedInAt: expect.any(String),
      name: expect.any(String),
    });
    expect(Date.parse(reply.checkedInAt)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(reply.checkedInAt)).toBeLessThanOrEqual(now());
    expect(storedCheckIn(b.bookingId)).toBe(Date.parse(reply.checkedInAt));
    // The attendee confirming later at home sees the arrival that stands, and it does not move.
    server.advance(MINUTE);
    expect(await b.confirm()).toEqual({ confirmed: true, checkedIn: true, checkedInAt: reply.checkedInAt });
    expect((await (await admin.get(`/api/admin-event-summary/${b.event.id}`)).json()) as object).toMatchObject({
      checkedIn: 1,
    });
  });

  it("opens to attendees 2 hours before the start", async () => {
    const early = await booking(2 * HOUR + MINUTE);
    expect(await early.confirm()).toEqual({ confirmed: true, checkedIn: false });
    const onTime = await booking(2 * HOUR - MINUTE);
    expect(await onTime.confirm()).toMatchObject({ confirmed: true, checkedIn: true });
    expect(storedCheckIn(onTime.bookingId)).toBeGreaterThan(now() - MINUTE);
  });

  it("closes at the planned end (start + duration), or when the organiser ends the night", async () => {
    const over = await booking(-2 * HOUR - MINUTE);
    expect(await over.confirm()).toEqual({ confirmed: true, checkedIn: false });
    const lastMinute = await booking(-2 * HOUR + MINUTE);
    expect(await lastMinute.confirm()).toMatchObject({ checkedIn: true });

    const ended = await booking(-30 * MINUTE);
    expect((await admin.postJson("/api/start-event", { eventId: ended.event.id })).status).toBe(200);
    expect((await admin.postJson("/api/end-event", { eventId: ended.event.id })).status).toBe(200);
    expect(await ended.confirm()).toEqual({ confirmed: true, checkedIn: false });
    expect(storedCheckIn(ended.bookingId)).toBeNull();
  });

  it("follows the organiser's early or late start", async () => {
    // Started 3 hours early: the doors opened for attendees 2 hours before that.
    const early = await booking(4 * HOUR, { status: "started", startedAt: now() - HOUR });
    expect(await early.confirm()).toMatchObject({ checkedIn: true });
    // Started 40 minutes late: the night runs 2 hours from then.
    const late = await booking(-2 * HOUR - 10 * MINUTE, { status: "started", startedAt: now() - 80 * MINUTE });
    expect(await late.confirm()).toMatchObject({ checkedIn: true });
  });
});

describe("isSelfArrivalOpen", () => {
  const start = Date.UTC(yearLike(2031), 0, 10, 9, 0);
  const night = { status: "upcoming", startsAt: start, startedAt: null, endedAt: null, durationHours: 2.5 } as const;
  it.each([
    ["a week ahead", night, start - 7 * DAY, false],
    ["2 hours before the start", night, start - 2 * HOUR, true],
    ["just before that", night, start - 2 * HOUR - 1, false],
    ["at the planned end", night, start + 2.5 * HOUR, true],
    ["just after it", night, start + 2.5 * HOUR + 1, false],
    ["a cancelled night", { ...night, status: "cancelled" }, start, false],
    [
      "an ended night, before its planned end",
      { ...night, status: "ended", endedAt: start + HOUR },
      start + HOUR,
      false,
    ],
    [
      "a night started an hour late, past its planned end",
      { ...night, status: "started", startedAt: start + HOUR },
      start + 3 * HOUR,
      true,
    ],
  ] as const)("%s", (_label, event, at, open) => {
    expect(isSelfArrivalOpen(event, at)).toBe(open);
  });
});
