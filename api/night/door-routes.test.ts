import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { ticketCodeHash } from "../../common/ticket-code.ts";
import { bookings, users } from "../../db/schema.ts";
import { type BrowserClient, browserClient, suiteTestServer, withTestServer } from "../../test/api-harness.ts";
import { insertEvent, insertHeldBooking, insertPaidBookings } from "../../test/fixtures.ts";
import { CHECK_IN_CLOCK_SKEW_MS, CHECK_IN_MAX_AGE_MS } from "./check-in.ts";
import type { Roster } from "./roster.ts";

const PASSWORD = "correct horse battery staple";
const MINUTE = 60_000;

const server = suiteTestServer();
let admin: BrowserClient;
let anon: BrowserClient;

beforeAll(async () => {
  admin = browserClient(server.url);
  anon = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
});

const json = async <T = Record<string, unknown>>(response: Response) => (await response.json()) as T;
const now = () => server.deps.now();
const storedCheckIn = (bookingId: number) =>
  server.deps.db.select().from(bookings).where(eq(bookings.id, bookingId)).get()?.checkedInAt ?? null;
const iso = (ms: number) => new Date(ms).toISOString();

/** An event with `count` paid attendees, alternating men and women. */
async function eventWith(count: number, name = "Door Night") {
  const { db, env } = server.deps;
  // A night under way for half an hour, booked the day before: the door takes taps from then on.
  const event = await insertEvent(db, env.UPLOADS_DIR, { name, status: "started", startsAt: now() - 30 * MINUTE });
  return { event, attendees: insertPaidBookings(db, event.id, count, { paidAt: now() - 24 * 60 * MINUTE }) };
}

const checkIn = (client: BrowserClient, eventID: number, userID: number, clientTs: number) =>
  client.postJson("/api/check-in", { eventID, userID, clientTs });
const undo = (client: BrowserClient, eventID: number, userID: number) =>
  client.postJson("/api/undo-check-in", { eventID, userID });
const roster = async (eventID: number) => json<Roster>(await admin.get(`/api/admin-event/${eventID}/roster`));

describe("the door roster", () => {
  it("lists the paid, unrefunded attendees by name with thumbnail, gender, phone ending and check-in", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { name: "Roster Night", timeZone: "Australia/Perth" });
    const [zara] = insertPaidBookings(db, event.id, 1, { name: "Zara Khan", gender: "female" });
    const [arjun] = insertPaidBookings(db, event.id, 1, { name: "arjun Mehta", gender: "male" });
    const [refunded] = insertPaidBookings(db, event.id, 1, { name: "Refunded Ravi", gender: "male" });
    db.update(bookings).set({ status: "refunded" }).where(eq(bookings.id, refunded!.bookingId)).run();
    insertHeldBooking(db, event.id, { name: "Still Paying" });
    db.update(users)
      .set({ thumbName: `${"a".repeat(32)}-thumb.jpg` })
      .where(eq(users.id, zara!.userId))
      .run();
    const other = await eventWith(2, "Another Night");

    const response = await admin.get(`/api/admin-event/${event.id}/roster`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const text = await response.text();
    const body = JSON.parse(text) as Roster;
    expect(body).toEqual({
      event: {
        id: event.id,
        event_name: "Roster Night",
        EventDateTime: iso(event.startsAt),
        event_status: "upcoming",
        time_zone: "Australia/Perth",
        doorsOpenAt: iso(event.startsAt - 3 * 60 * MINUTE),
      },
      codeKey: expect.stringMatching(/^[0-9a-f]{64}$/),
      attendees: [
        {
          userID: arjun!.userId,
          name: "arjun Mehta",
          gender: "male",
          thumbName: `${"0".repeat(32)}-thumb.jpg`,
          phoneLast4: arjun!.phone.slice(-4),
          checkedInAt: null,
          age: expect.any(Number),
          codeHash: null,
        },
        {
          userID: zara!.userId,
          name: "Zara Khan",
          gender: "female",
          thumbName: `${"a".repeat(32)}-thumb.jpg`,
          phoneLast4: zara!.phone.slice(-4),
          checkedInAt: null,
          age: expect.any(Number),
          codeHash: null,
        },
      ],
      refunded: [{ userID: refunded!.userId, name: "Refunded Ravi" }],
    });
    // Kept on a phone for offline use: no more of a number than its last digits.
    expect(text).not.toContain(zara!.phone.slice(-8));
    expect(body.attendees.map((a) => a.userID)).not.toContain(other.attendees[0]!.userId);
  });

  it("carries each ticket's keyed code hash for the door, never the code itself", async () => {
    const { event, attendees } = await eventWith(2, "Code Night");
    const codes = ["6M8N57X8FY", "HJKMNPQRST"];
    for (const [i, a] of attendees.entries()) {
      server.deps.db.update(bookings).set({ uniqueCode: codes[i]! }).where(eq(bookings.id, a.bookingId)).run();
    }
    const response = await admin.get(`/api/admin-event/${event.id}/roster`);
    const text = await response.clone().text();
    const body = await json<Roster>(response);
    for (const code of codes) {
      expect(text).not.toContain(code);
      expect(text.toLowerCase()).not.toContain(code.toLowerCase());
    }
    const key = body.codeKey ?? "";
    expect(key).not.toBe("");
    for (const [i, a] of attendees.entries()) {
      const row = body.attendees.find((r) => r.userID === a.userId);
      expect(row?.codeHash).toBe(await ticketCodeHash(key, codes[i]!.toLowerCase()));
    }
  });

  it("answers 404 for an unknown event and 400 for a malformed id", async () => {
    expect((await admin.get("/api/admin-event/987654/roster")).status).toBe(404);
    expect((await admin.get("/api/admin-event/abc/roster")).status).toBe(400);
  });

  it.each([
    ["GET", "/api/admin-event/1/roster", null],
    ["GET", "/api/admin-event/abc/roster", null],
    ["POST", "/api/check-in", { eventID: 1, userID: 1, clientTs: Date.now() }],
    ["POST", "/api/check-in", { nonsense: true }],
    ["POST", "/api/undo-check-in", { eventID: 1, userID: 1 }],
  ])("%s %s answers 401 without the admin session", async (method, path, payload) => {
    const response = method === "GET" ? await anon.get(path) : await anon.postJson(path, payload);
    expect(response.status).toBe(401);
    expect(await json(response)).toMatchObject({ success: false, error: expect.any(String) });
  });
});

describe("checking in", () => {
  it("records the tap's time, keeps the earliest check-in, and never moves it on a replay", async () => {
    const { event, attendees } = await eventWith(2);
    const [a] = attendees;
    const tap = now() - 10 * MINUTE;

    const first = await checkIn(admin, event.id, a!.userId, tap);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(await json(first)).toEqual({ success: true, checkedInAt: iso(tap) });
    expect(storedCheckIn(a!.bookingId)).toBe(tap);

    // The same tap replayed, and a second phone's later tap: neither changes it.
    expect(await json(await checkIn(admin, event.id, a!.userId, tap))).toEqual({
      success: true,
      checkedInAt: iso(tap),
    });
    const later = await checkIn(admin, event.id, a!.userId, now());
    expect(await json(later)).toEqual({ success: true, checkedInAt: iso(tap) });
    expect(storedCheckIn(a!.bookingId)).toBe(tap);

    // An earlier tap that was waiting offline on another phone arrives last, and wins.
    const earlier = tap - 5 * MINUTE;
    expect(await json(await checkIn(admin, event.id, a!.userId, earlier))).toEqual({
      success: true,
      checkedInAt: iso(earlier),
    });
    expect(storedCheckIn(a!.bookingId)).toBe(earlier);

    const list = await roster(event.id);
    expect(list.attendees.find((x) => x.userID === a!.userId)?.checkedInAt).toBe(iso(earlier));
    expect(list.attendees.find((x) => x.userID === attendees[1]!.userId)?.checkedInAt).toBeNull();
  });

  it("accepts ids as numeric text, as a scanned ticket's link carries them", async () => {
    const { event, attendees } = await eventWith(1);
    const tap = now();
    const response = await admin.postJson("/api/check-in", {
      eventID: String(event.id),
      userID: String(attendees[0]!.userId),
      clientTs: tap,
    });
    expect(await json(response)).toEqual({ success: true, checkedInAt: iso(tap) });
  });

  it("undoes a check-in, twice harmlessly, and lets the attendee be checked in again", async () => {
    const { event, attendees } = await eventWith(1);
    const [a] = attendees;
    await checkIn(admin, event.id, a!.userId, now() - MINUTE);
    const undone = await undo(admin, event.id, a!.userId);
    expect(undone.status).toBe(200);
    expect(undone.headers.get("cache-control")).toBe("no-store");
    expect(await json(undone)).toEqual({ success: true, checkedInAt: null });
    expect(storedCheckIn(a!.bookingId)).toBeNull();
    expect((await roster(event.id)).attendees[0]?.checkedInAt).toBeNull();
    expect(await json(await undo(admin, event.id, a!.userId))).toEqual({ success: true, checkedInAt: null });

    const again = now();
    expect(await json(await checkIn(admin, event.id, a!.userId, again))).toEqual({
      success: true,
      checkedInAt: iso(again),
    });
  });

  it("refuses a refunded booking and an unpaid one with 409, and an unknown one with 404", async () => {
    const { db } = server.deps;
    const { event, attendees } = await eventWith(1);
    const [refunded] = attendees;
    db.update(bookings).set({ status: "refunded" }).where(eq(bookings.id, refunded!.bookingId)).run();
    const held = insertHeldBooking(db, event.id);

    const refusedRefund = await checkIn(admin, event.id, refunded!.userId, now());
    expect(refusedRefund.status).toBe(409);
    expect(await json(refusedRefund)).toEqual({ success: false, error: "this booking was refunded", code: "refunded" });
    expect((await undo(admin, event.id, refunded!.userId)).status).toBe(409);
    const refusedHold = await checkIn(admin, event.id, held.userId, now());
    expect(refusedHold.status).toBe(409);
    expect(await json(refusedHold)).toEqual({ success: false, error: "this booking is not paid", code: "not_paid" });
    expect(storedCheckIn(refunded!.bookingId)).toBeNull();
    expect(storedCheckIn(held.bookingId)).toBeNull();

    expect((await checkIn(admin, event.id, 987654, now())).status).toBe(404);
    expect((await undo(admin, event.id, 987654)).status).toBe(404);
    // A real attendee, but of another event: no such booking here.
    const other = await eventWith(1, "Elsewhere");
    expect((await checkIn(admin, event.id, other.attendees[0]!.userId, now())).status).toBe(404);
  });

  it("refuses a tap time from the future beyond a little clock skew, or from more than a week ago", async () => {
    const { event, attendees } = await eventWith(1);
    const [a] = attendees;
    const ahead = await checkIn(admin, event.id, a!.userId, now() + CHECK_IN_CLOCK_SKEW_MS + MINUTE);
    expect(ahead.status).toBe(400);
    expect(await json(ahead)).toMatchObject({
      success: false,
      error: expect.stringMatching(/^This tap is dated in the future/),
    });
    expect((await checkIn(admin, event.id, a!.userId, now() - CHECK_IN_MAX_AGE_MS - MINUTE)).status).toBe(400);
    expect(storedCheckIn(a!.bookingId)).toBeNull();

    // A phone a minute fast is fine: its time is what is kept.
    const fast = now() + MINUTE;
    expect(await json(await checkIn(admin, event.id, a!.userId, fast))).toEqual({
      success: true,
      checkedInAt: iso(fast),
    });
  });

  it("answers 400 for malformed bodies", async () => {
    for (const body of [
      {},
      { eventID: 1, userID: 1 },
      { eventID: 1, userID: 1, clientTs: "now" },
      { eventID: 1, userID: 1, clientTs: 1.5 },
      { eventID: 0, userID: 1, clientTs: Date.now() },
      { eventID: 1, userID: "x", clientTs: Date.now() },
    ]) {
      expect((await admin.postJson("/api/check-in", body)).status).toBe(400);
    }
    expect((await admin.postJson("/api/undo-check-in", { eventID: 1 })).status).toBe(400);
  });
});

describe("the attendee's confirm-booking page", () => {
  /** A paid booking with a known door code, as send-confirmation leaves it. */
  async function bookingWithCode(code: string) {
    const { event, attendees } = await eventWith(1, "Code Night");
    const [a] = attendees;
    server.deps.db.update(bookings).set({ uniqueCode: code }).where(eq(bookings.id, a!.bookingId)).run();
    const attempt = (uniqueCode: string, client: BrowserClient = anon) =>
      client.postJson("/api/confirm-booking", { eventID: event.id, userID: a!.userId, uniqueCode });
    return { event, ...a!, attempt };
  }

  it("accepts the code whatever its letter case and surrounding spaces, and nothing else", async () => {
    const b = await bookingWithCode("ABCDEFGHJK");
    expect(await json(await b.attempt("ABCDEFGHJ"))).toEqual({ confirmed: false });
    expect(await json(await b.attempt("ABCDE FGHJK"))).toEqual({ confirmed: false });
    expect(storedCheckIn(b.bookingId)).toBeNull();
    const right = await json<{ confirmed: boolean; checkedInAt: string }>(await b.attempt("  abcdefGHJK \t"));
    expect(right.confirmed).toBe(true);
    expect(storedCheckIn(b.bookingId)).toBe(Date.parse(right.checkedInAt));
  });

  it("limits wrong codes per booking (5 in 10 minutes), while another booking on the same Wi-Fi still works", async () => {
    const b = await bookingWithCode("MNPQRSTUVW");
    const neighbour = await bookingWithCode("WXYZ234567");
    for (let i = 0; i < 5; i++) expect(await json(await b.attempt(`WRONG${i}`))).toEqual({ confirmed: false });
    const locked = await b.attempt("MNPQRSTUVW");
    expect(locked.status).toBe(429);
    expect(await json(locked)).toMatchObject({ success: false });
    expect(storedCheckIn(b.bookingId)).toBeNull();

    // Same address, another booking: not affected.
    expect(await json(await neighbour.attempt("wxyz234567"))).toMatchObject({ confirmed: true });

    server.advance(10 * MINUTE + 1000);
    expect(await json(await b.attempt("mnpqrstuvw"))).toMatchObject({ confirmed: true });
  });

  it("stops one address after 200 wrong codes in 10 minutes, across any bookings", async () => {
    // Its own server, so the address count starts at zero whatever ran before.
    await withTestServer(async (own) => {
      const { db, env } = own.deps;
      const event = await insertEvent(db, env.UPLOADS_DIR);
      const [a] = insertPaidBookings(db, event.id, 1);
      db.update(bookings).set({ uniqueCode: "HJKMNPQRST" }).where(eq(bookings.id, a!.bookingId)).run();
      const client = browserClient(own.url);
      const guess = (userID: number, uniqueCode: string) =>
        client.postJson("/api/confirm-booking", { eventID: event.id, userID, uniqueCode });

      // A script walking through bookings, 4 guesses each: never the per-booking limit.
      for (let i = 0; i < 200; i++) {
        const reply = await guess(900_000 + Math.floor(i / 4), `GUESS${i}`);
        expect(reply.status).toBe(200);
      }
      const blocked = await guess(a!.userId, "HJKMNPQRST");
      expect(blocked.status).toBe(429);
      expect(
        db.select().from(bookings).where(eq(bookings.id, a!.bookingId)).get()?.checkedInAt,
        "a blocked right code changes nothing",
      ).toBeNull();

      own.advance(10 * MINUTE + 1000);
      expect(await json(await guess(a!.userId, "HJKMNPQRST"))).toMatchObject({ confirmed: true });
    });
  });
});
