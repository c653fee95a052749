import { and, eq, gt, like, or, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookings, type Event, outboxMessages, users, waitlistOffers } from "../../db/schema.ts";
import { browserClient } from "../../test/api-harness.ts";
import { createCheckout, holdSeat, newMobile, pay } from "../../test/suites/booking-flow.ts";
import { json, offerLink, waitlistSuite } from "../../test/suites/waitlist.ts";
import { backgroundJobs } from "../ops/jobs.ts";
import { createScheduler } from "../ops/scheduler.ts";
import { offerFreedSeats } from "./waitlist-offers.ts";

// The waitlist's races (docs/decisions/015-balanced-rooms-and-waitlist.md): no gender is ever oversold
// however many buyers arrive at once, and one freed seat is offered exactly once however many
// refunds, ticks and scheduler copies notice it together. Each burst is one Promise.all.

const suite = waitlistSuite();
const { server, now, browserFor, newEvent, paidSeats, person } = suite;

/** Paid, unrefunded seats and live holds of each gender: what may never pass the gender's seats. */
function seatsTaken(eventId: number) {
  const rows = server.deps.db
    .select({ gender: users.gender, n: sql<number>`count(*)` })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .where(
      and(
        eq(bookings.eventId, eventId),
        or(eq(bookings.status, "paid"), and(eq(bookings.status, "held"), gt(bookings.holdExpiresAt, now()))),
      ),
    )
    .groupBy(users.gender)
    .all();
  return { male: 0, female: 0, ...Object.fromEntries(rows.map((r) => [r.gender, r.n])) };
}

const offersOf = (event: Event) =>
  server.deps.db.select().from(waitlistOffers).where(eq(waitlistOffers.eventId, event.id)).all();

describe("seats by gender under load", () => {
  it("30 men and 30 women for the last seat of each gender: one of each holds, then pays, never more", async () => {
    const event = await newEvent({ total: 10, male: 5, female: 5 });
    paidSeats(event.id, 4, "male");
    paidSeats(event.id, 4, "female");
    const buyers = Array.from({ length: 60 }, (_, i) => ({
      ...person(),
      gender: i % 2 ? ("female" as const) : ("male" as const),
    }));
    const replies = await Promise.all(
      buyers.map((b) =>
        holdSeat(b.browser, { phone: b.phone, eventId: event.id, image: suite.photo, gender: b.gender }),
      ),
    );
    const won = buyers.filter((_, i) => replies[i]?.status === 200);
    expect(won.map((b) => b.gender).sort()).toEqual(["female", "male"]);
    for (const [i, reply] of replies.entries()) {
      if (reply.status === 200) continue;
      expect(reply.status).toBe(409);
      expect(["no seats left", `no seats left for ${buyers[i]!.gender === "male" ? "men" : "women"}`]).toContain(
        reply.error,
      );
    }
    expect(seatsTaken(event.id)).toEqual({ male: 5, female: 5 });

    const paid = await Promise.all(
      won.map(async (b) => {
        const userID = replies[buyers.indexOf(b)]!.userID!;
        const session = await createCheckout(server.url, { userID, eventID: event.id }, b.browser);
        return pay(server.url, session.sessionId!);
      }),
    );
    expect(paid).toEqual([303, 303]);
    expect(seatsTaken(event.id)).toEqual({ male: 5, female: 5 });
    const detail = await json(await fetch(`${server.url}/api/get-event/${event.id}`));
    expect(detail).toMatchObject({ SeatsLeft: { male: 0, female: 0 }, SeatAvailabilityPer: 0 });
  });
});

describe("one freed seat, many waiting", () => {
  it("20 joiners at once get 20 distinct places; refunds, ticks and schedulers at once make one offer and one SMS", async () => {
    const event = await newEvent({ total: 4, male: 2, female: 2 });
    const [refundable] = paidSeats(event.id, 2, "male");
    paidSeats(event.id, 2, "female");
    const joiners = Array.from({ length: 20 }, () => person());
    const joins = await Promise.all(
      joiners.map((j) =>
        j.browser.postJson("/api/join-waitlist", { eventID: event.id, phone: j.phone, gender: "male", name: "Sam" }),
      ),
    );
    expect(joins.map((r) => r.status)).toEqual(joiners.map(() => 200));
    const places = await Promise.all(joins.map((r) => json<{ position: number }>(r)));
    expect(places.map((p) => p.position).sort((a, b) => a - b)).toEqual(joiners.map((_, i) => i + 1));
    const first = joiners[places.findIndex((p) => p.position === 1)]!;

    // Three servers' offer jobs over the same database, five refund clicks and direct runs, together.
    const offerJobs = backgroundJobs(server.deps).filter((j) => j.name === "waitlist-offers");
    expect(offerJobs).toHaveLength(1);
    const schedulers = [1, 2, 3].map(() => createScheduler({ log: server.deps.log, now: server.deps.now }, offerJobs));
    const refunds = await Promise.all([
      ...Array.from({ length: 5 }, () =>
        suite.admin.postJson("/api/refund", { paymentIntentId: refundable!.paymentIntentId }),
      ),
      ...schedulers.map(async (s) => {
        await s.tick();
        return new Response("{}");
      }),
      ...Array.from({ length: 5 }, async () => {
        offerFreedSeats(server.deps, now());
        return new Response("{}");
      }),
    ]);
    expect(refunds.slice(0, 5).map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    await Promise.all(schedulers.map((s) => s.tick()));
    // This server's own scheduler then sends what was queued.
    const own = createScheduler({ log: server.deps.log, now: server.deps.now }, backgroundJobs(server.deps));
    await own.tick();
    await own.stop();

    const offers = offersOf(event);
    expect(offers).toHaveLength(1);
    expect(offers[0]).toMatchObject({ phone: first.phone, status: "open" });
    const queued = server.deps.db
      .select()
      .from(outboxMessages)
      .where(like(outboxMessages.body, "%/waitlist-offer?%"))
      .all()
      .filter((m) => joiners.some((j) => j.phone === m.to));
    expect(queued).toHaveLength(1);
    const outbox = await json<{ to: string; body: string }[]>(await fetch(`${server.url}/api/dev/outbox`));
    expect(outbox.filter((m) => m.body.includes("/waitlist-offer?") && joiners.some((j) => j.phone === m.to))).toEqual([
      expect.objectContaining({ to: first.phone }),
    ]);
    for (const s of schedulers) await s.stop();
  });

  it("ten tabs opening the same offer at once: one claim, nine 410s", async () => {
    const event = await newEvent({ total: 2, male: 1, female: 1 });
    const [refundable] = paidSeats(event.id, 1, "female");
    paidSeats(event.id, 1, "male");
    const phone = newMobile();
    const joined = await browserFor(phone).postJson("/api/join-waitlist", {
      eventID: event.id,
      phone,
      gender: "female",
      name: "Kim",
    });
    expect(joined.status).toBe(200);
    expect((await suite.admin.postJson("/api/refund", { paymentIntentId: refundable!.paymentIntentId })).status).toBe(
      200,
    );
    const queued = server.deps.db
      .select()
      .from(outboxMessages)
      .where(and(eq(outboxMessages.to, phone), like(outboxMessages.dedupeKey, "waitlist-offer:%")))
      .get();
    const { o, t } = offerLink(queued?.body);
    const claims = await Promise.all(
      Array.from({ length: 10 }, () => browserClient(server.url).postJson("/api/claim-offer", { o, t })),
    );
    const statuses = claims.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 410, 410, 410, 410, 410, 410, 410, 410, 410]);
  });
});
