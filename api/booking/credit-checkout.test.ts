import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { creditEntries } from "../../db/credit-schema.ts";
import { bookings, checkoutSessions, documents, outboxMessages } from "../../db/schema.ts";
import { type BrowserClient, type TestServer, withTestServer } from "../../test/api-harness.ts";
import { insertEvent, makeImage } from "../../test/fixtures.ts";
import { holdSeat, newMobile, pay, signedInOnMe, verifiedBrowser } from "../../test/suites/booking-flow.ts";
import { GST_SELLER } from "../../test/suites/invoices.ts";
import { addCredit, creditKeyOf } from "./credit.ts";

// Credit at the checkout (issue 52, docs/decisions/057-credit.md): `useCredit: true` pays part or
// all; a checkout paid wholly by credit is a paid booking at once, with its ticket and its receipt.

const DAY = 86_400_000;
const ENV = { ...GST_SELLER, OTP_MAX_PER_ADDRESS: "1000", OTP_MAX_PER_PHONE: "1000" };

function giveCredit(server: TestServer, phone: string, amountCents: number) {
  addCredit(
    server.deps.db,
    {
      guestKey: creditKeyOf(server.deps.env, phone),
      amountCents,
      kind: "given",
      reason: "Test credit",
      uniqueKey: `given:test:${phone}:${amountCents}:${Math.random()}`,
    },
    server.deps.now(),
  );
}

async function heldSeat(server: TestServer, phone: string, browser?: BrowserClient) {
  const event = await insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR, {
    name: "Saturday Social",
    startsAt: server.deps.now() + 5 * DAY,
    priceCents: 4500,
  });
  const guest = browser ?? (await verifiedBrowser(server.url, phone));
  const held = await holdSeat(guest, { phone, eventId: event.id, image: await makeImage() });
  expect(held.status).toBe(200);
  return { guest, target: { userID: held.userID ?? 0, eventID: event.id } };
}

const checkout = async (guest: BrowserClient, target: { userID: number; eventID: number }) => {
  const response = await guest.postJson("/api/create-checkout-session", { ...target, useCredit: true });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

const balanceOf = async (server: TestServer, phone: string) => {
  const me = await (await (await signedInOnMe(server.url, phone)).get("/api/me")).json();
  return me.credit.balanceCents as number;
};

describe("POST /api/create-checkout-session with useCredit", () => {
  it("pays wholly by credit: no card checkout, the booking paid with its ticket texted, a receipt that shows the credit and no GST again", async () => {
    await withTestServer({ env: ENV }, async (server) => {
      const phone = newMobile();
      giveCredit(server, phone, 5000);
      const { guest, target } = await heldSeat(server, phone);

      const reply = await checkout(guest, target);
      expect(reply.status).toBe(200);
      expect(reply.body).toEqual({ paidByCredit: true, url: expect.stringMatching(/\/me$/) });
      expect(reply.body).not.toHaveProperty("sessionId");

      const booking = server.deps.db.select().from(bookings).where(eq(bookings.userId, target.userID)).get();
      expect(booking).toMatchObject({ status: "paid", amountCents: 4500, creditCents: 4500 });
      expect(booking?.uniqueCode).toBeTruthy();
      const texts = server.deps.db.select().from(outboxMessages).where(eq(outboxMessages.to, phone)).all();
      expect(texts.some((t) => t.body.includes(booking?.uniqueCode ?? "?"))).toBe(true);

      const doc = server.deps.db
        .select()
        .from(documents)
        .where(eq(documents.bookingId, booking?.id ?? 0))
        .get();
      expect(doc).toMatchObject({ kind: "invoice", totalCents: 0, gstCents: 0 });
      expect(doc?.lines).toContainEqual({ label: "Paid by credit", amountCents: -4500 });

      expect(await balanceOf(server, phone)).toBe(500);
      // A second call is a booking already paid, and spends nothing more.
      expect((await checkout(guest, target)).status).toBe(409);
      expect(await balanceOf(server, phone)).toBe(500);
    });
  });

  it("pays part by credit: the card checkout is for the rest, a cancelled checkout gives the credit back, and the invoice's GST is on the card's part only", async () => {
    await withTestServer({ env: ENV }, async (server) => {
      const phone = newMobile();
      giveCredit(server, phone, 2000);
      const { guest, target } = await heldSeat(server, phone);

      const first = await checkout(guest, target);
      expect(first.status).toBe(200);
      const firstId = String(first.body.sessionId);
      const row = server.deps.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, firstId)).get();
      expect(row).toMatchObject({ amountCents: 2500, creditCents: 2000 });
      expect(await balanceOf(server, phone)).toBe(0);

      const cancelled = await fetch(`${server.url}/api/dev/checkout/${firstId}/cancel`, {
        method: "POST",
        redirect: "manual",
      });
      await cancelled.body?.cancel();
      expect(await balanceOf(server, phone)).toBe(2000);

      const second = await checkout(guest, target);
      expect(await pay(server.url, String(second.body.sessionId))).toBe(303);
      const booking = server.deps.db.select().from(bookings).where(eq(bookings.userId, target.userID)).get();
      expect(booking).toMatchObject({ status: "paid", amountCents: 4500, creditCents: 2000 });
      const doc = server.deps.db
        .select()
        .from(documents)
        .where(eq(documents.bookingId, booking?.id ?? 0))
        .get();
      expect(doc).toMatchObject({ totalCents: 2500, gstCents: Math.round(2500 / 11) });
      expect(doc?.lines).toContainEqual({ label: "Paid by credit", amountCents: -2000 });
      expect(await balanceOf(server, phone)).toBe(0);
    });
  });

  it("two checkouts at once spend the credit once, and the balance never goes below zero", async () => {
    await withTestServer({ env: ENV }, async (server) => {
      const phone = newMobile();
      giveCredit(server, phone, 4500);
      const guest = await verifiedBrowser(server.url, phone);
      const a = await heldSeat(server, phone, guest);
      const b = await heldSeat(server, phone, guest);
      const replies = await Promise.all([checkout(guest, a.target), checkout(guest, b.target)]);
      expect(replies.filter((r) => r.body.paidByCredit === true)).toHaveLength(1);
      const spent = server.deps.db
        .select()
        .from(creditEntries)
        .all()
        .filter((e) => e.kind === "spent");
      expect(spent.reduce((sum, e) => sum + e.amountCents, 0)).toBe(-4500);
      expect(await balanceOf(server, phone)).toBe(0);
    });
  });
});
