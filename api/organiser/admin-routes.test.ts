import { existsSync, readdirSync } from "node:fs";
import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { utcToWallClock } from "../../common/time-zone.ts";
import { wallClockToUtc } from "../../common/venue-time-input.ts";
import { bookings, events, outboxMessages, refunds } from "../../db/schema.ts";
import { type BrowserClient, browserClient, suiteTestServer } from "../../test/api-harness.ts";
import { yearLike } from "../../test/clock.ts";
import { recordingSms } from "../../test/fakes/sms.ts";
import { insertEvent, insertPaidBookings, makeImage } from "../../test/fixtures.ts";
import { isValidFeedbackToken } from "../lib/capability.ts";
import { deliverPending } from "../messaging/outbox.ts";
import type { PaymentsProvider } from "../providers/payments/types.ts";

const DAY = 86_400_000;
const PASSWORD = "correct horse battery staple";
// Dates in a year laid out like 2031, always ahead of the clock (test/clock.ts).
const Y = yearLike(2031);

// Providers are faked at their interface so these tests can count calls and fail one number.
const sent: { to: string; body: string }[] = [];
const failingNumbers = new Set<string>();
const sms = recordingSms((text) => {
  if (failingNumbers.has(text.to)) throw new Error(`carrier rejected ${text.to}`);
  return sent.push(text);
});

const refundCalls: { paymentIntentId: string; key: string }[] = [];
const failingIntents = new Set<string>();
const notUsed = async (): Promise<never> => {
  throw new Error("not used by the admin API");
};
const payments: PaymentsProvider = {
  name: "local",
  createCheckout: notUsed,
  retrieveCheckout: notUsed,
  refund: async (paymentIntentId, key) => {
    refundCalls.push({ paymentIntentId, key });
    // Slow enough that two concurrent requests overlap: this widens a race window, it waits for no
    // time to pass (the server's clock is deps.now), so it is a real timer on purpose.
    await new Promise((r) => setTimeout(r, 50));
    if (failingIntents.has(paymentIntentId)) throw new Error("card network unavailable");
    return { refundId: `re_fake_${key}` };
  },
  // Never reached: this provider never answers that a payment is refunded already.
  findRefund: notUsed,
};

const server = suiteTestServer({ deps: () => ({ sms, payments }) });
let admin: BrowserClient;
let anon: BrowserClient;

beforeAll(async () => {
  admin = browserClient(server.url);
  anon = browserClient(server.url);
  const login = await admin.postJson("/api/admin-login", { password: PASSWORD });
  expect(login.status).toBe(200);
});
beforeEach(() => {
  failingNumbers.clear();
  failingIntents.clear();
});

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const inDays = (n: number) => isoDate(Date.now() + n * DAY);
/** Late today on the venue's clock (Sydney, the default zone), as the form's UTC date and time. */
function todayAtVenue(): { eventDate: string; eventTime: string } {
  const zone = "Australia/Sydney";
  const iso = new Date(
    wallClockToUtc({ date: utcToWallClock(Date.now(), zone).date, hour: 23, minute: 45 }, zone),
  ).toISOString();
  return { eventDate: iso.slice(0, 10), eventTime: iso.slice(11, 16) };
}

async function eventForm(overrides: Record<string, string | Blob | null> = {}) {
  const fields: Record<string, string | Blob | null> = {
    eventName: "Sydney Singles Night",
    eventDate: inDays(10),
    eventTime: "19:30",
    eventAddress: "1 Macquarie St, Sydney NSW 2000",
    totalSeats: "24",
    bookingAmount: "49.95",
    eventduration: "2.5",
    fromage: "25",
    toage: "35",
    eventImage: new Blob([new Uint8Array(await makeImage("png"))], { type: "image/png" }),
    ...overrides,
  };
  const form = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (value === null) continue;
    if (value instanceof Blob) form.append(key, value, "photo.png");
    else form.append(key, value);
  }
  return form;
}

async function body(response: Response) {
  return (await response.json()) as Record<string, unknown>;
}

async function eventDetail(id: number) {
  return body(await fetch(`${server.url}/api/get-event/${id}`));
}

async function newEvent(overrides: Parameters<typeof insertEvent>[2] = {}) {
  return insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR, overrides);
}

describe("the admin session", () => {
  it("refuses a wrong password with 401 and opens a session cookie for the right one", async () => {
    const client = browserClient(server.url);
    const wrong = await client.postJson("/api/admin-login", { password: "hunter2" });
    expect(wrong.status).toBe(401);
    expect(await body(wrong)).toMatchObject({ success: false, error: expect.any(String) });
    expect(wrong.headers.getSetCookie()).toEqual([]);

    const right = await client.postJson("/api/admin-login", { password: PASSWORD });
    expect(right.status).toBe(200);
    expect(await body(right)).toEqual({ success: true });
    const cookie = right.headers.getSetCookie().join("\n");
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
  });

  it("reports whether the browser holds a session, and ends it on logout", async () => {
    const client = browserClient(server.url);
    expect(await body(await client.get("/api/admin-session"))).toEqual({ admin: false, member: null });
    await client.postJson("/api/admin-login", { password: PASSWORD });
    expect(await body(await client.get("/api/admin-session"))).toEqual({ admin: true, member: null });
    expect((await client.postJson("/api/end-event", { eventId: 999999 })).status).toBe(404);

    expect((await client.postJson("/api/admin-logout", {})).status).toBe(200);
    expect(await body(await client.get("/api/admin-session"))).toEqual({ admin: false, member: null });
    expect((await client.postJson("/api/end-event", { eventId: 999999 })).status).toBe(401);
  });

  it("answers 400 for a login without a password string", async () => {
    const response = await anon.postJson("/api/admin-login", { password: 12345 });
    expect(response.status).toBe(400);
  });

  it.each([
    ["POST", "/api/update-event", { eventid: 1, eventName: "x", eventDate: inDays(5), totalSeats: 5 }],
    ["POST", "/api/start-event", { eventId: 1 }],
    ["POST", "/api/end-event", { eventId: 1 }],
    ["POST", "/api/refund", { paymentIntentId: "pi_anything" }],
    ["POST", "/api/refund", { nonsense: true }],
    ["GET", "/api/get-event-user/1", null],
    ["GET", "/api/admin-events", null],
    ["GET", "/api/admin-event/1", null],
    ["GET", "/api/get-event-user/not-a-number", null],
  ])("%s %s answers 401 without the session, before looking at the input", async (method, path, payload) => {
    const response = method === "GET" ? await anon.get(path) : await anon.postJson(path, payload);
    expect(response.status).toBe(401);
    expect(await body(response)).toEqual({ success: false, error: expect.any(String), code: "admin_session_required" });
  });

  it("refuses save-event without the session and stores nothing", async () => {
    const before = server.deps.db.select().from(events).all().length;
    const response = await anon.postForm("/api/save-event", await eventForm());
    expect(response.status).toBe(401);
    expect(server.deps.db.select().from(events).all().length).toBe(before);
  });

  it("does not accept a forged or tampered session cookie", async () => {
    const cookie = [...admin.jar].map(([k, v]) => `${k}=${v}`)[0]!;
    const [name, value] = cookie.split("=") as [string, string];
    const forged = value.replace(/\.(\d+)\./, (_, exp: string) => `.${Number(exp) + 1000}.`);
    for (const attempt of [`${name}=admin`, `${name}=${forged}`]) {
      const response = await fetch(`${server.url}/api/get-event-user/1`, { headers: { cookie: attempt } });
      expect(response.status).toBe(401);
    }
  });

  it("expires the session after 12 hours", async () => {
    const client = browserClient(server.url);
    await client.postJson("/api/admin-login", { password: PASSWORD });
    server.advance(12 * 60 * 60 * 1000 + 1000);
    try {
      expect(await body(await client.get("/api/admin-session"))).toEqual({ admin: false, member: null });
    } finally {
      server.advance(-(12 * 60 * 60 * 1000 + 1000));
    }
  });
});

describe("the panel's uncached event reads", () => {
  it("answer what the public calls answer, marked never to be cached", async () => {
    const event = await newEvent({ name: "Twin Check" });
    const list = await admin.get("/api/admin-events");
    expect(list.status).toBe(200);
    expect(list.headers.get("cache-control")).toBe("no-store");
    // The public list's answers, plus the seats split per gender (none here) and the organiser's own
    // Go ahead only with at least (issue 52; off here, so never short of numbers), which the public
    // answers never show.
    const noMinimum = { minimumFemale: null, minimumMale: null, minimumTotal: null, minimumBy: null };
    const publicList = (await (await fetch(`${server.url}/api/get-events`)).json()) as Record<string, unknown>[];
    expect(await list.json()).toEqual(
      publicList.map((e) => ({ ...e, seatsMale: null, seatsFemale: null, ...noMinimum, shortOfNumbers: null })),
    );
    const one = await admin.get(`/api/admin-event/${event.id}`);
    expect(one.headers.get("cache-control")).toBe("no-store");
    expect(await one.json()).toEqual({ ...(await eventDetail(event.id)), ...noMinimum });
    expect((await admin.get("/api/admin-event/987654")).status).toBe(404);
    expect((await admin.get("/api/admin-event/abc")).status).toBe(400);
  });
});

describe("admin-login rate limit", () => {
  const limited = suiteTestServer({ env: { ADMIN_LOGIN_MAX_FAILURES: "3" }, deps: () => ({ sms, payments }) });

  it("counts only failures, then answers 429 (even to the right password) for 15 minutes", async () => {
    const client = browserClient(limited.url);
    for (let i = 0; i < 5; i++) {
      expect((await client.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
    }
    for (let i = 0; i < 3; i++) {
      expect((await client.postJson("/api/admin-login", { password: `guess-${i}` })).status).toBe(401);
    }
    const blocked = await client.postJson("/api/admin-login", { password: PASSWORD });
    expect(blocked.status).toBe(429);
    expect(await body(blocked)).toMatchObject({ success: false });
    expect((await client.postJson("/api/admin-login", { password: "guess-4" })).status).toBe(429);

    limited.advance(15 * 60 * 1000 + 1000);
    expect((await client.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
  });
});

describe("POST /api/save-event", () => {
  it("creates the event with its image and every field as sent", async () => {
    const date = inDays(9);
    const response = await admin.postForm("/api/save-event", await eventForm({ eventDate: date }));
    expect(response.status).toBe(200);
    const reply = await body(response);
    expect(reply).toEqual({ success: true, id: expect.any(Number) });

    const detail = await eventDetail(reply.id as number);
    expect(detail).toMatchObject({
      event_name: "Sydney Singles Night",
      event_address: "1 Macquarie St, Sydney NSW 2000",
      event_date: date,
      event_time: "19:30",
      EventDateTime: `${date}T19:30:00.000Z`,
      total_seats: 24,
      booking_amount: 49.95,
      event_duration: 2.5,
      from_age: 25,
      to_age: 35,
      event_status: "upcoming",
      SeatAvailabilityPer: 100,
    });
    const image = await fetch(`${server.url}/api/images/${detail.event_image as string}`);
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/jpeg");
  });

  it.each([
    ["9:0", "09:00"],
    ["09:00", "09:00"],
    ["23:45", "23:45"],
    ["0:15", "00:15"],
  ])("reads the time %s as %s", async (sentTime, stored) => {
    const response = await admin.postForm("/api/save-event", await eventForm({ eventTime: sentTime }));
    expect(response.status).toBe(200);
    expect((await eventDetail((await body(response)).id as number)).event_time).toBe(stored);
  });

  it("trims text and accepts tomorrow, the lowest price a card can pay and the edges of the ranges", async () => {
    const response = await admin.postForm(
      "/api/save-event",
      await eventForm({
        eventName: "  Free Trial Night  ",
        eventDate: inDays(1),
        bookingAmount: "0.50",
        totalSeats: "10000",
        eventduration: "24",
        fromage: "18",
        toage: "99",
      }),
    );
    expect(response.status).toBe(200);
    const detail = await eventDetail((await body(response)).id as number);
    expect(detail).toMatchObject({ event_name: "Free Trial Night", booking_amount: 0.5, total_seats: 10000 });
  });

  it.each<[string, Record<string, string | null>]>([
    ["a missing name", { eventName: null }],
    ["a blank name", { eventName: "   " }],
    ["an overlong name", { eventName: "x".repeat(121) }],
    ["a blank address", { eventAddress: "" }],
    ["an overlong address", { eventAddress: "x".repeat(301) }],
    ["today's date at the venue", todayAtVenue()],
    ["a past date", { eventDate: "2020-01-01" }],
    ["an impossible date", { eventDate: `${Y}-02-30` }],
    ["a date in another format", { eventDate: `30/12/${Y}` }],
    ["hour 24", { eventTime: "24:00" }],
    ["minute 14 (an early design's slip)", { eventTime: "19:14" }],
    ["minute 60", { eventTime: "19:60" }],
    ["a time without minutes", { eventTime: "19" }],
    ["a missing time", { eventTime: null }],
    ["zero seats", { totalSeats: "0" }],
    ["too many seats", { totalSeats: "10001" }],
    ["fractional seats", { totalSeats: "2.5" }],
    ["seats as words", { totalSeats: "twelve" }],
    ["a negative amount", { bookingAmount: "-1" }],
    ["a free event (a card checkout cannot charge 0)", { bookingAmount: "0" }],
    ["an amount below the card minimum of 0.50", { bookingAmount: "0.49" }],
    ["an amount above 100000", { bookingAmount: "100000.01" }],
    ["an amount with 3 decimals", { bookingAmount: "12.345" }],
    ["an empty amount", { bookingAmount: "" }],
    ["an amount in exponent form", { bookingAmount: "1e3" }],
    ["a zero duration", { eventduration: "0" }],
    ["a duration over 24 hours", { eventduration: "24.5" }],
    ["an age under 18", { fromage: "17" }],
    ["an age over 99", { toage: "100" }],
    ["a fractional age", { fromage: "25.5" }],
    ["from age above to age", { fromage: "40", toage: "30" }],
    ["no image", { eventImage: null }],
    ["an image field that is text", { eventImage: "photo.png" }],
  ])("answers 400 for %s and stores nothing", async (_, overrides) => {
    const before = server.deps.db.select().from(events).all().length;
    const response = await admin.postForm("/api/save-event", await eventForm(overrides));
    expect(response.status).toBe(400);
    expect(await body(response)).toEqual({ success: false, error: expect.any(String), code: "invalid_request" });
    expect(server.deps.db.select().from(events).all().length).toBe(before);
  });

  it("leaves no picture behind when the date or the ages are refused after the upload was read", async () => {
    const files = () => (existsSync(server.deps.env.UPLOADS_DIR) ? readdirSync(server.deps.env.UPLOADS_DIR).length : 0);
    const before = files();
    const refused: Record<string, string>[] = [todayAtVenue(), { fromage: "40", toage: "30" }];
    for (const overrides of refused) {
      const response = await admin.postForm("/api/save-event", await eventForm(overrides));
      expect(response.status).toBe(400);
    }
    expect(files()).toBe(before);
  });

  it("answers 415 for a file that is not an image, whatever its type says", async () => {
    const fake = new Blob([new TextEncoder().encode("GIF89a not really")], { type: "image/png" });
    const response = await admin.postForm("/api/save-event", await eventForm({ eventImage: fake }));
    expect(response.status).toBe(415);
    expect(await body(response)).toMatchObject({ success: false });
  });

  it("answers 413 for an image over 5,242,880 bytes", async () => {
    const big = new Blob([new Uint8Array(5_242_881)], { type: "image/jpeg" });
    const response = await admin.postForm("/api/save-event", await eventForm({ eventImage: big }));
    expect(response.status).toBe(413);
    expect(await body(response)).toMatchObject({ success: false });
  });

  it("answers 400 for a JSON body instead of the multipart form", async () => {
    const response = await admin.postJson("/api/save-event", { eventName: "x" });
    expect(response.status).toBe(400);
  });
});

describe("POST /api/update-event", () => {
  const update = (payload: Record<string, unknown>) => admin.postJson("/api/update-event", payload);

  it("changes name, date, time, seats, duration and ages, and keeps address, price and image", async () => {
    const event = await newEvent({ startsAt: Date.UTC(Y, 4, 1, 9, 0), priceCents: 3000 });
    const response = await update({
      eventid: event.id,
      eventName: "Renamed Night",
      eventDate: `${Y}-05-03`,
      totalSeats: "40",
      eventTime: "18:45",
      eventduration: 3,
      fromage: "30",
      toage: 45,
    });
    expect(response.status).toBe(200);
    expect(await body(response)).toEqual({ success: true });
    expect(await eventDetail(event.id)).toMatchObject({
      event_name: "Renamed Night",
      event_date: `${Y}-05-03`,
      event_time: "18:45",
      total_seats: 40,
      event_duration: 3,
      from_age: 30,
      to_age: 45,
      event_address: event.address,
      booking_amount: 30,
      event_image: event.imageName,
    });
  });

  it("keeps the time, duration and ages when only the required fields are sent", async () => {
    const event = await newEvent({ startsAt: Date.UTC(Y, 6, 1, 20, 15), durationHours: 1.5 });
    const response = await update({
      eventid: event.id,
      eventName: "Only Required",
      eventDate: `${Y}-07-02`,
      totalSeats: 12,
    });
    expect(response.status).toBe(200);
    expect(await eventDetail(event.id)).toMatchObject({
      event_name: "Only Required",
      EventDateTime: `${Y}-07-02T20:15:00.000Z`,
      event_duration: 1.5,
      from_age: event.fromAge,
      to_age: event.toAge,
    });
  });

  it.each<[string, Record<string, unknown>]>([
    ["no name", { eventName: undefined }],
    ["a blank name", { eventName: " " }],
    ["no date", { eventDate: undefined }],
    ["no seats", { totalSeats: undefined }],
    ["zero seats", { totalSeats: 0 }],
    ["a moved date in the past", { eventDate: "2020-02-02" }],
    ["minute 14", { eventTime: "10:14" }],
    ["hour 24", { eventTime: "24:00" }],
    ["a zero duration", { eventduration: 0 }],
    ["an age of 17", { fromage: 17 }],
    ["from age above the stored to age", { fromage: 60 }],
    ["no event id", { eventid: undefined }],
    ["a text event id", { eventid: "abc" }],
  ])("answers 400 for %s and changes nothing", async (_, overrides) => {
    const event = await newEvent({ startsAt: Date.UTC(Y, 8, 1, 9, 0), toAge: 40 });
    const response = await update({
      eventid: event.id,
      eventName: "Changed",
      eventDate: `${Y}-09-05`,
      totalSeats: 20,
      ...overrides,
    });
    expect(response.status).toBe(400);
    expect(await body(response)).toEqual({ success: false, error: expect.any(String), code: "invalid_request" });
    expect((await eventDetail(event.id)).event_name).toBe(event.name);
  });

  it("lets an event keep its own date even when that is today", async () => {
    const event = await newEvent({ startsAt: Date.now() - 60_000 });
    const response = await update({
      eventid: event.id,
      eventName: "Fixed Typo",
      eventDate: isoDate(event.startsAt),
      totalSeats: 10,
    });
    expect(response.status).toBe(200);
  });

  it("answers 404 for an unknown event", async () => {
    const response = await update({ eventid: 987654, eventName: "x", eventDate: inDays(5), totalSeats: 5 });
    expect(response.status).toBe(404);
  });

  it("never lowers the seats below those already taken (409)", async () => {
    const event = await newEvent({ totalSeats: 10 });
    insertPaidBookings(server.deps.db, event.id, 6);
    const date = isoDate(event.startsAt);
    const below = await update({ eventid: event.id, eventName: event.name, eventDate: date, totalSeats: 5 });
    expect(below.status).toBe(409);
    expect(await body(below)).toMatchObject({ success: false, error: "Seats can't go below the 6 already paid." });
    expect((await eventDetail(event.id)).total_seats).toBe(10);
    const exact = await update({ eventid: event.id, eventName: event.name, eventDate: date, totalSeats: 6 });
    expect(exact.status).toBe(200);
    expect((await eventDetail(event.id)).SeatAvailabilityPer).toBe(0);
  });

  it("refuses to edit an event that has ended (409)", async () => {
    const event = await newEvent();
    server.deps.db.update(events).set({ status: "ended" }).where(eq(events.id, event.id)).run();
    const response = await update({ eventid: event.id, eventName: "Too Late", eventDate: inDays(5), totalSeats: 5 });
    expect(response.status).toBe(409);
  });
});

describe("starting and ending an event", () => {
  const start = (eventId: unknown) => admin.postJson("/api/start-event", { eventId });
  const end = (eventId: unknown) => admin.postJson("/api/end-event", { eventId });

  it("goes only upcoming → started → ended", async () => {
    const event = await newEvent();
    expect((await end(event.id)).status).toBe(409);

    const started = await start(event.id);
    expect(started.status).toBe(200);
    expect(await body(started)).toEqual({ success: true, sent: 0, failed: 0 });
    expect((await eventDetail(event.id)).event_status).toBe("started");
    const again = await start(event.id);
    expect(again.status).toBe(409);
    expect(await body(again)).toMatchObject({ success: false, error: expect.stringContaining("started") });

    expect((await end(event.id)).status).toBe(200);
    expect((await eventDetail(event.id)).event_status).toBe("ended");
    expect((await end(event.id)).status).toBe(409);
    expect((await start(event.id)).status).toBe(409);
    expect((await eventDetail(event.id)).event_status).toBe("ended");
  });

  it("answers 404 for an unknown event and 400 for a bad id", async () => {
    expect((await start(987654)).status).toBe(404);
    expect((await end(987654)).status).toBe(404);
    for (const bad of ["abc", -1, 0, 1.5, null]) {
      expect((await start(bad)).status).toBe(400);
      expect((await end(bad)).status).toBe(400);
    }
  });

  it("texts every paid participant a signed feedback link at start and at end, and the report link at the release", async () => {
    const { db, env } = server.deps;
    const event = await newEvent({ name: "Link Night" });
    const paid = insertPaidBookings(db, event.id, 3);
    const [refunded, held] = insertPaidBookings(db, event.id, 2);
    db.update(bookings)
      .set({ status: "refunded", seatReleased: true })
      .where(eq(bookings.id, refunded!.bookingId))
      .run();
    db.update(bookings)
      .set({ status: "held", holdExpiresAt: Date.now() + DAY })
      .where(eq(bookings.id, held!.bookingId))
      .run();
    sent.length = 0;

    const started = await start(event.id);
    expect(await body(started)).toEqual({ success: true, sent: 3, failed: 0 });
    expect(sent.map((m) => m.to).sort()).toEqual(paid.map((p) => p.phone).sort());
    for (const p of paid) {
      const message = sent.find((m) => m.to === p.phone)!;
      expect(message.body).toContain("Link Night");
      const link = new URL(message.body.match(/https?:\/\/\S+/)![0]);
      expect(link.origin).toBe(env.PUBLIC_BASE_URL);
      expect(link.pathname).toBe("/ParticipantFeedback");
      expect(link.searchParams.get("par1")).toBe(String(p.userId));
      expect(link.searchParams.get("par2")).toBe(String(event.id));
      expect(isValidFeedbackToken(env, "start", p.userId, event.id, link.searchParams.get("t"))).toBe(true);
    }

    // The end asks for the ratings again, with the rating link and when the results come; no report yet.
    sent.length = 0;
    expect(await body(await end(event.id))).toEqual({ success: true, sent: 3, failed: 0 });
    for (const p of paid) {
      const message = sent.find((m) => m.to === p.phone)!;
      expect(message.body).toMatch(/Rate the people you met by \d{1,2}:\d{2} (AM|PM) \S+ /);
      expect(message.body).not.toContain("/EventFeedback");
      const link = new URL(message.body.match(/https?:\/\/\S+/)![0]);
      expect(link.pathname).toBe("/ParticipantFeedback");
      expect(isValidFeedbackToken(env, "start", p.userId, event.id, link.searchParams.get("t"))).toBe(true);
    }

    sent.length = 0;
    expect(await body(await admin.postJson("/api/release-results", { eventId: event.id }))).toMatchObject({
      success: true,
      sent: 3,
      failed: 0,
    });
    for (const p of paid) {
      const link = new URL(sent.find((m) => m.to === p.phone)!.body.match(/https?:\/\/\S+/)![0]);
      expect(link.pathname).toBe("/EventFeedback");
      expect(link.searchParams.get("par1")).toBe(String(event.id));
      expect(link.searchParams.get("par2")).toBe(String(p.userId));
      expect(isValidFeedbackToken(env, "report", p.userId, event.id, link.searchParams.get("t"))).toBe(true);
    }
  });

  it("sends the others when one message fails, and keeps the failed one queued for the retry", async () => {
    const { db } = server.deps;
    const event = await newEvent();
    const paid = insertPaidBookings(db, event.id, 3);
    failingNumbers.add(paid[1]!.phone);
    sent.length = 0;

    const response = await start(event.id);
    expect(response.status).toBe(200);
    expect(await body(response)).toEqual({ success: true, sent: 2, failed: 1 });
    expect(sent.map((m) => m.to)).toEqual([paid[0]!.phone, paid[2]!.phone]);
    expect((await eventDetail(event.id)).event_status).toBe("started");

    const rows = db
      .select()
      .from(outboxMessages)
      .all()
      .filter((m) => m.dedupeKey.startsWith(`start:${event.id}:`));
    expect(rows).toHaveLength(3);
    const failedRow = rows.find((m) => m.to === paid[1]!.phone)!;
    expect(failedRow).toMatchObject({ status: "pending", attempts: 1, lastError: expect.stringContaining("rejected") });
    expect(rows.filter((m) => m.status === "sent")).toHaveLength(2);

    // The server's retry loop picks it up once the number works again and its backoff (30 s after
    // the first failure) has passed; nobody else is texted twice.
    failingNumbers.clear();
    sent.length = 0;
    await deliverPending(server.deps, { dedupePrefix: `start:${event.id}:` });
    expect(sent).toEqual([]);
    server.advance(31_000);
    await deliverPending(server.deps, { dedupePrefix: `start:${event.id}:` });
    expect(sent.map((m) => m.to)).toEqual([paid[1]!.phone]);
    expect(db.select().from(outboxMessages).where(eq(outboxMessages.id, failedRow.id)).get()?.status).toBe("sent");
  });
});

describe("GET /api/get-event-user/{id}", () => {
  it("lists the paid and refunded participants with status and check-in time", async () => {
    const { db } = server.deps;
    const event = await newEvent();
    const [a, b, c, d] = insertPaidBookings(db, event.id, 4);
    const checkedIn = Date.UTC(Y, 0, 1, 19, 40);
    db.update(bookings).set({ checkedInAt: checkedIn }).where(eq(bookings.id, a!.bookingId)).run();
    db.update(bookings).set({ status: "refunded" }).where(eq(bookings.id, b!.bookingId)).run();
    db.update(bookings)
      .set({ status: "held", holdExpiresAt: Date.now() + DAY })
      .where(eq(bookings.id, c!.bookingId))
      .run();
    db.update(bookings).set({ status: "released" }).where(eq(bookings.id, d!.bookingId)).run();

    const response = await admin.get(`/api/get-event-user/${event.id}`);
    expect(response.status).toBe(200);
    const list = (await response.json()) as Record<string, unknown>[];
    expect(list.map((p) => p.id)).toEqual([a!.userId, b!.userId]);
    const booking = db.select().from(bookings).where(eq(bookings.id, a!.bookingId)).get()!;
    expect(list[0]).toEqual({
      id: a!.userId,
      username: expect.stringMatching(/^Attendee/),
      gender: "male",
      booking_amount: 45,
      payment_intent_id: booking.paymentIntentId,
      image_name: `${"0".repeat(32)}.jpg`,
      phone: a!.phone,
      email: expect.stringMatching(/@example\.com$/),
      status: "paid",
      bookedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      checkedInAt: `${Y}-01-01T19:40:00.000Z`,
      age: expect.any(Number),
      discount: 0,
      code: null,
      invoiceNumber: null,
      emailBounced: false,
    });
    expect(list[1]).toMatchObject({ status: "refunded", checkedInAt: null, gender: "female" });
  });

  it("answers an empty list for an event nobody booked, 404 for an unknown one and 400 for a bad id", async () => {
    const event = await newEvent();
    expect(await (await admin.get(`/api/get-event-user/${event.id}`)).json()).toEqual([]);
    expect((await admin.get("/api/get-event-user/987654")).status).toBe(404);
    for (const bad of ["abc", "0", "-3", "1.5"]) {
      expect((await admin.get(`/api/get-event-user/${bad}`)).status).toBe(400);
    }
  });
});

describe("POST /api/refund", () => {
  const refund = (paymentIntentId: unknown) => admin.postJson("/api/refund", { paymentIntentId });
  const intentOf = (bookingId: number) =>
    server.deps.db.select().from(bookings).where(eq(bookings.id, bookingId)).get()!.paymentIntentId!;
  const bookingRow = (bookingId: number) =>
    server.deps.db.select().from(bookings).where(eq(bookings.id, bookingId)).get()!;

  it("refunds once: a repeated call returns the same refund without calling the provider again", async () => {
    const event = await newEvent({ totalSeats: 4 });
    const [p] = insertPaidBookings(server.deps.db, event.id, 1);
    const pi = intentOf(p!.bookingId);
    refundCalls.length = 0;

    const first = await refund(pi);
    expect(first.status).toBe(200);
    const reply = await body(first);
    expect(reply).toEqual({ success: true, refundId: `re_fake_refund-${p!.bookingId}` });
    const second = await refund(pi);
    expect(second.status).toBe(200);
    expect(await body(second)).toEqual(reply);
    expect(refundCalls).toEqual([{ paymentIntentId: pi, key: `refund-${p!.bookingId}` }]);
    expect(bookingRow(p!.bookingId).status).toBe("refunded");
    expect(server.deps.db.select().from(refunds).where(eq(refunds.paymentIntentId, pi)).all()).toHaveLength(1);
  });

  it("makes one provider call when two refunds of the same payment arrive together", async () => {
    const event = await newEvent();
    const [p] = insertPaidBookings(server.deps.db, event.id, 1);
    const pi = intentOf(p!.bookingId);
    refundCalls.length = 0;
    const replies = await Promise.all([refund(pi), refund(pi)]);
    expect(replies.map((r) => r.status)).toEqual([200, 200]);
    const [a, b] = await Promise.all(replies.map(body));
    expect(a).toEqual(b);
    expect(refundCalls).toHaveLength(1);
  });

  it("releases the seat when refunded before the event starts", async () => {
    const event = await newEvent({ totalSeats: 4 });
    const [p] = insertPaidBookings(server.deps.db, event.id, 4);
    expect((await eventDetail(event.id)).SeatAvailabilityPer).toBe(0);
    expect((await refund(intentOf(p!.bookingId))).status).toBe(200);
    expect((await eventDetail(event.id)).SeatAvailabilityPer).toBe(25);
    expect(bookingRow(p!.bookingId)).toMatchObject({ status: "refunded", seatReleased: true });
  });

  it("keeps the seat counted when refunded after the event started", async () => {
    const event = await newEvent({ totalSeats: 4 });
    const [p] = insertPaidBookings(server.deps.db, event.id, 4);
    expect((await admin.postJson("/api/start-event", { eventId: event.id })).status).toBe(200);
    expect((await refund(intentOf(p!.bookingId))).status).toBe(200);
    expect((await eventDetail(event.id)).SeatAvailabilityPer).toBe(0);
    expect(bookingRow(p!.bookingId)).toMatchObject({ status: "refunded", seatReleased: false });
    // Refunded participants get no feedback link at the end.
    sent.length = 0;
    expect(await body(await admin.postJson("/api/end-event", { eventId: event.id }))).toMatchObject({ sent: 3 });
  });

  it("answers 502 and records nothing when the provider fails, and succeeds on a later try", async () => {
    const event = await newEvent();
    const [p] = insertPaidBookings(server.deps.db, event.id, 1);
    const pi = intentOf(p!.bookingId);
    failingIntents.add(pi);
    const failed = await refund(pi);
    expect(failed.status).toBe(502);
    expect(await body(failed)).toEqual({ success: false, error: expect.any(String), code: "provider_failed" });
    expect(bookingRow(p!.bookingId).status).toBe("paid");
    expect(server.deps.db.select().from(refunds).where(eq(refunds.paymentIntentId, pi)).all()).toEqual([]);

    failingIntents.clear();
    expect((await refund(pi)).status).toBe(200);
    expect(bookingRow(p!.bookingId).status).toBe("refunded");
  });

  it("answers 404 for an unknown payment, 409 for an unpaid hold and 400 for a bad body", async () => {
    expect((await refund("pi_never_seen")).status).toBe(404);

    const event = await newEvent();
    const [p] = insertPaidBookings(server.deps.db, event.id, 1);
    server.deps.db
      .update(bookings)
      .set({ status: "held", holdExpiresAt: Date.now() + DAY })
      .where(eq(bookings.id, p!.bookingId))
      .run();
    refundCalls.length = 0;
    expect((await refund(intentOf(p!.bookingId))).status).toBe(409);
    expect(refundCalls).toEqual([]);

    for (const bad of ["", "   ", 42, null, "x".repeat(256)]) {
      expect((await refund(bad)).status).toBe(400);
    }
  });
});
