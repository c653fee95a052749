import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { bookings, events } from "../../db/schema.ts";
import { type BrowserClient, browserClient, suiteTestServer } from "../../test/api-harness.ts";
import { insertEvent, insertHeldBooking, insertPaidBookings } from "../../test/fixtures.ts";
import { linkToken } from "../lib/capability.ts";

// My tickets asks POST /api/ticket-status for every saved ticket while online (docs/api.md), so a
// refunded or cancelled ticket stops looking valid. The ticket's own link token is the only proof.

const PASSWORD = "correct horse battery staple";
const HOUR = 3_600_000;

const server = suiteTestServer();
let admin: BrowserClient;
let phone: BrowserClient;

beforeAll(async () => {
  admin = browserClient(server.url);
  phone = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
});

const token = (bookingId: number) => linkToken(server.deps.env, "ticket", bookingId);
const status = (bookingId: number, t = token(bookingId)) => phone.postJson("/api/ticket-status", { bookingId, t });
const statusOf = async (bookingId: number) => {
  const reply = await status(bookingId);
  expect(reply.status).toBe(200);
  return ((await reply.json()) as { status: string }).status;
};

/** An event a week ahead with `count` paid attendees. */
async function eventWith(count: number, overrides: Parameters<typeof insertEvent>[2] = {}) {
  const { db, env } = server.deps;
  const event = await insertEvent(db, env.UPLOADS_DIR, {
    name: "Status Night",
    startsAt: server.deps.now() + 7 * 24 * HOUR,
    ...overrides,
  });
  const attendees = insertPaidBookings(db, event.id, count);
  // Paid through the local provider, which the refund calls go to.
  for (const a of attendees) {
    db.update(bookings)
      .set({ paymentIntentId: `pi_local_status_${a.bookingId}` })
      .where(eq(bookings.id, a.bookingId))
      .run();
  }
  return { event, attendees };
}
const paymentOf = (bookingId: number) =>
  server.deps.db.select().from(bookings).where(eq(bookings.id, bookingId)).get()?.paymentIntentId ?? "";

describe("POST /api/ticket-status", () => {
  it("says a paid ticket is paid, with the event's public details and no personal data, never stored", async () => {
    const { event, attendees } = await eventWith(1);
    const reply = await status(attendees[0]!.bookingId);
    expect(reply.status).toBe(200);
    expect(reply.headers.get("cache-control")).toBe("no-store");
    expect(await reply.json()).toEqual({
      status: "paid",
      eventName: "Status Night",
      eventDate: new Date(event.startsAt).toISOString(),
      eventLocation: event.address,
      time_zone: "Australia/Sydney",
      event_duration: 2,
      // What the seat cost and the policy: a ticket saved before they came with it learns them here.
      amountCents: 4500,
      cancellationPolicy: { fullRefundHours: 48, laterPercent: 0 },
      // A booking written straight as paid has no receipt: the saved ticket offers no Download invoice.
      invoiceNumber: null,
    });
  });

  it("says refunded once the organiser refunds the booking, and only that booking", async () => {
    const { attendees } = await eventWith(2);
    const [refunded, kept] = attendees;
    const refund = await admin.postJson("/api/refund", { paymentIntentId: paymentOf(refunded!.bookingId) });
    expect(refund.status).toBe(200);
    expect(await statusOf(refunded!.bookingId)).toBe("refunded");
    expect(await statusOf(kept!.bookingId)).toBe("paid");
  });

  it("says cancelled for every ticket of a cancelled event, although each was refunded too", async () => {
    const { event, attendees } = await eventWith(2);
    expect((await admin.postJson("/api/cancel-event", { eventId: event.id })).status).toBe(200);
    for (const a of attendees) {
      expect(server.deps.db.select().from(bookings).where(eq(bookings.id, a.bookingId)).get()?.status).toBe("refunded");
      expect(await statusOf(a.bookingId)).toBe("cancelled");
    }
  });

  it("says ended once the organiser ends the night, or 3 hours after its planned end when nobody did", async () => {
    const tonight = await eventWith(1, { startsAt: server.deps.now() + HOUR });
    const id = tonight.attendees[0]!.bookingId;
    expect(await statusOf(id)).toBe("paid");
    expect((await admin.postJson("/api/start-event", { eventId: tonight.event.id })).status).toBe(200);
    expect(await statusOf(id), "under way").toBe("paid");
    expect((await admin.postJson("/api/end-event", { eventId: tonight.event.id })).status).toBe(200);
    expect(await statusOf(id)).toBe("ended");

    // Never started nor ended: planned end is start + 2 hours; still "paid" until 3 hours after it.
    const forgotten = await eventWith(1, { startsAt: server.deps.now() - 5 * HOUR + 60_000 });
    expect(await statusOf(forgotten.attendees[0]!.bookingId)).toBe("paid");
    server.advance(2 * 60_000);
    expect(await statusOf(forgotten.attendees[0]!.bookingId)).toBe("ended");
  });

  it("refuses a token that is not this booking's with 403 invalid_link, whatever the booking", async () => {
    const { attendees } = await eventWith(2);
    const [a, b] = attendees;
    const wrong = [
      "not-a-token",
      // Another booking's genuine token: never answers for this one.
      token(b!.bookingId),
      // A genuine token for another purpose on the same id.
      linkToken(server.deps.env, "waitlist-offer", a!.bookingId),
      linkToken({ SESSION_SECRET: "another-server-secret-another-server" }, "ticket", a!.bookingId),
    ];
    for (const t of wrong) {
      const reply = await status(a!.bookingId, t);
      expect(reply.status, t).toBe(403);
      expect(await reply.json()).toMatchObject({ success: false, code: "invalid_link" });
    }
    // An unknown booking with a bad token: the same 403, so the call maps no booking ids.
    const unknown = await status(987_654, "not-a-token");
    expect(unknown.status).toBe(403);
    expect(await unknown.json()).toMatchObject({ code: "invalid_link" });
  });

  it("answers 404 for a booking that does not exist and 409 not_paid for one never paid", async () => {
    const missing = await status(987_655);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ code: "not_found" });
    const { event } = await eventWith(0);
    const held = insertHeldBooking(server.deps.db, event.id, { now: server.deps.now() });
    const unpaid = await status(held.bookingId);
    expect(unpaid.status).toBe(409);
    expect(await unpaid.json()).toMatchObject({ code: "not_paid" });
  });

  it("follows an edited event, so a saved ticket shows the new time and place", async () => {
    const { event, attendees } = await eventWith(1);
    const moved = event.startsAt + 24 * HOUR;
    server.deps.db
      .update(events)
      .set({ startsAt: moved, address: "2 New Venue St" })
      .where(eq(events.id, event.id))
      .run();
    const reply = (await (await status(attendees[0]!.bookingId)).json()) as Record<string, unknown>;
    expect(reply).toMatchObject({ eventDate: new Date(moved).toISOString(), eventLocation: "2 New Venue St" });
  });
});
