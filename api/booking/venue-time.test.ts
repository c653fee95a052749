import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { utcToWallClock } from "../../common/time-zone.ts";
import { tomorrowIn, wallClockToUtc } from "../../common/venue-time-input.ts";
import { openDatabase } from "../../db/client.ts";
import { bookings, events, refunds } from "../../db/schema.ts";
import { type BrowserClient, browserClient, suiteTestServer, verifiedPhoneCookie } from "../../test/api-harness.ts";
import { yearLike } from "../../test/clock.ts";
import { insertEvent, insertHeldBooking, makeImage } from "../../test/fixtures.ts";
import {
  createCheckout,
  detailsForm,
  holdSeat,
  newMobile,
  pay,
  verifiedBrowser,
} from "../../test/suites/booking-flow.ts";

// Venue time (docs/decisions/005-venue-time.md): every event has its venue's zone, the API keeps its UTC fields, and sales close at
// the start whatever the organiser pressed.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PASSWORD = "correct horse battery staple";
// Dates in a year laid out like 2031, always ahead of the clock (test/clock.ts).
const Y = yearLike(2031);

const server = suiteTestServer({ env: { EVENT_TIME_ZONE: "Australia/Brisbane" } });
let admin: BrowserClient;

beforeAll(async () => {
  admin = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
});

const utcDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function saveEvent(fields: Record<string, string>) {
  const form = new FormData();
  const all: Record<string, string> = {
    eventName: "Zone Night",
    eventDate: utcDate(Date.now() + 10 * DAY),
    eventTime: "8:0",
    eventAddress: "1 Eagle St, Brisbane City QLD 4000",
    totalSeats: "20",
    bookingAmount: "45",
    eventduration: "2",
    fromage: "25",
    toage: "35",
    ...fields,
  };
  for (const [k, v] of Object.entries(all)) form.append(k, v);
  form.append("eventImage", new Blob([new Uint8Array(await makeImage())], { type: "image/jpeg" }), "e.jpg");
  const response = await admin.postForm("/api/save-event", form);
  return { status: response.status, body: (await response.json()) as { id?: number; error?: string } };
}

const eventAnswer = async (id: number) =>
  (await (await fetch(`${server.url}/api/get-event/${id}`)).json()) as Record<string, unknown>;

describe("an event's time zone", () => {
  it("is stored as sent, answered beside the UTC fields, and defaults to EVENT_TIME_ZONE", async () => {
    const sydney = await saveEvent({ timeZone: "Australia/Sydney", eventDate: `${Y}-11-29`, eventTime: "8:0" });
    expect(sydney.status).toBe(200);
    expect(await eventAnswer(sydney.body.id!)).toMatchObject({
      EventDateTime: `${Y}-11-29T08:00:00.000Z`,
      event_date: `${Y}-11-29`,
      event_time: "08:00",
      time_zone: "Australia/Sydney",
    });
    const fallback = await saveEvent({});
    expect((await eventAnswer(fallback.body.id!)).time_zone).toBe("Australia/Brisbane");
    const list = (await (await fetch(`${server.url}/api/get-events`)).json()) as { id: number; time_zone: string }[];
    expect(list.find((e) => e.id === sydney.body.id)?.time_zone).toBe("Australia/Sydney");
  });

  it("answers 400 for a name that is not a real IANA zone, and saves nothing", async () => {
    const before = server.deps.db.select().from(events).all().length;
    for (const timeZone of ["Mars/Olympus", "AEDT", "", "Australia/Sydney; drop table events"]) {
      const saved = await saveEvent({ timeZone });
      expect(saved.status).toBe(400);
      expect(saved.body.error).toMatch(/^The time zone /);
    }
    expect(server.deps.db.select().from(events).all()).toHaveLength(before);
    const event = await insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR);
    const update = await admin.postJson("/api/update-event", {
      eventid: event.id,
      eventName: "Renamed",
      eventDate: utcDate(event.startsAt),
      totalSeats: 10,
      timeZone: "Not/AZone",
    });
    expect(update.status).toBe(400);
    expect(server.deps.db.select().from(events).where(eq(events.id, event.id)).get()?.name).toBe("Test Mixer");
  });

  it("moves an event to another zone on update, keeping the UTC instant it was sent", async () => {
    const event = await insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR, {
      startsAt: Date.parse(`${Y}-06-29T09:00:00.000Z`),
    });
    const update = await admin.postJson("/api/update-event", {
      eventid: event.id,
      eventName: "Perth Evening",
      eventDate: `${Y}-06-29`,
      eventTime: "11:0",
      totalSeats: 10,
      timeZone: "australia/perth",
    });
    expect(update.status).toBe(200);
    expect(await eventAnswer(event.id)).toMatchObject({
      EventDateTime: `${Y}-06-29T11:00:00.000Z`,
      time_zone: "Australia/Perth",
    });
  });

  it("takes 'tomorrow' from the venue's calendar: 9 am tomorrow in Sydney is still today in UTC", async () => {
    const now = server.deps.now();
    const asUtc = (date: string, hour: number) => {
      const utc = utcToWallClock(wallClockToUtc({ date, hour, minute: 0 }, "Australia/Sydney"), "UTC");
      return { timeZone: "Australia/Sydney", eventDate: utc.date, eventTime: `${utc.hour}:0` };
    };
    const tomorrow = tomorrowIn("Australia/Sydney", now);
    const early = asUtc(tomorrow, 9);
    expect(early.eventDate < tomorrow).toBe(true);
    expect((await saveEvent(early)).status).toBe(200);
    const today = utcToWallClock(now, "Australia/Sydney").date;
    const refused = await saveEvent(asUtc(today, 23));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe("The date must be tomorrow or later at the venue.");
  });

  it("gives events saved before zones existed the configured zone when the database opens", () => {
    const dir = mkdtempSync(join(tmpdir(), "sdt-zone-"));
    try {
      const db = openDatabase(join(dir, "app.db"));
      // What the migration leaves on a row made before the column existed.
      db.$client
        .prepare(
          "INSERT INTO events (name, image_name, starts_at, address, price_cents, duration_hours, from_age, to_age, total_seats) VALUES ('Old', 'x.jpg', 0, 'here', 100, 2, 20, 30, 10)",
        )
        .run();
      expect(db.$client.prepare("SELECT time_zone FROM events").pluck().get()).toBe("");
      db.$client.close();
      const reopened = openDatabase(join(dir, "app.db"), { timeZone: "Australia/Perth" });
      expect(reopened.select().from(events).get()?.timeZone).toBe("Australia/Perth");
      reopened.$client.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("sales close at the start", () => {
  it("answers send-otp, save-user-details and create-checkout-session with 409 'booking has closed'", async () => {
    const { db, env } = server.deps;
    // Still 'upcoming': nobody pressed Start, but its time has come.
    const event = await insertEvent(db, env.UPLOADS_DIR, { startsAt: server.deps.now() + HOUR });
    const phone = newMobile();
    const browser = await verifiedBrowser(server.url, phone);
    const held = await holdSeat(browser, { phone, eventId: event.id, image: await makeImage() });
    expect(held.status).toBe(200);

    server.advance(HOUR);
    const closed = { success: false, error: "booking has closed", code: "booking_closed" };
    const otp = await browserClient(server.url).postJson("/api/send-otp", {
      phone: newMobile(),
      countryCode: "+61",
      eventID: event.id,
    });
    expect(otp.status).toBe(409);
    expect(await otp.json()).toEqual(closed);

    const again = await browser.postForm(
      "/api/save-user-details",
      detailsForm({ phone, eventId: event.id, image: await makeImage() }),
    );
    expect(again.status).toBe(409);
    expect(await again.json()).toEqual(closed);

    const checkout = await browser.postJson("/api/create-checkout-session", {
      userID: held.userID,
      eventID: event.id,
      amount: 45,
    });
    expect(checkout.status).toBe(409);
    expect(await checkout.json()).toEqual(closed);
  });

  it("still sends a code for an event whose sales are open, and for a call without an event", async () => {
    const event = await insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR);
    const withEvent = await browserClient(server.url).postJson("/api/send-otp", {
      phone: newMobile(),
      countryCode: "+61",
      eventID: event.id,
    });
    expect(withEvent.status).toBe(200);
    const unknown = await browserClient(server.url).postJson("/api/send-otp", {
      phone: newMobile(),
      countryCode: "+61",
      eventID: 987654,
    });
    expect(unknown.status).toBe(404);
  });

  it("refunds a payment that completes after the start, even with a live hold", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { startsAt: server.deps.now() + 20 * 60_000 });
    const phone = newMobile();
    const browser = await verifiedBrowser(server.url, phone);
    const held = await holdSeat(browser, { phone, eventId: event.id, image: await makeImage() });
    const checkout = await createCheckout(server.url, { userID: held.userID!, eventID: event.id }, browser);
    expect(checkout.status).toBe(200);

    // The checkout stays open 31 minutes; the buyer pays 25 minutes in, after the start.
    server.advance(25 * 60_000);
    expect(await pay(server.url, checkout.sessionId!)).toBe(303);
    const booking = db.select().from(bookings).where(eq(bookings.userId, held.userID!)).get();
    expect(booking).toMatchObject({ status: "refunded", seatReleased: true, uniqueCode: null });
    expect(db.select().from(refunds).where(eq(refunds.bookingId, booking!.id)).all()).toHaveLength(1);
  });

  it("keeps a hold made before the start from being checked out after it", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { startsAt: server.deps.now() + 10 * 60_000 });
    const hold = insertHeldBooking(db, event.id, { now: server.deps.now() });
    server.advance(11 * 60_000);
    const response = await fetch(`${server.url}/api/create-checkout-session`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        cookie: verifiedPhoneCookie(server.deps.env, hold.phone, server.deps.now()),
      },
      body: JSON.stringify({ userID: hold.userId, eventID: event.id, amount: 45 }),
    });
    expect(response.status).toBe(409);
  });
});
