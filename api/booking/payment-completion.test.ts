import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { bookings, checkoutSessions, events, refunds } from "../../db/schema.ts";
import { suiteTestServer } from "../../test/api-harness.ts";
import { insertEvent, makeImage } from "../../test/fixtures.ts";
import { createCheckout, holdSeat, newMobile, pay, verifiedBrowser } from "../../test/suites/booking-flow.ts";
import { completeCheckout } from "./payment-completion.ts";

const server = suiteTestServer();

describe("one paid seat per phone per event", () => {
  it("closes the old checkout when the phone books again, and refunds an old payment that still arrives", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { totalSeats: 10 });
    const phone = newMobile();
    const browser = await verifiedBrowser(server.url, phone);
    const image = new Uint8Array(await makeImage());

    // The buyer holds a seat and opens the payment page, goes back, books again and pays.
    const first = await holdSeat(browser, { phone, eventId: event.id, image });
    const firstCheckout = await createCheckout(server.url, { userID: first.userID!, eventID: event.id }, browser);
    const second = await holdSeat(browser, { phone, eventId: event.id, image });
    const secondCheckout = await createCheckout(server.url, { userID: second.userID!, eventID: event.id }, browser);
    expect(await pay(server.url, secondCheckout.sessionId!)).toBe(303);

    // The first payment page was left open; it can no longer take money.
    const closed = db.select().from(checkoutSessions).where(eq(checkoutSessions.id, firstCheckout.sessionId!)).get();
    expect(closed?.status).toBe("cancelled");
    expect(await pay(server.url, firstCheckout.sessionId!)).not.toBe(303);

    // With a card provider the old page may still be paid (Stripe's session outlives our hold):
    // that payment is refunded, and the phone keeps exactly one paid seat.
    const late = await completeCheckout(server.deps, {
      sessionId: firstCheckout.sessionId!,
      paymentIntentId: "pi_local_late",
    });
    expect(late.outcome).toBe("refunded");
    const paid = db
      .select()
      .from(bookings)
      .where(and(eq(bookings.phone, phone), eq(bookings.eventId, event.id), eq(bookings.status, "paid")))
      .all();
    expect(paid.map((b) => b.userId)).toEqual([second.userID]);
    expect(db.select().from(refunds).where(eq(refunds.paymentIntentId, "pi_local_late")).all()).toHaveLength(1);
  });

  it("refunds a payment that completes after the event was cancelled, and seats nobody", async () => {
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { totalSeats: 10 });
    const phone = newMobile();
    const browser = await verifiedBrowser(server.url, phone);
    const image = new Uint8Array(await makeImage());
    const held = await holdSeat(browser, { phone, eventId: event.id, image });
    const checkout = await createCheckout(server.url, { userID: held.userID!, eventID: event.id }, browser);
    // The organiser cancels while the buyer's card payment page is still open at the provider.
    db.update(events).set({ status: "cancelled" }).where(eq(events.id, event.id)).run();
    db.update(bookings).set({ status: "released" }).where(eq(bookings.userId, held.userID!)).run();

    const late = await completeCheckout(server.deps, {
      sessionId: checkout.sessionId!,
      paymentIntentId: "pi_local_cancelled",
    });
    expect(late.outcome).toBe("refunded");
    expect(db.select().from(bookings).where(eq(bookings.userId, held.userID!)).get()?.status).not.toBe("paid");
    expect(db.select().from(refunds).where(eq(refunds.paymentIntentId, "pi_local_cancelled")).all()).toHaveLength(1);
  });
});
