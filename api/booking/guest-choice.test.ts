import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { guestChoices } from "../../db/guest-choice-schema.ts";
import { bookings, events, refunds } from "../../db/schema.ts";
import { suiteTestServer } from "../../test/api-harness.ts";
import { insertEvent, insertHeldBooking, insertPaidBookings } from "../../test/fixtures.ts";
import { signedInOnMe, ticketStatusOf } from "../../test/suites/booking-flow.ts";
import { sessionBrowser } from "../../test/suites/team.ts";
import { linkToken } from "../lib/capability.ts";
import { backgroundJobs } from "../ops/jobs.ts";

// A night short of numbers, cancelled or moved with the guests choosing (issue 52 part 3,
// docs/decisions/059-short-of-numbers.md), over real HTTP: the desk's calls, the texted link, the
// guest's GET and POST of `guest-choice`, and the jobs on a moved clock.

const HOUR = 3_600_000;
const server = suiteTestServer({ env: { OTP_MAX_PER_ADDRESS: "1000", OTP_MAX_PER_PHONE: "1000" } });
const desk = () => sessionBrowser(server, null);

const night = (extra: Parameters<typeof insertEvent>[2] = {}) =>
  insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR, { startsAt: server.deps.now() + 96 * HOUR, ...extra });

async function outbox(): Promise<{ to: string; body: string }[]> {
  return (await fetch(`${server.url}/api/dev/outbox`)).json() as Promise<{ to: string; body: string }[]>;
}

/** The `t` of the choice link texted to `phone`, and how many such texts it got. */
async function linkOf(phone: string) {
  const texts = (await outbox()).filter((m) => m.to === phone && m.body.includes("/choose?t="));
  const token = texts.at(-1)?.body.match(/\/choose\?t=(\S+)$/)?.[1];
  if (!token) throw new Error(`no choice link was texted to ${phone}`);
  return { token, count: texts.length, body: texts.at(-1)!.body };
}

const view = (t: string) => fetch(`${server.url}/api/guest-choice?t=${encodeURIComponent(t)}`);
const choose = (t: string, choice: string) =>
  fetch(`${server.url}/api/guest-choice`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ t, choice }),
  });
const bookingOf = (id: number) => server.deps.db.select().from(bookings).where(eq(bookings.id, id)).get()!;
const refundsOf = (bookingId: number) =>
  server.deps.db.select().from(refunds).where(eq(refunds.bookingId, bookingId)).all();
/** `count` paid guests, alternating men and women, whose payments the local provider can refund. */
function paidGuests(eventId: number, count: number) {
  const guests = insertPaidBookings(server.deps.db, eventId, count);
  for (const g of guests)
    server.deps.db
      .update(bookings)
      .set({ paymentIntentId: `pi_local_choice_${g.bookingId}` })
      .where(eq(bookings.id, g.bookingId))
      .run();
  return guests;
}
const job = (name: string) =>
  backgroundJobs(server.deps)
    .find((j) => j.name === name)!
    .run(server.deps.now());

describe("Cancel the night: each guest chooses", () => {
  it("refunds nobody at once, texts each guest one link, and settles credit, refund and no choice each once", async () => {
    const event = await night();
    const [a, b, c] = paidGuests(event.id, 3);
    const reply = await desk().postJson("/api/cancel-event", { eventId: event.id, guestsChoose: true });
    expect(reply.status).toBe(200);
    expect(await reply.json()).toMatchObject({ success: true, refunded: 0, failed: 0, asked: 3 });
    // The refunds job, and Finish refunds (cancel-event again), leave them to their choice.
    await job("refunds");
    const again = await desk().postJson("/api/cancel-event", { eventId: event.id });
    expect(await again.json()).toMatchObject({ refunded: 0, sent: 0 });
    for (const g of [a!, b!, c!]) {
      expect(bookingOf(g.bookingId).status).toBe("paid");
      expect((await linkOf(g.phone)).count).toBe(1);
    }

    // The page: the night and the amounts; nothing of anyone else.
    const { token: ta, body } = await linkOf(a!.phone);
    expect(body).toContain(event.name);
    const page = await view(ta);
    expect(page.status).toBe(200);
    expect(page.headers.get("cache-control")).toBe("no-store");
    const shown = (await page.json()) as Record<string, unknown>;
    expect(shown).toMatchObject({ kind: "cancel", eventName: event.name, refundCents: 4500, creditCents: 4500 });
    expect(shown.choice).toBeNull();
    expect(shown.toEvent).toBeNull();
    for (const g of [a!, b!, c!]) expect(JSON.stringify(shown)).not.toContain(g.phone);

    // Credit: on /me, the booking cancelled, no refund.
    expect(await (await choose(ta, "credit")).json()).toEqual({ choice: "credit", status: "credited" });
    expect(bookingOf(a!.bookingId).status).toBe("cancelled");
    expect(refundsOf(a!.bookingId)).toEqual([]);
    const me = (await (await (await signedInOnMe(server.url, a!.phone)).get("/api/me")).json()) as {
      credit: { balanceCents: number };
    };
    expect(me.credit.balanceCents).toBe(4500);
    // The same again answers the same; another is refused naming the one made.
    expect((await choose(ta, "credit")).status).toBe(200);
    const other = await choose(ta, "refund");
    expect(other.status).toBe(409);
    expect(await other.json()).toMatchObject({ code: "already_chosen", choice: "credit" });
    expect((await choose(ta, "move")).status).toBe(409);

    // Refund: once.
    const { token: tb } = await linkOf(b!.phone);
    expect((await choose(tb, "move")).status).toBe(400); // not a move
    expect(await (await choose(tb, "refund")).json()).toEqual({ choice: "refund", status: "refunded" });
    expect((await choose(tb, "refund")).status).toBe(200);
    expect(bookingOf(b!.bookingId).status).toBe("refunded");
    expect(refundsOf(b!.bookingId)).toHaveLength(1);

    // No choice: after 72 hours the job refunds, once, and the page says so.
    server.advance(71 * HOUR);
    await job("guest-choices");
    expect(bookingOf(c!.bookingId).status).toBe("paid");
    server.advance(2 * HOUR);
    await job("guest-choices");
    await job("guest-choices");
    expect(bookingOf(c!.bookingId).status).toBe("refunded");
    expect(refundsOf(c!.bookingId)).toHaveLength(1);
    const { token: tc } = await linkOf(c!.phone);
    expect(((await (await view(tc)).json()) as { choice: string }).choice).toBe("refund");
    const late = await choose(tc, "credit");
    expect(late.status).toBe(409);
    expect(await late.json()).toMatchObject({ code: "already_chosen", choice: "refund" });
  });

  it("settles two choices sent at once once (a race)", async () => {
    const event = await night();
    const [g] = paidGuests(event.id, 1);
    await desk().postJson("/api/cancel-event", { eventId: event.id, guestsChoose: true });
    const { token } = await linkOf(g!.phone);
    const answers = await Promise.all([choose(token, "credit"), choose(token, "refund"), choose(token, "credit")]);
    const statuses = answers.map((r) => r.status).sort();
    const chosen = server.deps.db.select().from(guestChoices).where(eq(guestChoices.bookingId, g!.bookingId)).get()!;
    // One choice won; the others either agreed with it (200) or were refused naming it (409).
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 200 || s === 409)).toBe(true);
    expect(chosen.settledAt).not.toBeNull();
    if (chosen.choice === "credit") expect(refundsOf(g!.bookingId)).toEqual([]);
    else expect(refundsOf(g!.bookingId)).toHaveLength(1);
  });

  it("refuses a link cut short (400) or altered (401) with a sentence", async () => {
    expect((await view("12")).status).toBe(400);
    const altered = await view(`1.${linkToken(server.deps.env, "transfer", 1)}`);
    expect(altered.status).toBe(401);
    expect(await altered.json()).toMatchObject({ code: "choice_link_invalid", error: expect.stringMatching(/link/) });
    expect((await choose("1.nope", "refund")).status).toBe(401);
  });
});

describe("Move to another night", () => {
  it("refuses a wrong night (409) and too few seats, then holds a seat per guest; keep it → a valid ticket, the old NOT VALID; refund releases it", async () => {
    const from = await night();
    const to = await night({ startsAt: server.deps.now() + 240 * HOUR, totalSeats: 4 });
    const oneGroup = await night({ format: "one_group" });
    const [keep, leave] = paidGuests(from.id, 2);
    const move = (toEventId: number) => desk().postJson("/api/move-event-guests", { fromEventId: from.id, toEventId });
    expect((await move(from.id)).status).toBe(409);
    expect((await move(oneGroup.id)).status).toBe(409);
    insertHeldBooking(server.deps.db, to.id, { now: server.deps.now() });
    insertHeldBooking(server.deps.db, to.id, { now: server.deps.now() });
    insertHeldBooking(server.deps.db, to.id, { now: server.deps.now() });
    const full = await move(to.id);
    expect(full.status).toBe(409);
    expect(await full.json()).toMatchObject({ code: "not_enough_seats", error: expect.stringMatching(/seats/) });
    server.advance(HOUR); // the other holds run out

    const moved = await move(to.id);
    expect(moved.status).toBe(200);
    expect(await moved.json()).toEqual({ success: true, asked: 2 });
    const fromRow = server.deps.db.select().from(events).where(eq(events.id, from.id)).get()!;
    expect(fromRow).toMatchObject({ status: "cancelled", movedToEventId: to.id });
    const seats = async () =>
      ((await (await fetch(`${server.url}/api/get-event/${to.id}`)).json()) as { seatsLeftTotal: number })
        .seatsLeftTotal;
    expect(await seats()).toBe(2); // the held seats count

    const { token: tk } = await linkOf(keep!.phone);
    const shown = (await (await view(tk)).json()) as { kind: string; toEvent: { name: string } };
    expect(shown.kind).toBe("move");
    expect(shown.toEvent.name).toBe(to.name);
    expect(await (await choose(tk, "move")).json()).toEqual({ choice: "move", status: "moved" });
    expect(bookingOf(keep!.bookingId).status).toBe("transferred");
    expect(await ticketStatusOf(server, keep!.bookingId)).toBe("transferred");
    const chosen = server.deps.db.select().from(guestChoices).where(eq(guestChoices.bookingId, keep!.bookingId)).get()!;
    const newBooking = bookingOf(chosen.heldBookingId!);
    expect(newBooking).toMatchObject({ status: "paid", eventId: to.id, amountCents: 4500 });
    expect(newBooking.uniqueCode).toBeTruthy();
    expect(await ticketStatusOf(server, newBooking.id)).toBe("paid");
    // Valid at the door of the new night.
    server.deps.db
      .update(events)
      .set({ status: "started", startsAt: server.deps.now() - HOUR / 2 })
      .where(eq(events.id, to.id))
      .run();
    const checkIn = await desk().postJson("/api/check-in", {
      eventID: to.id,
      userID: newBooking.userId,
      clientTs: server.deps.now(),
    });
    expect(checkIn.status).toBe(200);
    server.deps.db
      .update(events)
      .set({ status: "upcoming", startsAt: server.deps.now() + 240 * HOUR })
      .where(eq(events.id, to.id))
      .run();

    const { token: tl } = await linkOf(leave!.phone);
    expect((await choose(tl, "refund")).status).toBe(200);
    expect(refundsOf(leave!.bookingId)).toHaveLength(1);
    expect(await seats()).toBe(3); // the held seat went back
  });

  it("gives a guest who already has a ticket for the new night no second seat there: a refund or credit instead", async () => {
    const from = await night();
    const to = await night({ startsAt: server.deps.now() + 240 * HOUR });
    const [both, only] = paidGuests(from.id, 2);
    const [already] = paidGuests(to.id, 1);
    server.deps.db.update(bookings).set({ phone: both!.phone }).where(eq(bookings.id, already!.bookingId)).run();

    const moved = await desk().postJson("/api/move-event-guests", { fromEventId: from.id, toEventId: to.id });
    expect(await moved.json()).toEqual({ success: true, asked: 2 });
    const choiceOf = (bookingId: number) =>
      server.deps.db.select().from(guestChoices).where(eq(guestChoices.bookingId, bookingId)).get()!;
    expect(choiceOf(both!.bookingId)).toMatchObject({ kind: "cancel", heldBookingId: null, toEventId: null });
    expect(choiceOf(only!.bookingId)).toMatchObject({ kind: "move", toEventId: to.id });
    const heldThere = server.deps.db
      .select()
      .from(bookings)
      .where(eq(bookings.eventId, to.id))
      .all()
      .filter((b) => b.phone === both!.phone);
    expect(heldThere.map((b) => b.status)).toEqual(["paid"]);
    const { token } = await linkOf(both!.phone);
    expect(((await (await view(token)).json()) as { kind: string }).kind).toBe("cancel");
    expect((await choose(token, "move")).status).toBe(400);
    expect(await (await choose(token, "credit")).json()).toEqual({ choice: "credit", status: "credited" });
  });
});
