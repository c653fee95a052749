import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatVenueTime } from "../../common/time-zone.ts";
import { bookings, type Event, outboxMessages, waitlistEntries, waitlistOffers } from "../../db/schema.ts";
import { browserClient } from "../../test/api-harness.ts";
import { insertHeldBooking } from "../../test/fixtures.ts";
import { createCheckout, holdSeat, newMobile, pay } from "../../test/suites/booking-flow.ts";
import { json, offerLink, type Person, waitlistSuite } from "../../test/suites/waitlist.ts";
import { backgroundJobs } from "../ops/jobs.ts";
import { createScheduler, type Scheduler } from "../ops/scheduler.ts";

// The waitlist (docs/decisions/015-balanced-rooms-and-waitlist.md): a verified phone waits
// for a full event (per gender at a balanced one); every freed seat is offered by SMS to the first in
// line, kept for WAITLIST_OFFER_MINUTES (never past the start), and passes on when not taken. Real
// HTTP; the clock is moved, never waited for; the scheduler is ticked by hand as server.ts would.

const MINUTE = 60_000;

const suite = waitlistSuite();
const { server, now, browserFor, paidSeats, person } = suite;
const newEvent = (seats: { total: number; male?: number; female?: number; startsIn?: number }) =>
  suite.newEvent({ ...seats, name: "Harbour Mixer" });

// Ticked by hand, as server.ts's loop would; stopped before the suite checks the server's errors.
let scheduler: Scheduler;
beforeAll(() => {
  scheduler = createScheduler({ log: server.deps.log, now: server.deps.now }, backgroundJobs(server.deps));
});
afterAll(() => scheduler.stop());

const join = (p: Person, event: Event, gender: "male" | "female", name = "Sam Lee") =>
  p.browser.postJson("/api/join-waitlist", { eventID: event.id, phone: p.phone, gender, name });

async function joined(p: Person, event: Event, gender: "male" | "female") {
  const response = await join(p, event, gender);
  expect(response.status, await response.clone().text()).toBe(200);
  return (await json<{ position: number }>(response)).position;
}

/** The offers texted to `phone` so far (after a scheduler tick delivered them). */
async function offersTo(phone: string) {
  const outbox = await json<{ to: string; body: string }[]>(await fetch(`${server.url}/api/dev/outbox`));
  return outbox
    .filter((m) => m.to === phone && m.body.includes("/waitlist-offer?"))
    .map((m) => ({ body: m.body, ...offerLink(m.body) }));
}

const claim = (offer: { o: number; t: string }, browser = browserClient(server.url)) =>
  browser.postJson("/api/claim-offer", { o: offer.o, t: offer.t });

const refund = (paymentIntentId: string) => suite.admin.postJson("/api/refund", { paymentIntentId });

describe("joining the waitlist", () => {
  it("a verified phone joins a full event and learns its place, counted per gender", async () => {
    const event = await newEvent({ total: 4, male: 2, female: 2 });
    paidSeats(event.id, 2, "male");
    paidSeats(event.id, 2, "female");
    const [m1, f1, m2] = [person(), person(), person()];
    expect(await joined(m1!, event, "male")).toBe(1);
    expect(await joined(f1!, event, "female")).toBe(1);
    expect(await joined(m2!, event, "male")).toBe(2);

    const listed = await json<{ waitlist: Record<string, unknown>[] }>(
      await suite.admin.get(`/api/admin-event/${event.id}/waitlist`),
    );
    expect(listed.waitlist).toEqual([
      expect.objectContaining({ position: 1, phone: m1!.phone, gender: "male", status: "waiting", name: "Sam Lee" }),
      expect.objectContaining({ position: 1, phone: f1!.phone, gender: "female", status: "waiting" }),
      expect.objectContaining({ position: 2, phone: m2!.phone, gender: "male", status: "waiting" }),
    ]);
  });

  it("has one line for everyone at an event without seats by gender", async () => {
    const event = await newEvent({ total: 2 });
    paidSeats(event.id, 2, "female");
    expect(await joined(person(), event, "male")).toBe(1);
    expect(await joined(person(), event, "female")).toBe(2);
  });

  it("refuses a phone this browser did not verify (403), before judging the rest of the body", async () => {
    const event = await newEvent({ total: 1, male: 1, female: 0 });
    paidSeats(event.id, 1, "male");
    const stranger = browserClient(server.url);
    const phone = newMobile();
    const response = await stranger.postJson("/api/join-waitlist", { eventID: event.id, phone, gender: "x", name: "" });
    expect(response.status).toBe(403);
    expect(await json(response)).toMatchObject({ success: false, error: expect.any(String) });
    // Verified for another phone is not verified for this one.
    const other = person();
    const forOther = await other.browser.postJson("/api/join-waitlist", {
      eventID: event.id,
      phone,
      gender: "male",
      name: "Sam",
    });
    expect(forOther.status).toBe(403);
    expect(server.deps.db.select().from(waitlistEntries).where(eq(waitlistEntries.phone, phone)).all()).toEqual([]);
  });

  it("refuses when a seat of that gender is free, the phone already waits or has a paid seat, or the night started", async () => {
    const event = await newEvent({ total: 3, male: 1, female: 2 });
    paidSeats(event.id, 1, "male");
    paidSeats(event.id, 1, "female");
    const p = person();
    const free = await join(p, event, "female");
    expect(free.status).toBe(409);
    expect(await json(free)).toMatchObject({ success: false, error: "a seat is free: book it instead" });

    expect(await joined(p, event, "male")).toBe(1);
    const twice = await join(p, event, "male");
    expect(twice.status).toBe(409);
    expect(await json(twice)).toMatchObject({ error: "this phone is already on the waitlist" });

    const [paid] = paidSeats(event.id, 1, "female");
    const withSeat = await join(browserForPerson(paid!.phone), event, "female");
    expect(withSeat.status).toBe(409);
    expect(await json(withSeat)).toMatchObject({ error: "this phone already has a paid seat for this event" });

    const soon = await newEvent({ total: 1, male: 1, female: 0, startsIn: 10 * MINUTE });
    paidSeats(soon.id, 1, "male");
    server.advance(11 * MINUTE);
    const late = await join(person(), soon, "male");
    expect(late.status).toBe(409);
    expect(await json(late)).toMatchObject({ error: "booking has closed" });

    const unknown = await p.browser.postJson("/api/join-waitlist", {
      eventID: 987_654,
      phone: p.phone,
      gender: "male",
      name: "Sam",
    });
    expect(unknown.status).toBe(404);
    expect(await positions(event)).toEqual([p.phone]);
  });

  it("leave-waitlist takes the phone out of line, and the next person moves up", async () => {
    const event = await newEvent({ total: 1, male: 1, female: 0 });
    paidSeats(event.id, 1, "male");
    const [a, b] = [person(), person()];
    await joined(a!, event, "male");
    expect(await joined(b!, event, "male")).toBe(2);

    const stranger = await browserClient(server.url).postJson("/api/leave-waitlist", {
      eventID: event.id,
      phone: a!.phone,
    });
    expect(stranger.status).toBe(403);
    const left = await a!.browser.postJson("/api/leave-waitlist", { eventID: event.id, phone: a!.phone });
    expect(left.status).toBe(200);
    expect(await json(left)).toEqual({ success: true });
    const again = await a!.browser.postJson("/api/leave-waitlist", { eventID: event.id, phone: a!.phone });
    expect(again.status).toBe(404);
    expect(await positions(event)).toEqual([b!.phone]);
    // Leaving is not a ban: joining again goes to the back.
    expect(await joined(a!, event, "male")).toBe(2);
  });
});

/**
 * A one-seat event that a refund just gave back: `a`, a woman, was first in line and now holds the
 * texted offer; `b`, a man, waits behind her.
 */
async function seatOfferedToFirstInLine() {
  const event = await newEvent({ total: 1 });
  const [paid] = paidSeats(event.id, 1, "female");
  const [a, b] = [person(), person()];
  await joined(a!, event, "female");
  await joined(b!, event, "male");
  expect((await refund(paid!.paymentIntentId)).status).toBe(200);
  await scheduler.tick();
  const [offer] = await offersTo(a!.phone);
  return { event, a: a!, b: b!, offer: offer! };
}

const browserForPerson = (phone: string): Person => ({ phone, browser: browserFor(phone) });

/** Who is still in line (those whose place closed at the start are listed, but not in line). */
async function positions(event: Event) {
  const listed = await json<{ waitlist: { phone: string; status: string }[] }>(
    await suite.admin.get(`/api/admin-event/${event.id}/waitlist`),
  );
  return listed.waitlist.filter((w) => w.status !== "closed").map((w) => w.phone);
}

describe("offers", () => {
  it("a refund before the start texts the first man waiting: the event, its local time and a signed link", async () => {
    const event = await newEvent({ total: 4, male: 2, female: 2 });
    const [m] = paidSeats(event.id, 2, "male");
    paidSeats(event.id, 2, "female");
    const [first, second, woman] = [person(), person(), person()];
    await joined(first!, event, "male");
    await joined(second!, event, "male");
    await joined(woman!, event, "female");

    expect((await refund(m!.paymentIntentId)).status).toBe(200);
    // Made by the refund itself, not left for the scheduler.
    expect(openOffersFor(first!.phone)).toHaveLength(1);
    await scheduler.tick();
    const [offer, ...more] = await offersTo(first!.phone);
    expect(more).toEqual([]);
    expect(offer!.body).toContain("Harbour Mixer");
    expect(offer!.body).toContain(formatVenueTime(event.startsAt, event.timeZone));
    expect(offer!.body).toContain(`${server.url}/waitlist-offer?o=${offer!.o}&t=`);
    expect(await offersTo(second!.phone)).toEqual([]);
    expect(await offersTo(woman!.phone)).toEqual([]);
  });

  it("a hold that runs out is offered by the scheduler's next tick", async () => {
    const event = await newEvent({ total: 2, male: 1, female: 1 });
    paidSeats(event.id, 1, "female");
    insertHeldBooking(server.deps.db, event.id, { gender: "male", now: now(), holdMs: 5 * MINUTE });
    const waiting = person();
    await joined(waiting, event, "male");

    server.advance(4 * MINUTE);
    await scheduler.tick();
    expect(await offersTo(waiting.phone)).toEqual([]);

    server.advance(2 * MINUTE);
    await scheduler.tick();
    expect(await offersTo(waiting.phone)).toHaveLength(1);
  });

  it("a seat a hold gave back by the clock goes to the line before a newcomer, even between ticks", async () => {
    const event = await newEvent({ total: 2, male: 1, female: 1 });
    paidSeats(event.id, 1, "female");
    insertHeldBooking(server.deps.db, event.id, { gender: "male", now: now(), holdMs: 5 * MINUTE });
    const waiting = person();
    await joined(waiting, event, "male");

    // The hold runs out; no scheduler tick has run since. A man who never waited tries to book.
    server.advance(6 * MINUTE);
    const newcomer = person();
    const refused = await holdSeat(newcomer.browser, {
      phone: newcomer.phone,
      eventId: event.id,
      image: suite.photo,
      gender: "male",
    });
    expect(refused).toMatchObject({ status: 409, error: "no seats left" });
    expect(openOffersFor(waiting.phone)).toHaveLength(1);
  });

  it("seats the organiser adds are offered at once, each to the first of its gender", async () => {
    const event = await newEvent({ total: 4, male: 2, female: 2 });
    paidSeats(event.id, 2, "male");
    paidSeats(event.id, 2, "female");
    const [m1, m2, w1] = [person(), person(), person()];
    await joined(m1!, event, "male");
    await joined(m2!, event, "male");
    await joined(w1!, event, "female");
    const update = (seats: { total: number; male: number; female: number }) =>
      suite.admin.postJson("/api/update-event", {
        eventid: event.id,
        eventName: event.name,
        eventDate: new Date(event.startsAt).toISOString().slice(0, 10),
        totalSeats: seats.total,
        seatsMale: seats.male,
        seatsFemale: seats.female,
      });

    expect((await update({ total: 5, male: 3, female: 2 })).status).toBe(200);
    expect(openOffersFor(m1!.phone)).toHaveLength(1);
    expect(openOffersFor(m2!.phone)).toEqual([]);
    expect(openOffersFor(w1!.phone)).toEqual([]);

    expect((await update({ total: 6, male: 3, female: 3 })).status).toBe(200);
    expect(openOffersFor(w1!.phone)).toHaveLength(1);
    expect(openOffersFor(m2!.phone)).toEqual([]);
    // The seat kept for the first man counts as taken: the men's seats cannot drop below it.
    expect((await update({ total: 5, male: 2, female: 3 })).status).toBe(409);
  });

  it("cancelling the event texts everyone waiting once and closes the line", async () => {
    const { event, a, b, offer } = await seatOfferedToFirstInLine();

    expect((await suite.admin.postJson("/api/cancel-event", { eventId: event.id })).status).toBe(200);
    await scheduler.tick();
    const outbox = await json<{ to: string; body: string }[]>(await fetch(`${server.url}/api/dev/outbox`));
    for (const p of [a!, b!]) {
      expect(outbox.filter((m) => m.to === p.phone && m.body.includes("cancelled"))).toHaveLength(1);
    }
    expect((await claim(offer!)).status).toBe(410);
    expect(await positions(event)).toEqual([]);
    const late = await join(person(), event, "male");
    expect(late.status).toBe(409);
  });

  it("a checkout cancelled on the payment page keeps its seat for the buyer until the hold runs out, then offers it", async () => {
    const event = await newEvent({ total: 1 });
    const buyer = person();
    const held = await holdSeat(buyer.browser, { phone: buyer.phone, eventId: event.id, image: suite.photo });
    expect(held.status).toBe(200);
    const session = await createCheckout(server.url, { userID: held.userID!, eventID: event.id }, buyer.browser);
    const waiting = person();
    await joined(waiting, event, "female");

    const cancelled = await fetch(`${server.url}/api/dev/checkout/${session.sessionId}/cancel`, {
      method: "POST",
      redirect: "manual",
    });
    expect(cancelled.status).toBe(303);
    // The buyer is back on the held booking and may still pay: the seat is not offered yet.
    await scheduler.tick();
    expect(openOffersFor(waiting.phone)).toHaveLength(0);
    // The checkout stretched the hold to 31 minutes; once it runs out the seat goes to the line.
    server.advance(32 * MINUTE);
    await scheduler.tick();
    expect(openOffersFor(waiting.phone)).toHaveLength(1);
  });

  it("an offer not taken in time passes to the next person, who then keeps the seat", async () => {
    const event = await newEvent({ total: 3, male: 1, female: 2 });
    const [m] = paidSeats(event.id, 1, "male");
    paidSeats(event.id, 1, "female");
    const [first, second] = [person(), person()];
    await joined(first!, event, "male");
    await joined(second!, event, "male");
    expect((await refund(m!.paymentIntentId)).status).toBe(200);
    await scheduler.tick();
    const [offer] = await offersTo(first!.phone);

    server.advance(59 * MINUTE);
    await scheduler.tick();
    expect(await offersTo(second!.phone)).toEqual([]);

    server.advance(2 * MINUTE);
    await scheduler.tick();
    expect(await offersTo(second!.phone)).toHaveLength(1);
    const late = await claim(offer!);
    expect(late.status).toBe(410);
    expect(await json(late)).toMatchObject({ success: false, error: expect.any(String) });
    // The first person lost the place; the seat is kept for the second, so the first cannot book it.
    const refused = await holdSeat(first!.browser, {
      phone: first!.phone,
      eventId: event.id,
      image: suite.photo,
      gender: "male",
    });
    expect(refused).toMatchObject({ status: 409, error: "no seats left for men" });
    expect(await positions(event)).toEqual([second!.phone]);
  });

  it("stops at the start: an offer never outlives it and nobody is offered a seat after it", async () => {
    const event = await newEvent({ total: 2, male: 1, female: 1, startsIn: 30 * MINUTE });
    paidSeats(event.id, 1, "female");
    insertHeldBooking(server.deps.db, event.id, { gender: "male", now: now(), holdMs: 5 * MINUTE });
    const [first, second] = [person(), person()];
    await joined(first!, event, "male");
    await joined(second!, event, "male");

    server.advance(6 * MINUTE);
    await scheduler.tick();
    const [offer] = await offersTo(first!.phone);
    const claimed = await claim(offer!);
    expect(claimed.status).toBe(200);
    // 60 minutes would pass the start: the offer ends with it.
    expect((await json(claimed)).expiresAt).toBe(new Date(event.startsAt).toISOString());

    server.advance(25 * MINUTE);
    await scheduler.tick();
    expect(await offersTo(second!.phone)).toEqual([]);
    expect(openOffersFor(first!.phone)).toEqual([]);
    expect(await positions(event)).toEqual([]);
    const booking = await holdSeat(first!.browser, {
      phone: first!.phone,
      eventId: event.id,
      image: suite.photo,
      gender: "male",
    });
    expect(booking).toMatchObject({ status: 409, error: "booking has closed" });
  });

  it("a claimed offer proves the phone, keeps the seat from others, then books and pays", async () => {
    const event = await newEvent({ total: 3, male: 1, female: 2 });
    const [m] = paidSeats(event.id, 1, "male");
    paidSeats(event.id, 1, "female");
    const lucky = person();
    await joined(lucky, event, "male");
    // The refund or the tick after it makes the offer.
    const offeredFrom = now();
    expect((await refund(m!.paymentIntentId)).status).toBe(200);
    await scheduler.tick();
    const offeredBy = now();
    const [offer] = await offersTo(lucky.phone);

    // Someone else, verified and quick, finds the seat kept.
    const rival = person();
    const taken = await holdSeat(rival.browser, {
      phone: rival.phone,
      eventId: event.id,
      image: suite.photo,
      gender: "male",
    });
    expect(taken).toMatchObject({ status: 409, error: "no seats left for men" });

    // The link opens on a phone whose browser never verified anything: the link itself is the proof.
    const fresh = browserClient(server.url);
    const claimed = await claim(offer!, fresh);
    expect(claimed.status).toBe(200);
    expect(claimed.headers.get("cache-control")).toBe("no-store");
    const answer = await json<{ expiresAt: string }>(claimed);
    expect(answer).toEqual({
      success: true,
      eventID: event.id,
      phone: lucky.phone,
      gender: "male",
      // The name given when joining, so the details form opens filled in.
      name: "Sam Lee",
      expiresAt: expect.any(String),
    });
    // Kept for WAITLIST_OFFER_MINUTES (60) from when it was made.
    const expiresAt = Date.parse(answer.expiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(offeredFrom + 60 * MINUTE);
    expect(expiresAt).toBeLessThanOrEqual(offeredBy + 60 * MINUTE);
    const held = await holdSeat(fresh, { phone: lucky.phone, eventId: event.id, image: suite.photo, gender: "male" });
    expect(held.status).toBe(200);
    const session = await createCheckout(server.url, { userID: held.userID!, eventID: event.id }, fresh);
    expect(await pay(server.url, session.sessionId!)).toBe(303);
    const booking = server.deps.db.select().from(bookings).where(eq(bookings.userId, held.userID!)).get();
    expect(booking?.status).toBe("paid");
    expect(await positions(event)).toEqual([]);
    const detail = await json(await fetch(`${server.url}/api/get-event/${event.id}`));
    expect(detail.SeatsLeft).toEqual({ male: 0, female: 1 });
  });

  it("the same offer claimed twice is 410; a forged or borrowed token is 403", async () => {
    const { b, offer } = await seatOfferedToFirstInLine();

    const forged = await claim({ o: offer!.o, t: `${offer!.t.slice(0, -2)}xx` });
    expect(forged.status).toBe(403);
    const otherOffer = await claim({ o: offer!.o + 1, t: offer!.t });
    expect(otherOffer.status).toBe(403);
    expect(forged.headers.get("set-cookie")).toBeNull();

    expect((await claim(offer!)).status).toBe(200);
    const second = await claim(offer!);
    expect(second.status).toBe(410);
    expect(await json(second)).toMatchObject({ success: false, error: expect.any(String) });
    expect(second.headers.get("set-cookie")).toBeNull();
    expect(await offersTo(b!.phone)).toEqual([]);
  });

  it("leaving with an offer out passes the seat to the next person", async () => {
    const event = await newEvent({ total: 1 });
    const [paid] = paidSeats(event.id, 1, "female");
    const [a, b] = [person(), person()];
    await joined(a!, event, "female");
    await joined(b!, event, "female");
    expect((await refund(paid!.paymentIntentId)).status).toBe(200);
    expect(openOffersFor(a!.phone)).toHaveLength(1);
    expect((await a!.browser.postJson("/api/leave-waitlist", { eventID: event.id, phone: a!.phone })).status).toBe(200);
    expect(openOffersFor(a!.phone)).toEqual([]);
    expect(openOffersFor(b!.phone)).toHaveLength(1);
  });

  it("an offer is texted once, however many ticks run", async () => {
    const event = await newEvent({ total: 1 });
    const [paid] = paidSeats(event.id, 1, "male");
    const a = person();
    await joined(a, event, "male");
    expect((await refund(paid!.paymentIntentId)).status).toBe(200);
    await Promise.all([scheduler.tick(), scheduler.tick()]);
    await scheduler.tick();
    expect(await offersTo(a.phone)).toHaveLength(1);
    const queued = server.deps.db
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.to, a.phone), like(outboxMessages.dedupeKey, "waitlist-offer:%")))
      .all();
    expect(queued).toHaveLength(1);
  });
});

function openOffersFor(phone: string) {
  return server.deps.db
    .select()
    .from(waitlistOffers)
    .where(and(eq(waitlistOffers.phone, phone), eq(waitlistOffers.status, "open")))
    .all();
}
