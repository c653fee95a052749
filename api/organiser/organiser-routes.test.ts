import { eq } from "drizzle-orm";
import { beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bookings, events, promoCodes, refunds, users } from "../../db/schema.ts";
import { type BrowserClient, browserClient, suiteTestServer } from "../../test/api-harness.ts";
import { yearLike } from "../../test/clock.ts";
import { insertEvent, insertHeldBooking, insertPaidBookings, makeImage } from "../../test/fixtures.ts";
import { createCheckout, holdSeat, newMobile, pay, verifiedBrowser } from "../../test/suites/booking-flow.ts";
import { feedbackToken } from "../lib/capability.ts";

// Dates in a year laid out like 2031, always ahead of the clock (test/clock.ts).
const Y = yearLike(2031);

// The organiser's desk (docs/decisions/014-organiser-desk.md): the Overview's numbers, cancelling an event, the edits the original
// form could not make, and the participants spreadsheet. Real HTTP on a real SQLite file; the local
// payments provider underneath, wrapped so a test can count refund calls and make some fail.

const PASSWORD = "correct horse battery staple";
const MINUTE = 60_000;

type RefundCall = { paymentIntentId: string; key: string };
const refundCalls: RefundCall[] = [];
/**
 * Chooses what the provider does on its nth refund call of a test (1-based): refund normally, fail
 * before refunding (an outage), or refund and then fail (the answer lost: the server "crashed"
 * before it could record the refund).
 */
let fault: (n: number) => "ok" | "outage" | "lost-answer" = () => "ok";

const server = suiteTestServer({
  deps: (base) => ({
    payments: {
      ...base.payments,
      refund: async (paymentIntentId, key) => {
        refundCalls.push({ paymentIntentId, key });
        const mode = fault(refundCalls.length);
        if (mode === "outage") throw new Error("card network unavailable");
        const made = await base.payments.refund(paymentIntentId, key);
        if (mode === "lost-answer") throw new Error("socket hang up");
        return made;
      },
    },
  }),
});
let admin: BrowserClient;
let anon: BrowserClient;

beforeAll(async () => {
  admin = browserClient(server.url);
  anon = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
});
beforeEach(() => {
  refundCalls.length = 0;
  fault = () => "ok";
});

const json = async <T = Record<string, unknown>>(response: Response) => (await response.json()) as T;
const now = () => server.deps.now();
const newEvent = (overrides: Parameters<typeof insertEvent>[2] = {}) =>
  insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR, overrides);
const eventDetail = async (id: number) => json(await fetch(`${server.url}/api/get-event/${id}`));
const summary = async (id: number) => json(await admin.get(`/api/admin-event-summary/${id}`));
const bookingRow = (bookingId: number) =>
  server.deps.db.select().from(bookings).where(eq(bookings.id, bookingId)).get()!;

/** Paid bookings whose payments the local provider can refund (its intents are `pi_local_…`). */
function paidBookings(eventId: number, count: number, attendee: { gender?: "male" | "female"; name?: string } = {}) {
  return insertPaidBookings(server.deps.db, eventId, count, attendee).map((p) => {
    const paymentIntentId = `pi_local_${p.bookingId}_${Math.random().toString(36).slice(2, 10)}`;
    server.deps.db.update(bookings).set({ paymentIntentId }).where(eq(bookings.id, p.bookingId)).run();
    return { ...p, paymentIntentId };
  });
}

async function textsTo(phone: string) {
  const outbox = await json<{ to: string; body: string }[]>(await fetch(`${server.url}/api/dev/outbox`));
  return outbox.filter((m) => m.to === phone);
}

describe("GET /api/admin-event-summary/{id}", () => {
  const rate = (eventId: number, from: number, to: number, feedback: "like" | "dislike") =>
    anon.postJson("/api/save-feedback", {
      fromUserID: from,
      toUserID: to,
      eventID: eventId,
      feedback,
      token: feedbackToken(server.deps.env, "start", from, eventId),
    });

  it("counts a scripted night: seats by gender, a hold, a refund, check-ins, ratings, and matches after the release", async () => {
    const { db } = server.deps;
    const event = await newEvent({ totalSeats: 10, priceCents: 4500 });
    const [m1, m2, m3] = paidBookings(event.id, 3, { gender: "male" });
    const [f1, f2, f3] = paidBookings(event.id, 3, { gender: "female" });
    insertHeldBooking(db, event.id, { now: now() });
    insertHeldBooking(db, event.id, { now: now() - 31 * MINUTE });

    expect((await admin.postJson("/api/refund", { paymentIntentId: f3!.paymentIntentId })).status).toBe(200);
    const before = await summary(event.id);
    expect(before).toEqual({
      eventId: event.id,
      status: "upcoming",
      seats: { total: 10, male: null, female: null },
      paid: { total: 5, male: null, female: null },
      held: 1,
      waitlist: 0,
      refunded: 1,
      checkedIn: 0,
      revenue: 225,
      discount: 0,
      codes: [],
      matches: null,
      feedbackGiven: null,
      ratings: { done: 0, total: 0 },
      came: 0,
      noShows: 0,
      creditOutstandingCents: 0,
      shortOfNumbers: null,
    });

    expect((await admin.postJson("/api/start-event", { eventId: event.id })).status).toBe(200);
    // Once the door is used, only the people checked in are anyone's partners: all five who rate came.
    for (const p of [m1!, f1!, m2!, f2!, m3!]) {
      const response = await admin.postJson("/api/check-in", { eventID: event.id, userID: p.userId, clientTs: now() });
      expect(response.status).toBe(200);
    }
    for (const [from, to, value] of [
      [m1!, f1!, "like"],
      [f1!, m1!, "like"],
      [m2!, f1!, "like"],
      [f2!, m2!, "dislike"],
    ] as const) {
      expect((await rate(event.id, from.userId, to.userId, value)).status).toBe(200);
    }
    expect(await summary(event.id)).toMatchObject({
      status: "started",
      checkedIn: 5,
      matches: null,
      feedbackGiven: null,
      ratings: { done: 0, total: 5 },
    });

    expect((await admin.postJson("/api/end-event", { eventId: event.id })).status).toBe(200);
    // Late raters: feedback is still taken after the end.
    expect((await rate(event.id, m3!.userId, f2!.userId, "like")).status).toBe(200);
    expect((await rate(event.id, f2!.userId, m3!.userId, "like")).status).toBe(200);
    // Rating all three men she met makes her the one participant done.
    expect((await rate(event.id, f2!.userId, m1!.userId, "dislike")).status).toBe(200);
    server.advance(31 * MINUTE);
    // The matches wait for the release; how many have finished rating shows at once.
    expect(await summary(event.id)).toMatchObject({ status: "ended", matches: null, ratings: { done: 1, total: 5 } });
    expect((await admin.postJson("/api/release-results", { eventId: event.id })).status).toBe(200);
    expect(await summary(event.id)).toEqual({
      eventId: event.id,
      status: "ended",
      seats: { total: 10, male: null, female: null },
      paid: { total: 5, male: null, female: null },
      held: 0,
      waitlist: 0,
      refunded: 1,
      checkedIn: 5,
      revenue: 225,
      discount: 0,
      codes: [],
      matches: 2,
      // The same number as the Rounds tab's progress: those who rated everyone they met.
      feedbackGiven: 1,
      ratings: { done: 1, total: 5 },
      came: 5,
      noShows: 0,
      // No guest holds credit (docs/decisions/057-credit.md).
      creditOutstandingCents: 0,
      shortOfNumbers: null,
    });
  });

  it("shows a balanced event's seats and paid seats per gender, and how many wait", async () => {
    const event = await newEvent({ totalSeats: 4, seatsMale: 2, seatsFemale: 2 });
    paidBookings(event.id, 2, { gender: "male" });
    const [woman] = paidBookings(event.id, 1, { gender: "female" });
    insertHeldBooking(server.deps.db, event.id, { gender: "female", now: now() });
    const join = async (gender: "male" | "female") => {
      const phone = newMobile();
      const browser = await verifiedBrowser(server.url, phone);
      const joined = await browser.postJson("/api/join-waitlist", { eventID: event.id, phone, gender, name: "Sam" });
      expect(joined.status).toBe(200);
    };
    await join("male");
    await join("male");
    await join("female");
    expect(await summary(event.id)).toMatchObject({
      seats: { total: 4, male: 2, female: 2 },
      paid: { total: 3, male: 2, female: 1 },
      held: 1,
      waitlist: 3,
    });

    // A refund frees a woman's seat, which goes to the woman waiting: she is still counted until she books.
    expect((await admin.postJson("/api/refund", { paymentIntentId: woman!.paymentIntentId })).status).toBe(200);
    expect(await summary(event.id)).toMatchObject({ paid: { total: 2, male: 2, female: 0 }, waitlist: 3 });
    const listed = await json<{ waitlist: { position: number; gender: string; status: string }[] }>(
      await admin.get(`/api/admin-event/${event.id}/waitlist`),
    );
    expect(listed.waitlist.map((w) => [w.gender, w.position, w.status])).toEqual([
      ["male", 1, "waiting"],
      ["male", 2, "waiting"],
      ["female", 1, "offered"],
    ]);
  });

  it("answers 401 without the session, 404 for an unknown event and 400 for a bad id, never cached", async () => {
    const event = await newEvent();
    const response = await admin.get(`/api/admin-event-summary/${event.id}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const refused = await anon.get(`/api/admin-event-summary/${event.id}`);
    expect(refused.status).toBe(401);
    expect(await json(refused)).toEqual({ success: false, error: expect.any(String), code: "admin_session_required" });
    expect((await admin.get("/api/admin-event-summary/987654")).status).toBe(404);
    for (const bad of ["abc", "0", "-1", "1.5"]) {
      expect((await admin.get(`/api/admin-event-summary/${bad}`)).status).toBe(400);
    }
  });
});

describe("POST /api/cancel-event", () => {
  const cancel = (eventId: unknown, client = admin) => client.postJson("/api/cancel-event", { eventId });

  it("cancels, refunds every paid booking, releases the holds and texts each paid attendee once", async () => {
    const { db } = server.deps;
    const event = await newEvent({ name: "Rainy Night" });
    const paid = paidBookings(event.id, 3);
    const [earlier] = paidBookings(event.id, 1);
    expect((await admin.postJson("/api/refund", { paymentIntentId: earlier!.paymentIntentId })).status).toBe(200);
    const hold = insertHeldBooking(db, event.id, { now: now() });
    refundCalls.length = 0;

    const response = await cancel(event.id);
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ success: true, refunded: 3, failed: 0, sent: 3, smsFailed: 0 });
    expect((await eventDetail(event.id)).event_status).toBe("cancelled");
    for (const p of paid) {
      expect(bookingRow(p.bookingId).status).toBe("refunded");
      const texts = await textsTo(p.phone);
      expect(texts).toHaveLength(1);
      expect(texts[0]!.body).toContain("Rainy Night");
      expect(texts[0]!.body).toContain("cancelled");
      expect(texts[0]!.body).toContain("$45.00");
    }
    expect(refundCalls.map((c) => c.paymentIntentId).sort()).toEqual(paid.map((p) => p.paymentIntentId).sort());
    // Refunded before the cancel: their own refund's text, and no cancellation news for a seat they no longer hold.
    const earlierTexts = await textsTo(earlier!.phone);
    expect(earlierTexts).toHaveLength(1);
    expect(earlierTexts[0]!.body).toMatch(/^Your \$45\.00 for Rainy Night is being refunded to your card/);
    expect(await textsTo(hold.phone)).toEqual([]);
    expect(bookingRow(hold.bookingId).status).toBe("released");
    expect(await summary(event.id)).toMatchObject({
      status: "cancelled",
      paid: { total: 0 },
      held: 0,
      refunded: 4,
      revenue: 0,
    });

    // A second press: 200, nothing more refunded or texted.
    const again = await cancel(event.id);
    expect(again.status).toBe(200);
    expect(await json(again)).toEqual({ success: true, refunded: 0, failed: 0, sent: 0, smsFailed: 0 });
    expect(refundCalls).toHaveLength(3);
    for (const p of paid) expect(await textsTo(p.phone)).toHaveLength(1);
  });

  it("takes no more bookings, and an open checkout can no longer be paid", async () => {
    const event = await newEvent();
    const image = new Uint8Array(await makeImage());
    const phone = newMobile();
    const buyer = await verifiedBrowser(server.url, phone);
    const held = await holdSeat(buyer, { phone, eventId: event.id, image });
    expect(held.status).toBe(200);
    const checkout = await createCheckout(server.url, { userID: held.userID!, eventID: event.id }, buyer);
    expect(checkout.status).toBe(200);

    expect((await cancel(event.id)).status).toBe(200);
    expect(await pay(server.url, checkout.sessionId!)).not.toBe(303);
    const participants = await json<unknown[]>(await admin.get(`/api/get-event-user/${event.id}`));
    expect(participants).toEqual([]);

    const late = newMobile();
    const another = await verifiedBrowser(server.url, late);
    expect((await holdSeat(another, { phone: late, eventId: event.id, image })).status).toBe(409);
  });

  it("survives a crash half-way: a re-run refunds only what is left, nobody twice, and texts nobody twice", async () => {
    const event = await newEvent();
    const paid = paidBookings(event.id, 5);
    // The third refund is made at the provider but its answer is lost; from the fourth on, an outage.
    fault = (n) => (n === 3 ? "lost-answer" : n > 3 ? "outage" : "ok");

    const first = await cancel(event.id);
    expect(first.status).toBe(200);
    expect(await json(first)).toEqual({ success: true, refunded: 2, failed: 3, sent: 5, smsFailed: 0 });
    expect((await eventDetail(event.id)).event_status).toBe("cancelled");
    expect(paid.map((p) => bookingRow(p.bookingId).status)).toEqual(["refunded", "refunded", "paid", "paid", "paid"]);

    fault = () => "ok";
    const second = await cancel(event.id);
    expect(second.status).toBe(200);
    expect(await json(second)).toEqual({ success: true, refunded: 3, failed: 0, sent: 0, smsFailed: 0 });
    expect(paid.every((p) => bookingRow(p.bookingId).status === "refunded")).toBe(true);

    // Every provider call for a payment carried that booking's one idempotency key, so the provider
    // made one refund per payment however often it was asked; and one refund is recorded for each.
    for (const p of paid) {
      const keys = new Set(refundCalls.filter((c) => c.paymentIntentId === p.paymentIntentId).map((c) => c.key));
      expect(keys).toEqual(new Set([`refund-${p.bookingId}`]));
      const recorded = server.deps.db.select().from(refunds).where(eq(refunds.bookingId, p.bookingId)).all();
      expect(recorded).toHaveLength(1);
      expect(await textsTo(p.phone)).toHaveLength(1);
    }
    // The payment whose answer was lost was asked again (same key), the outage's ones once more each.
    expect(refundCalls.filter((c) => c.paymentIntentId === paid[2]!.paymentIntentId)).toHaveLength(2);

    const third = await cancel(event.id);
    expect(await json(third)).toEqual({ success: true, refunded: 0, failed: 0, sent: 0, smsFailed: 0 });
  });

  it("refunds each payment once when two cancels arrive together", async () => {
    const event = await newEvent();
    const paid = paidBookings(event.id, 4);
    const replies = await Promise.all([cancel(event.id), cancel(event.id)]);
    expect(replies.map((r) => r.status)).toEqual([200, 200]);
    expect(refundCalls).toHaveLength(4);
    for (const p of paid) {
      expect(bookingRow(p.bookingId).status).toBe("refunded");
      expect(await textsTo(p.phone)).toHaveLength(1);
    }
  });

  it("answers 409 once the event started or ended, and then changes nothing", async () => {
    for (const status of ["started", "ended"] as const) {
      const event = await newEvent({ status });
      const [p] = paidBookings(event.id, 1);
      const response = await cancel(event.id);
      expect(response.status).toBe(409);
      expect(await json(response)).toEqual({
        success: false,
        error: expect.stringContaining(status),
        code: "wrong_state",
      });
      expect((await eventDetail(event.id)).event_status).toBe(status);
      expect(bookingRow(p!.bookingId).status).toBe("paid");
      expect(await textsTo(p!.phone)).toEqual([]);
    }
    expect(refundCalls).toEqual([]);
  });

  it("answers 401 without the session, 404 for an unknown event and 400 for a bad id", async () => {
    const event = await newEvent();
    const refused = await cancel(event.id, anon);
    expect(refused.status).toBe(401);
    expect(await json(refused)).toEqual({ success: false, error: expect.any(String), code: "admin_session_required" });
    expect((await eventDetail(event.id)).event_status).toBe("upcoming");
    expect((await cancel(987654)).status).toBe(404);
    for (const bad of ["abc", 0, -1, 1.5, null]) expect((await cancel(bad)).status).toBe(400);
    expect((await admin.postJson("/api/cancel-event", {})).status).toBe(400);
  });

  it("leaves a cancelled event unable to start, end or be edited (409)", async () => {
    const event = await newEvent();
    expect((await cancel(event.id)).status).toBe(200);
    expect((await admin.postJson("/api/start-event", { eventId: event.id })).status).toBe(409);
    expect((await admin.postJson("/api/end-event", { eventId: event.id })).status).toBe(409);
    const edit = await admin.postJson("/api/update-event", {
      eventid: event.id,
      eventName: "Back On",
      eventDate: new Date(event.startsAt).toISOString().slice(0, 10),
      totalSeats: 10,
    });
    expect(edit.status).toBe(409);
    expect((await eventDetail(event.id)).event_name).toBe(event.name);
  });
});

describe("POST /api/update-event: the address and the price", () => {
  const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

  it("fixes a typo in the address and sets the price of bookings made afterwards; paid ones keep theirs", async () => {
    const event = await newEvent({ address: "1 Gorge St, Sydney", priceCents: 4500 });
    const [early] = paidBookings(event.id, 1);
    const response = await admin.postJson("/api/update-event", {
      eventid: event.id,
      eventName: event.name,
      eventDate: dateOf(event.startsAt),
      totalSeats: event.totalSeats,
      eventAddress: "  1 George St, Sydney NSW 2000 ",
      bookingAmount: "55.50",
    });
    expect(response.status).toBe(200);
    expect(await eventDetail(event.id)).toMatchObject({
      event_address: "1 George St, Sydney NSW 2000",
      booking_amount: 55.5,
      event_name: event.name,
    });

    const phone = newMobile();
    const buyer = await verifiedBrowser(server.url, phone);
    const held = await holdSeat(buyer, { phone, eventId: event.id, image: new Uint8Array(await makeImage()) });
    const checkout = await createCheckout(server.url, { userID: held.userID!, eventID: event.id }, buyer);
    expect(await (await fetch(checkout.url!)).text()).toContain("$55.50");
    expect(await pay(server.url, checkout.sessionId!)).toBe(303);

    const list = await json<{ id: number; booking_amount: number }[]>(
      await admin.get(`/api/get-event-user/${event.id}`),
    );
    expect(list.map((p) => [p.id, p.booking_amount])).toEqual([
      [early!.userId, 45],
      [held.userID, 55.5],
    ]);
  });

  it.each<[string, Record<string, unknown>]>([
    ["a blank address", { eventAddress: "   " }],
    ["an overlong address", { eventAddress: "x".repeat(301) }],
    ["an address that is not text", { eventAddress: 12 }],
    ["a price below the card minimum", { bookingAmount: 0.49 }],
    ["a price with 3 decimals", { bookingAmount: "12.345" }],
    ["a negative price", { bookingAmount: -5 }],
    ["a price in words", { bookingAmount: "fifty" }],
  ])("answers 400 for %s and changes nothing", async (_, overrides) => {
    const event = await newEvent({ priceCents: 4500 });
    const response = await admin.postJson("/api/update-event", {
      eventid: event.id,
      eventName: "Changed",
      eventDate: dateOf(event.startsAt),
      totalSeats: event.totalSeats,
      ...overrides,
    });
    expect(response.status).toBe(400);
    expect(await json(response)).toEqual({ success: false, error: expect.any(String), code: "invalid_request" });
    expect(await eventDetail(event.id)).toMatchObject({
      event_name: event.name,
      event_address: event.address,
      booking_amount: 45,
    });
  });
});

describe("POST /api/update-event-image", () => {
  const form = async (fields: { eventid?: string; image?: Blob | string | null }) => {
    const data = new FormData();
    if (fields.eventid !== undefined) data.append("eventid", fields.eventid);
    const image =
      fields.image === undefined
        ? new Blob([new Uint8Array(await makeImage("png"))], { type: "image/png" })
        : fields.image;
    if (image instanceof Blob) data.append("eventImage", image, "new.png");
    else if (image !== null) data.append("eventImage", image);
    return data;
  };
  const imageStatus = async (name: string) => (await fetch(`${server.url}/api/images/${name}`)).status;

  it("replaces the picture, serves the new one and removes the old", async () => {
    const event = await newEvent();
    const response = await admin.postForm("/api/update-event-image", await form({ eventid: String(event.id) }));
    expect(response.status).toBe(200);
    const reply = await json(response);
    expect(reply).toEqual({ success: true, event_image: expect.any(String) });
    const detail = await eventDetail(event.id);
    expect(detail.event_image).toBe(reply.event_image);
    expect(detail.event_image).not.toBe(event.imageName);
    const served = await fetch(`${server.url}/api/images/${detail.event_image as string}`);
    expect(served.status).toBe(200);
    expect(served.headers.get("content-type")).toBe("image/jpeg");
    expect(await imageStatus(event.imageName)).toBe(404);
  });

  it.each<[string, number, () => Promise<{ eventid?: string; image?: Blob | string | null }>]>([
    ["no file", 400, async () => ({ eventid: "EVENT", image: null })],
    ["a text field for the file", 400, async () => ({ eventid: "EVENT", image: "photo.png" })],
    ["an empty file", 400, async () => ({ eventid: "EVENT", image: new Blob([], { type: "image/png" }) })],
    ["no event id", 400, async () => ({})],
    ["a bad event id", 400, async () => ({ eventid: "abc" })],
    ["an unknown event", 404, async () => ({ eventid: "987654" })],
    [
      "a file that is not an image",
      415,
      async () => ({
        eventid: "EVENT",
        image: new Blob([new TextEncoder().encode("GIF89a no")], { type: "image/png" }),
      }),
    ],
    ["an image over 5 MB", 413, async () => ({ eventid: "EVENT", image: new Blob([new Uint8Array(5_242_881)]) })],
  ])("answers %s with %i and keeps the old picture", async (_, status, fields) => {
    const event = await newEvent();
    const f = await fields();
    const response = await admin.postForm(
      "/api/update-event-image",
      await form({ ...f, eventid: f.eventid === "EVENT" ? String(event.id) : f.eventid }),
    );
    expect(response.status).toBe(status);
    const code = ({ 400: "invalid_request", 404: "not_found", 413: "too_large", 415: "not_an_image" } as const)[status];
    expect(await json(response)).toEqual({ success: false, error: expect.any(String), code });
    expect((await eventDetail(event.id)).event_image).toBe(event.imageName);
    expect(await imageStatus(event.imageName)).toBe(200);
  });

  it("answers 409 for an ended or cancelled event, and 401 without the session", async () => {
    for (const status of ["ended", "cancelled"] as const) {
      const event = await newEvent({ status });
      const response = await admin.postForm("/api/update-event-image", await form({ eventid: String(event.id) }));
      expect(response.status).toBe(409);
      expect((await eventDetail(event.id)).event_image).toBe(event.imageName);
    }
    const event = await newEvent();
    const refused = await anon.postForm("/api/update-event-image", await form({ eventid: String(event.id) }));
    expect(refused.status).toBe(401);
    expect((await eventDetail(event.id)).event_image).toBe(event.imageName);
  });
});

describe("GET /api/admin-event/{id}/participants.csv", () => {
  const csvOf = (eventId: number | string, client = admin) =>
    client.get(`/api/admin-event/${eventId}/participants.csv`);

  it("answers a spreadsheet named after the event and its date, times on the venue's clock", async () => {
    const { db } = server.deps;
    // 7 pm in Perth on 1 December (AWST, UTC+8, no daylight saving) is 11:00 UTC.
    const event = await newEvent({
      name: "Harbour Lights: Mixer & Café!",
      startsAt: Date.UTC(Y, 11, 1, 11, 0),
      timeZone: "Australia/Perth",
    });
    const [asha] = paidBookings(event.id, 1, { name: "Asha Rao", gender: "female" });
    const [ravi] = paidBookings(event.id, 1, { name: "Ravi, Jr.", gender: "male" });
    insertHeldBooking(db, event.id, { now: now(), name: "Not Paid Yet" });
    // Booked at 19:05 on 29 November in Perth; in at 18:55 on the night, a day on in UTC terms.
    const paidAt = Date.UTC(Y, 10, 29, 11, 5);
    db.update(bookings)
      .set({ paidAt, checkedInAt: Date.UTC(Y, 11, 1, 10, 55) })
      .where(eq(bookings.id, asha!.bookingId))
      .run();
    // Just before midnight UTC is the next morning in Perth.
    db.update(bookings)
      .set({ paidAt: Date.UTC(Y, 10, 29, 23, 59, 40), status: "refunded", amountCents: 4950 })
      .where(eq(bookings.id, ravi!.bookingId))
      .run();
    // Born 3 May, 36 years before the night's year: 36 on the night.
    db.update(users)
      .set({ email: "asha@example.com", dateOfBirth: `${Y - 36}-05-03` })
      .where(eq(users.id, asha!.userId))
      .run();
    // Asha paid 45.00 after an early bird of 5.00 and a code's 2.50 (docs/decisions/023-prices-and-ages.md).
    const code = db
      .insert(promoCodes)
      .values({ eventId: event.id, code: "NEWS", amountOffCents: 250 })
      .returning()
      .get();
    db.update(bookings)
      .set({ listPriceCents: 5250, earlyBirdCents: 500, discountCents: 750, promoCodeId: code.id })
      .where(eq(bookings.id, asha!.bookingId))
      .run();
    db.update(users)
      .set({ email: "ravi@example.com", dateOfBirth: `${Y - 36}-05-03` })
      .where(eq(users.id, ravi!.userId))
      .run();

    const response = await csvOf(event.id);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="harbour-lights-mixer-cafe-${Y}-12-01-participants.csv"`,
    );
    expect(response.headers.get("cache-control")).toBe("no-store");
    const national = (e164: string) => `0${e164.slice(3, 6)} ${e164.slice(6, 9)} ${e164.slice(9)}`;
    expect((await response.text()).split("\n")).toEqual([
      "name,email,phone,gender,age,status,amount,discount,code,payment_intent_id,invoice_number,booked_at (Australia/Perth),checked_in_at (Australia/Perth)",
      `Asha Rao,asha@example.com,${national(asha!.phone)},female,36,paid,45.00,7.50,NEWS,${asha!.paymentIntentId},,${Y}-11-29 19:05,${Y}-12-01 18:55`,
      `"Ravi, Jr.",ravi@example.com,${national(ravi!.phone)},male,36,refunded,49.50,0.00,,${ravi!.paymentIntentId},,${Y}-11-30 07:59,`,
      "",
    ]);
  });

  it("names the file after the event's date in its own zone, and by its id when the name has no letters", async () => {
    // 23:30 UTC on 30 November is already 1 December in Sydney (AEDT, UTC+11).
    const late = await newEvent({ name: "Late Night", startsAt: Date.UTC(Y, 10, 30, 23, 30) });
    expect((await csvOf(late.id)).headers.get("content-disposition")).toBe(
      `attachment; filename="late-night-${Y}-12-01-participants.csv"`,
    );
    const unnamed = await newEvent({ name: "💃🕺 ⭐", startsAt: Date.UTC(Y, 10, 30, 23, 30) });
    expect((await csvOf(unnamed.id)).headers.get("content-disposition")).toBe(
      `attachment; filename="event-${unnamed.id}-${Y}-12-01-participants.csv"`,
    );
    const long = await newEvent({ name: `${"Very ".repeat(40)}Long`, startsAt: Date.UTC(Y, 10, 30, 23, 30) });
    const name = /filename="([^"]+)"/.exec((await csvOf(long.id)).headers.get("content-disposition") ?? "")?.[1];
    expect(name).toMatch(new RegExp(`^(very-)+very-${Y}-12-01-participants\\.csv$`));
    expect(name!.length).toBeLessThanOrEqual(100);
  });

  it("prefixes with ' every cell a spreadsheet would run as a formula", async () => {
    const { db } = server.deps;
    const event = await newEvent();
    const names = ['=HYPERLINK("http://evil.example","x")', "+61 call me", "-2+3", "@SUM(A1)", "\tTabbed", "\rReturn"];
    const rows = names.map((name) => paidBookings(event.id, 1, { name })[0]!);
    db.update(users).set({ email: "=cmd|' /C calc'!A0" }).where(eq(users.id, rows[0]!.userId)).run();

    const lines = (await (await csvOf(event.id)).text()).split("\n").slice(1, -1);
    const escaped = [
      `"'=HYPERLINK(""http://evil.example"",""x"")"`,
      "'+61 call me",
      "'-2+3",
      "'@SUM(A1)",
      "'\tTabbed",
      `"'\rReturn"`,
    ];
    expect(lines).toHaveLength(escaped.length);
    for (const [i, cell] of escaped.entries()) expect(lines[i]!.startsWith(`${cell},`), lines[i]).toBe(true);
    expect(lines[0]).toContain(`,'=cmd|' /C calc'!A0,`);
  });

  it("answers only the header for an event nobody booked, 401 without the session, 404 and 400", async () => {
    const event = await newEvent();
    expect(await (await csvOf(event.id)).text()).toBe(
      "name,email,phone,gender,age,status,amount,discount,code,payment_intent_id,invoice_number,booked_at (Australia/Sydney),checked_in_at (Australia/Sydney)\n",
    );
    const refused = await csvOf(event.id, anon);
    expect(refused.status).toBe(401);
    expect(await json(refused)).toEqual({ success: false, error: expect.any(String), code: "admin_session_required" });
    expect((await csvOf(987654)).status).toBe(404);
    for (const bad of ["abc", "0", "1.5"]) expect((await csvOf(bad)).status).toBe(400);
  });
});

describe("GET /api/get-event-user/{id} for the desk", () => {
  it("adds each participant's email and when they booked", async () => {
    const { db } = server.deps;
    const event = await newEvent();
    const [p] = paidBookings(event.id, 1);
    db.update(bookings)
      .set({ paidAt: Date.UTC(Y, 1, 2, 3, 4) })
      .where(eq(bookings.id, p!.bookingId))
      .run();
    db.update(users).set({ email: "desk@example.com" }).where(eq(users.id, p!.userId)).run();
    const [row] = await json<Record<string, unknown>[]>(await admin.get(`/api/get-event-user/${event.id}`));
    expect(row).toMatchObject({ id: p!.userId, email: "desk@example.com", bookedAt: `${Y}-02-02T03:04:00.000Z` });
  });
});

describe("a cancelled event in the public listing", () => {
  it("is still answered, marked cancelled, so a saved link explains itself (the home page hides it)", async () => {
    const event = await newEvent({ name: "Called Off" });
    expect((await admin.postJson("/api/cancel-event", { eventId: event.id })).status).toBe(200);
    const listed = await json<{ id: number; event_status: string }[]>(await fetch(`${server.url}/api/get-events`));
    expect(listed.find((e) => e.id === event.id)?.event_status).toBe("cancelled");
    const row = server.deps.db.select().from(events).where(eq(events.id, event.id)).get();
    expect(row?.status).toBe("cancelled");
  });
});
