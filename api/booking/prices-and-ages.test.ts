import { readdirSync } from "node:fs";
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { bookings, checkoutSessions, users } from "../../db/schema.ts";
import { type BrowserClient, browserClient, suiteTestServer, verifiedPhoneBrowser } from "../../test/api-harness.ts";
import { insertEvent, insertHeldBooking, makeImage } from "../../test/fixtures.ts";
import { createCheckout, detailsForm, newMobile, pay } from "../../test/suites/booking-flow.ts";

// Who may book and what they pay (docs/decisions/023-prices-and-ages.md), through the real calls.

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
// TRUST_PROXY=loopback: a test names the buyer's address in X-Forwarded-For (the promo-code limits).
const server = suiteTestServer({
  env: { OTP_MAX_PER_ADDRESS: "100000", OTP_MAX_PER_PHONE: "1000", TRUST_PROXY: "loopback" },
});
let admin: BrowserClient;
let photo: Uint8Array;

beforeAll(async () => {
  admin = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: "correct horse battery staple" })).status).toBe(200);
  photo = new Uint8Array(await makeImage("jpeg", 160, 120));
});

const json = async <T = Record<string, unknown>>(response: Response) => (await response.json()) as T;
const now = () => server.deps.now();
const newEvent = (overrides: Parameters<typeof insertEvent>[2] = {}) =>
  insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR, { startsAt: now() + 7 * DAY, ...overrides });
const bookingRow = (bookingId: number) =>
  server.deps.db.select().from(bookings).where(eq(bookings.id, bookingId)).get()!;

/** A seat held straight in the database at the price the hold would fix, and its verified browser. */
function heldBuyer(eventId: number, gender: "male" | "female" = "female", amountCents = 4500) {
  const held = insertHeldBooking(server.deps.db, eventId, { gender, now: now(), amountCents });
  server.deps.db.update(bookings).set({ listPriceCents: amountCents }).where(eq(bookings.id, held.bookingId)).run();
  return { ...held, browser: verifiedPhoneBrowser(server, held.phone) };
}

const apply = (buyer: { browser: BrowserClient; userId: number }, eventId: number, code: string) =>
  buyer.browser.postJson("/api/apply-promo", { userID: buyer.userId, eventID: eventId, code });

const applyFrom = (buyer: { browser: BrowserClient; userId: number }, eventId: number, code: string, from: string) =>
  buyer.browser.request("/api/apply-promo", {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": from },
    body: JSON.stringify({ userID: buyer.userId, eventID: eventId, code }),
  });

async function newCode(eventId: number, fields: Record<string, unknown>) {
  const response = await admin.postJson("/api/promo-codes", { eventID: eventId, ...fields });
  expect(response.status).toBe(200);
  return (await json<{ promoCode: { id: number; code: string } }>(response)).promoCode;
}

describe("age ranges that hold", () => {
  it("refuses a buyer outside the range with the event's range, before any photo work, holding nothing", async () => {
    const event = await newEvent({ fromAge: 25, toAge: 35 });
    const phone = newMobile();
    const browser = verifiedPhoneBrowser(server, phone);
    // Counted once the photos of earlier bookings are stored (after their replies, in their turn).
    await server.photosStored();
    const uploads = readdirSync(server.deps.env.UPLOADS_DIR).length;
    const young = new Date(now() - 20 * 365 * DAY).toISOString().slice(0, 10);
    const refused = await browser.postForm(
      "/api/save-user-details",
      detailsForm({ phone, eventId: event.id, image: photo, dateOfBirth: young }),
    );
    expect(refused.status).toBe(409);
    expect(await json(refused)).toMatchObject({
      code: "age_out_of_range",
      error: "This event is for ages 25–35",
    });
    expect(readdirSync(server.deps.env.UPLOADS_DIR)).toHaveLength(uploads);
    expect(server.deps.db.select().from(users).where(eq(users.phone, phone)).all()).toHaveLength(0);
    expect(server.deps.db.select().from(bookings).where(eq(bookings.phone, phone)).all()).toHaveLength(0);

    const ok = await browser.postForm(
      "/api/save-user-details",
      detailsForm({ phone, eventId: event.id, image: photo }),
    );
    expect(ok.status).toBe(200);
  });

  it("uses a gender's own range where the event sets one", async () => {
    const event = await newEvent({ fromAge: 25, toAge: 35, fromAgeMale: 30, toAgeMale: 40 });
    const phone = newMobile();
    const browser = verifiedPhoneBrowser(server, phone);
    const at = (years: number) => new Date(event.startsAt - years * 365.25 * DAY - 10 * DAY).toISOString().slice(0, 10);
    const form = (dateOfBirth: string) =>
      detailsForm({ phone, eventId: event.id, image: photo, gender: "male", dateOfBirth });
    const refused = await browser.postForm("/api/save-user-details", form(at(27)));
    expect(await json(refused)).toMatchObject({ code: "age_out_of_range", error: "This event is for ages 30–40" });
    expect((await browser.postForm("/api/save-user-details", form(at(38)))).status).toBe(200);
  });

  it("requires a real date of birth", async () => {
    const event = await newEvent();
    const phone = newMobile();
    const browser = verifiedPhoneBrowser(server, phone);
    for (const dateOfBirth of ["", "1995-02-30", "03/05/1995"]) {
      const form = detailsForm({ phone, eventId: event.id, image: photo, dateOfBirth });
      const response = await browser.postForm("/api/save-user-details", form);
      expect(response.status).toBe(400);
      expect((await json<{ error: string }>(response)).error).toMatch(/^The date of birth /);
    }
  });
});

describe("prices fixed at hold time", () => {
  it("charges a hold taken a minute before the early bird ends the early price, paid after it", async () => {
    const event = await newEvent({
      priceCents: 4500,
      priceMaleCents: 5000,
      earlyBirdDiscountCents: 1000,
      earlyBirdUntil: now() + MINUTE,
    });
    const detail = await json(await fetch(`${server.url}/api/get-event/${event.id}`));
    expect(detail).toMatchObject({
      booking_amount: 45,
      bookingAmountMale: 50,
      currentAmount: { male: 40, female: 35 },
    });

    const phone = newMobile();
    const browser = verifiedPhoneBrowser(server, phone);
    const held = await json<{ userID: number }>(
      await browser.postForm("/api/save-user-details", detailsForm({ phone, eventId: event.id, image: photo })),
    );
    server.advance(2 * MINUTE);
    const after = await json(await fetch(`${server.url}/api/get-event/${event.id}`));
    expect(after).toMatchObject({ currentAmount: { male: 50, female: 45 } });
    const checkout = await createCheckout(server.url, { userID: held.userID, eventID: event.id }, browser);
    expect(checkout.status).toBe(200);
    expect(await pay(server.url, checkout.sessionId ?? "")).toBe(303);
    const booking = server.deps.db.select().from(bookings).where(eq(bookings.userId, held.userID)).get()!;
    expect(booking).toMatchObject({ status: "paid", amountCents: 3500, listPriceCents: 4500, discountCents: 1000 });
    const summary = await json(await admin.get(`/api/admin-event-summary/${event.id}`));
    expect(summary).toMatchObject({ revenue: 35, discount: 10, codes: [] });
  });
});

describe("promo codes", () => {
  it("30 buyers racing for a code limited to 3 uses get exactly 3 discounted holds", async () => {
    const event = await newEvent({ totalSeats: 40 });
    await newCode(event.id, { code: "friends3", percentOff: 20, maxUses: 3 });
    const buyers = Array.from({ length: 30 }, () => heldBuyer(event.id));
    const replies = await Promise.all(buyers.map((b) => apply(b, event.id, "FRIENDS3")));
    const statuses = replies.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 409)).toHaveLength(27);
    const amounts = buyers.map((b) => bookingRow(b.bookingId).amountCents);
    expect(amounts.filter((a) => a === 3600)).toHaveLength(3);
    expect(amounts.filter((a) => a === 4500)).toHaveLength(27);
    const refusal = await json(replies[statuses.indexOf(409)]!);
    expect(refusal).toMatchObject({ code: "promo_used_up" });
    const list = await json<{ promoCodes: { uses: number }[] }>(
      await admin.get(`/api/admin-event/${event.id}/promo-codes`),
    );
    expect(list.promoCodes[0]?.uses).toBe(3);
  });

  it("gives a lapsed hold's use back", async () => {
    const event = await newEvent();
    await newCode(event.id, { code: "ONCE", amountOff: 5, maxUses: 1 });
    const first = heldBuyer(event.id);
    expect((await apply(first, event.id, "once")).status).toBe(200);
    const second = heldBuyer(event.id);
    server.deps.db
      .update(bookings)
      .set({ holdExpiresAt: now() + 60 * MINUTE })
      .where(eq(bookings.id, second.bookingId))
      .run();
    expect(await json(await apply(second, event.id, "ONCE"))).toMatchObject({ code: "promo_used_up" });
    server.advance(31 * MINUTE); // the first hold lapses, the second still runs
    expect(await json(await apply(second, event.id, "ONCE"))).toEqual({ amount: 40, discount: 5, code: "ONCE" });
  });

  it("discounts once however often the same code is applied, and the checkout charges the new total", async () => {
    const event = await newEvent();
    await newCode(event.id, { code: "TENOFF", amountOff: 10 });
    const buyer = heldBuyer(event.id);
    const before = await createCheckout(server.url, { userID: buyer.userId, eventID: event.id }, buyer.browser);
    const replies = await Promise.all([1, 2, 3].map(() => apply(buyer, event.id, " tenoff ")));
    for (const r of replies) expect(await json(r)).toEqual({ amount: 35, discount: 10, code: "TENOFF" });
    expect(bookingRow(buyer.bookingId)).toMatchObject({ amountCents: 3500, discountCents: 1000, listPriceCents: 4500 });
    // The checkout opened at the old price is closed; the next one charges the discounted total.
    const after = await createCheckout(server.url, { userID: buyer.userId, eventID: event.id }, buyer.browser);
    expect(after.sessionId).not.toBe(before.sessionId);
    const session = server.deps.db
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.id, after.sessionId ?? ""))
      .get();
    expect(session?.amountCents).toBe(3500);
  });

  it("refuses a wrong, expired, disabled or wrong-gender code with its own code, leaving the total", async () => {
    const event = await newEvent();
    const disabled = await newCode(event.id, { code: "OLD", percentOff: 50 });
    expect((await admin.postJson("/api/disable-promo-code", { id: disabled.id })).status).toBe(200);
    await newCode(event.id, { code: "LADIES", percentOff: 50, gender: "female" });
    await newCode(event.id, { code: "SOON", percentOff: 50, validUntil: "2020-01-01T10:00" });
    const man = heldBuyer(event.id, "male");
    const cases: [string, string][] = [
      ["NOPE", "promo_not_found"],
      ["OLD", "promo_expired"],
      ["SOON", "promo_expired"],
      ["LADIES", "promo_wrong_gender"],
    ];
    for (const [code, expected] of cases) {
      const response = await apply(man, event.id, code);
      expect(response.status).toBe(409);
      expect(await json(response)).toMatchObject({ code: expected });
    }
    expect(bookingRow(man.bookingId).amountCents).toBe(4500);
  });

  it("never brings a price below $1.00", async () => {
    const event = await newEvent();
    await newCode(event.id, { code: "FREE", percentOff: 100 });
    expect(await json(await apply(heldBuyer(event.id), event.id, "FREE"))).toEqual({
      amount: 1,
      discount: 44,
      code: "FREE",
    });
  });

  it("answers only the browser that verified the booking's phone", async () => {
    const event = await newEvent();
    await newCode(event.id, { code: "MINE", percentOff: 10 });
    const buyer = heldBuyer(event.id);
    const stranger = verifiedPhoneBrowser(server, newMobile());
    expect((await apply({ ...buyer, browser: stranger }, event.id, "MINE")).status).toBe(403);
    expect((await apply({ ...buyer, browser: browserClient(server.url) }, event.id, "MINE")).status).toBe(403);
    expect(bookingRow(buyer.bookingId).amountCents).toBe(4500);
  });

  it("lets the organiser list and disable codes, one name per event", async () => {
    const event = await newEvent();
    await newCode(event.id, { code: "NEWS", percentOff: 15, maxUses: 10 });
    const again = await admin.postJson("/api/promo-codes", { eventID: event.id, code: "news", amountOff: 5 });
    expect(again.status).toBe(409);
    expect(await json(again)).toMatchObject({ code: "promo_code_taken" });
    const both = await admin.postJson("/api/promo-codes", {
      eventID: event.id,
      code: "X1",
      amountOff: 5,
      percentOff: 5,
    });
    expect(both.status).toBe(400);
    expect((await browserClient(server.url).get(`/api/admin-event/${event.id}/promo-codes`)).status).toBe(401);
    const list = await json(await admin.get(`/api/admin-event/${event.id}/promo-codes`));
    expect(list).toMatchObject({
      promoCodes: [{ code: "NEWS", percentOff: 15, amountOff: null, maxUses: 10, uses: 0, disabled: false }],
    });
  });
});

describe("guessing promo codes", () => {
  it("answers 429 to every code after 10 wrong ones per phone, the right code too; another buyer is unaffected", async () => {
    const event = await newEvent();
    await newCode(event.id, { code: "STAFF2026", percentOff: 100 });
    const guesser = heldBuyer(event.id);
    const statuses: number[] = [];
    for (let i = 0; i < 200; i++)
      statuses.push((await applyFrom(guesser, event.id, `GUESS${i}`, "203.0.113.10")).status);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(409));
    expect(statuses.slice(10)).toEqual(Array(190).fill(429));
    const right = await applyFrom(guesser, event.id, "STAFF2026", "203.0.113.10");
    expect(right.status).toBe(429);
    expect(await json(right)).toMatchObject({ success: false, code: "rate_limited" });
    // From another address the phone is still past its limit.
    expect((await applyFrom(guesser, event.id, "STAFF2026", "198.51.100.10")).status).toBe(429);
    expect(bookingRow(guesser.bookingId)).toMatchObject({ amountCents: 4500, promoCodeId: null });

    // Another phone behind the same address is not locked out by one guesser.
    const neighbour = heldBuyer(event.id);
    expect(await json(await applyFrom(neighbour, event.id, "staff2026", "203.0.113.10"))).toEqual({
      amount: 1,
      discount: 44,
      code: "STAFF2026",
    });

    // An hour later the guesser's wrong codes no longer count.
    server.advance(61 * MINUTE);
    const later = heldBuyer(event.id); // the first hold has lapsed meanwhile
    expect((await applyFrom(later, event.id, "STAFF2026", "203.0.113.10")).status).toBe(200);
  });

  it("stops an address at 100 wrong codes an hour across phones, and leaves other addresses alone", async () => {
    const event = await newEvent({ totalSeats: 40 });
    await newCode(event.id, { code: "VIP", percentOff: 50 });
    for (let p = 0; p < 10; p++) {
      const buyer = heldBuyer(event.id);
      for (let i = 0; i < 10; i++) {
        expect((await applyFrom(buyer, event.id, `NO${p}X${i}`, "203.0.113.20")).status).toBe(409);
      }
    }
    const fresh = heldBuyer(event.id);
    expect((await applyFrom(fresh, event.id, "VIP", "203.0.113.20")).status).toBe(429);
    expect(bookingRow(fresh.bookingId).promoCodeId).toBeNull();
    expect(await json(await applyFrom(fresh, event.id, "VIP", "198.51.100.20"))).toMatchObject({ code: "VIP" });
  });

  it("does not count a used-up, expired or wrong-gender code as a guess", async () => {
    const event = await newEvent();
    await newCode(event.id, { code: "MEN", percentOff: 10, gender: "male" });
    await newCode(event.id, { code: "RIGHT", percentOff: 10 });
    const buyer = heldBuyer(event.id);
    for (let i = 0; i < 15; i++) expect((await applyFrom(buyer, event.id, "MEN", "203.0.113.30")).status).toBe(409);
    expect((await applyFrom(buyer, event.id, "RIGHT", "203.0.113.30")).status).toBe(200);
  });
});

describe("a code's uses and the checkout", () => {
  const sessionRow = (id: string) =>
    server.deps.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id)).get()!;
  const sessionsOf = (bookingId: number) =>
    server.deps.db.select().from(checkoutSessions).where(eq(checkoutSessions.bookingId, bookingId)).all();

  it("never lets a checkout outlive its hold, even one started again after the hold was stretched", async () => {
    const event = await newEvent();
    await newCode(event.id, { code: "LATER", amountOff: 10 });
    const buyer = heldBuyer(event.id);
    server.advance(25 * MINUTE);
    const first = await createCheckout(server.url, { userID: buyer.userId, eventID: event.id }, buyer.browser);
    expect(first.status).toBe(200);
    expect(sessionRow(first.sessionId ?? "").expiresAt).toBeLessThanOrEqual(bookingRow(buyer.bookingId).holdExpiresAt);

    // Twenty minutes on, a code changes the total and closes that checkout; a new one could no longer
    // be open the 30 minutes Stripe needs before the hold's last stretch runs out.
    server.advance(20 * MINUTE);
    expect((await apply(buyer, event.id, "LATER")).status).toBe(200);
    const second = await createCheckout(server.url, { userID: buyer.userId, eventID: event.id }, buyer.browser);
    expect(second.status).toBe(409);
    for (const session of sessionsOf(buyer.bookingId)) {
      expect(session.expiresAt).toBeLessThanOrEqual(bookingRow(buyer.bookingId).holdExpiresAt);
    }
    // The hold is let go at once, so booking again starts a fresh one instead of waiting for it to lapse.
    expect(bookingRow(buyer.bookingId).status).not.toBe("held");
  });

  it("charges a payment past a code's uses what it showed, and records the overrun for the organiser", async () => {
    const event = await newEvent();
    await newCode(event.id, { code: "ONCEONLY", amountOff: 5, maxUses: 1 });
    const early = heldBuyer(event.id);
    expect((await apply(early, event.id, "ONCEONLY")).status).toBe(200);
    const open = await createCheckout(server.url, { userID: early.userId, eventID: event.id }, early.browser);
    // A checkout left open past its hold (as one started before this rule could be): the hold lapses
    // and gives the code's use back while the payment page still takes money.
    server.deps.db
      .update(bookings)
      .set({ holdExpiresAt: now() + MINUTE })
      .where(eq(bookings.id, early.bookingId))
      .run();
    server.advance(2 * MINUTE);

    const late = heldBuyer(event.id);
    expect((await apply(late, event.id, "ONCEONLY")).status).toBe(200);
    const lateCheckout = await createCheckout(server.url, { userID: late.userId, eventID: event.id }, late.browser);
    expect(await pay(server.url, lateCheckout.sessionId ?? "")).toBe(303);
    expect(bookingRow(late.bookingId)).toMatchObject({ status: "paid", amountCents: 4000, promoOverrun: false });

    expect(await pay(server.url, open.sessionId ?? "")).toBe(303);
    expect(bookingRow(early.bookingId)).toMatchObject({ status: "paid", amountCents: 4000, promoOverrun: true });
    const list = await json<{ promoCodes: { uses: number; overruns: number }[] }>(
      await admin.get(`/api/admin-event/${event.id}/promo-codes`),
    );
    expect(list.promoCodes[0]).toMatchObject({ uses: 2, maxUses: 1, overruns: 1 });
  });
});
