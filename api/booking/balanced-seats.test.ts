import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookings, events, users } from "../../db/schema.ts";
import { insertHeldBooking, insertPaidBookings } from "../../test/fixtures.ts";
import { createCheckout, holdSeat } from "../../test/suites/booking-flow.ts";
import { json, waitlistSuite } from "../../test/suites/waitlist.ts";
import { completeCheckout } from "./payment-completion.ts";

// Seats by gender (docs/decisions/015-balanced-rooms-and-waitlist.md): an event may split
// its seats between men and women; the event answers say what is left of each, and no gender is
// ever booked past its seats. Real HTTP on a real SQLite file; the clock is moved, never waited for.

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const suite = waitlistSuite();
const { server, now, newEvent, person } = suite;

/** save-user-details from a fresh verified browser. */
async function book(eventId: number, gender: "male" | "female") {
  const { phone, browser } = person();
  return { phone, browser, ...(await holdSeat(browser, { phone, eventId, image: suite.photo, gender })) };
}

const publicEvent = async (id: number) => json(await fetch(`${server.url}/api/get-event/${id}`));
const listed = async (id: number) =>
  (await json<Record<string, unknown>[]>(await fetch(`${server.url}/api/get-events`))).find((e) => e.id === id);

function saveEventForm(fields: Record<string, string>) {
  const form = new FormData();
  const base: Record<string, string> = {
    eventName: "Balanced Mixer",
    eventDate: new Date(now() + 30 * DAY).toISOString().slice(0, 10),
    eventTime: "19:30",
    eventAddress: "1 George St, Sydney NSW 2000",
    totalSeats: "10",
    bookingAmount: "45",
    eventduration: "2",
    fromage: "25",
    toage: "35",
  };
  for (const [k, v] of Object.entries({ ...base, ...fields })) form.append(k, v);
  form.append("eventImage", new Blob([new Uint8Array(suite.photo)], { type: "image/jpeg" }), "e.jpg");
  return form;
}

describe("seats by gender on the organiser's side", () => {
  it("save-event takes a split, and the event answers show it and what is left of each", async () => {
    const saved = await suite.admin.postForm("/api/save-event", saveEventForm({ seatsMale: "6", seatsFemale: "4" }));
    expect(saved.status, await saved.clone().text()).toBe(200);
    const { id } = await json<{ id: number }>(saved);
    const detail = await json(await suite.admin.get(`/api/admin-event/${id}`));
    expect(detail).toMatchObject({ total_seats: 10, seatsMale: 6, seatsFemale: 4, SeatsLeft: { male: 6, female: 4 } });
    expect(await listed(id)).toMatchObject({ SeatAvailabilityPer: 100, SeatsLeft: { male: 6, female: 4 } });
    const adminList = await json<Record<string, unknown>[]>(await suite.admin.get("/api/admin-events"));
    expect(adminList.find((e) => e.id === id)).toMatchObject({
      seatsMale: 6,
      seatsFemale: 4,
      SeatsLeft: { male: 6, female: 4 },
    });

    const plain = await suite.admin.postForm("/api/save-event", saveEventForm({}));
    const plainId = (await json<{ id: number }>(plain)).id;
    expect(await publicEvent(plainId)).toMatchObject({ SeatsLeft: null, SeatAvailabilityPer: 100 });
    expect(await json(await suite.admin.get(`/api/admin-event/${plainId}`))).toMatchObject({
      seatsMale: null,
      seatsFemale: null,
    });
  });

  it("save-event refuses half a split, a bad count or one that does not add up, and stores nothing", async () => {
    const before = server.deps.db.select().from(events).all().length;
    const splits: Record<string, string>[] = [
      { seatsMale: "5" },
      { seatsFemale: "5" },
      { seatsMale: "4", seatsFemale: "4" },
      { seatsMale: "11", seatsFemale: "-1" },
      { seatsMale: "5.5", seatsFemale: "4.5" },
      { seatsMale: "five", seatsFemale: "5" },
    ];
    for (const fields of splits) {
      const response = await suite.admin.postForm("/api/save-event", saveEventForm(fields));
      expect(response.status, JSON.stringify(fields)).toBe(400);
      expect(await json(response)).toMatchObject({ success: false, error: expect.stringMatching(/seats/i) });
    }
    expect(server.deps.db.select().from(events).all().length).toBe(before);
    // One gender may have no seats at all: a ladies' night is a split of 0 and 10.
    const ladies = await suite.admin.postForm("/api/save-event", saveEventForm({ seatsMale: "0", seatsFemale: "10" }));
    expect(ladies.status).toBe(200);
  });

  it("says in words which side can't go below the seats already paid", async () => {
    const event = await newEvent({ total: 10, male: 5, female: 5 });
    insertPaidBookings(server.deps.db, event.id, 5, { gender: "female" });
    const refused = await suite.admin.postJson("/api/update-event", {
      eventid: event.id,
      eventName: event.name,
      eventDate: new Date(event.startsAt).toISOString().slice(0, 10),
      totalSeats: 10,
      seatsMale: 6,
      seatsFemale: 4,
    });
    expect(refused.status).toBe(409);
    expect(await json(refused)).toMatchObject({
      code: "seats_taken",
      takenSeats: 5,
      error: "Women's seats can't go below the 5 already paid.",
    });
  });

  it("update-event sets, changes and removes a split, never below what a gender already has", async () => {
    const event = await newEvent({ total: 10 });
    insertPaidBookings(server.deps.db, event.id, 3, { gender: "male" });
    insertHeldBooking(server.deps.db, event.id, { gender: "female", now: now() });
    const date = new Date(event.startsAt).toISOString().slice(0, 10);
    const update = (fields: Record<string, unknown>) =>
      suite.admin.postJson("/api/update-event", {
        eventid: event.id,
        eventName: event.name,
        eventDate: date,
        totalSeats: 10,
        ...fields,
      });
    const stored = () => server.deps.db.select().from(events).where(eq(events.id, event.id)).get();

    const below = await update({ seatsMale: 2, seatsFemale: 8 });
    expect(below.status).toBe(409);
    expect(await json(below)).toMatchObject({
      success: false,
      error: "Men's seats can't go below the 3 already paid.",
    });
    const belowHeld = await update({ seatsMale: 10, seatsFemale: 0 });
    expect(belowHeld.status).toBe(409);
    // A live hold may still lapse: "taken", not "paid".
    expect(await json(belowHeld)).toMatchObject({
      error: "Women's seats can't go below the 1 already taken (paid, or being booked right now).",
    });
    for (const fields of [{ seatsMale: 3 }, { seatsMale: 3, seatsFemale: 6 }, { seatsMale: -1, seatsFemale: 11 }]) {
      expect((await update(fields)).status, JSON.stringify(fields)).toBe(400);
    }
    expect(stored()).toMatchObject({ seatsMale: null, seatsFemale: null });

    expect((await update({ seatsMale: 3, seatsFemale: 7 })).status).toBe(200);
    expect(stored()).toMatchObject({ seatsMale: 3, seatsFemale: 7 });
    expect(await publicEvent(event.id)).toMatchObject({ SeatsLeft: { male: 0, female: 6 } });
    // Left out, the split stays; a new total must then come with a split that adds up to it.
    expect((await update({ eventName: "Renamed" })).status).toBe(200);
    expect(stored()).toMatchObject({ seatsMale: 3, seatsFemale: 7, name: "Renamed" });
    expect((await update({ totalSeats: 12 })).status).toBe(400);
    expect((await update({ totalSeats: 12, seatsMale: 5, seatsFemale: 7 })).status).toBe(200);

    // Back to one pool of seats.
    expect((await update({ totalSeats: 12, seatsMale: null, seatsFemale: null })).status).toBe(200);
    expect(stored()).toMatchObject({ totalSeats: 12, seatsMale: null, seatsFemale: null });
    expect(await publicEvent(event.id)).toMatchObject({ SeatsLeft: null });
  });
});

describe("booking a balanced event", () => {
  it("a full gender is refused with 'no seats left for men', while the other still books", async () => {
    const event = await newEvent({ total: 3, male: 1, female: 2 });
    insertPaidBookings(server.deps.db, event.id, 1, { gender: "male" });
    const usersBefore = server.deps.db.select().from(users).all().length;

    const man = await book(event.id, "male");
    expect(man).toMatchObject({ status: 409, error: "no seats left for men" });
    expect(server.deps.db.select().from(users).all().length).toBe(usersBefore);

    expect((await book(event.id, "female")).status).toBe(200);
    expect(await publicEvent(event.id)).toMatchObject({ SeatsLeft: { male: 0, female: 1 }, SeatAvailabilityPer: 33 });
    expect((await book(event.id, "female")).status).toBe(200);
    const full = await book(event.id, "female");
    expect(full).toMatchObject({ status: 409, error: "no seats left" });
  });

  it("counts live holds against their gender, and not expired ones", async () => {
    const event = await newEvent({ total: 4, male: 2, female: 2 });
    insertHeldBooking(server.deps.db, event.id, { gender: "female", now: now() });
    insertHeldBooking(server.deps.db, event.id, { gender: "female", now: now() - 31 * MINUTE });
    insertHeldBooking(server.deps.db, event.id, { gender: "male", now: now() });
    expect(await listed(event.id)).toMatchObject({ SeatsLeft: { male: 1, female: 1 }, SeatAvailabilityPer: 50 });
  });

  it("a payment that arrives after its hold ran out takes a seat of its own gender only, else it is refunded", async () => {
    const event = await newEvent({ total: 2, male: 1, female: 1 });
    const late = await book(event.id, "male");
    expect(late.status).toBe(200);
    const session = await createCheckout(server.url, { userID: late.userID!, eventID: event.id }, late.browser);
    server.advance(32 * MINUTE);
    // The man's seat went to someone else meanwhile; a woman's seat is still free.
    expect((await book(event.id, "male")).status).toBe(200);

    const outcome = await completeCheckout(server.deps, {
      sessionId: session.sessionId!,
      paymentIntentId: `pi_local_late_${late.userID}`,
    });
    expect(outcome.outcome).toBe("refunded");
    expect(server.deps.db.select().from(bookings).where(eq(bookings.userId, late.userID!)).get()?.status).toBe(
      "refunded",
    );
    expect(await publicEvent(event.id)).toMatchObject({ SeatsLeft: { male: 0, female: 1 } });
  });
});

describe("GET /api/admin-event/{id}/waitlist", () => {
  it("needs the admin session and a real event", async () => {
    const event = await newEvent({ total: 2, male: 1, female: 1 });
    const anonymous = await fetch(`${server.url}/api/admin-event/${event.id}/waitlist`);
    expect(anonymous.status).toBe(401);
    expect((await suite.admin.get("/api/admin-event/987654/waitlist")).status).toBe(404);
    const empty = await suite.admin.get(`/api/admin-event/${event.id}/waitlist`);
    expect(empty.status).toBe(200);
    expect(empty.headers.get("cache-control")).toBe("no-store");
    expect(await json(empty)).toEqual({ success: true, waitlist: [] });
  });
});
