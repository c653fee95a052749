import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../../db/client.ts";
import { yearLike } from "../../../test/clock.ts";
import { insertEvent, insertHeldBooking } from "../../../test/fixtures.ts";
import { createLocalPayments } from "./local.ts";

// Dates in a year laid out like 2030, always ahead of the clock (test/clock.ts).
const Y = yearLike(2030);

const dir = mkdtempSync(join(tmpdir(), "sdt-local-pay-"));
const db = openDatabase(join(dir, "app.db"));
let clock = Date.UTC(Y, 0, 1);
const payments = createLocalPayments({ PUBLIC_BASE_URL: "https://tickets.example" }, db, () => clock);

afterAll(() => {
  db.$client.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the local payments provider", () => {
  it("gives a payment one refund whatever the key, finds it, and refuses other providers' payments", async () => {
    const a = await payments.refund("pi_local_abc", "refund-1");
    expect(a.refundId).toMatch(/^re_local_/);
    expect(await payments.refund("pi_local_abc", "refund-1")).toEqual(a);
    expect(await payments.refund("pi_local_abc", "refund-pi_local_abc")).toEqual(a);
    expect(await payments.findRefund("pi_local_abc")).toEqual(a);
    expect((await payments.refund("pi_local_def", "refund-2")).refundId).not.toBe(a.refundId);
    await expect(payments.refund("pi_3Nabc", "refund-3")).rejects.toThrow();
    await expect(payments.findRefund("pi_3Nabc")).rejects.toThrow();
  });

  it("answers a repeated create with the same session and reports it expired after its time", async () => {
    const event = await insertEvent(db, join(dir, "uploads"));
    const held = insertHeldBooking(db, event.id, { now: clock });
    const input = {
      amountCents: 4500,
      currency: "aud" as const,
      productName: event.name,
      customerEmail: held.email,
      successUrl: "https://tickets.example/success?session_id={CHECKOUT_SESSION_ID}",
      cancelUrl: "https://tickets.example/",
      expiresAt: clock + 31 * 60_000,
      metadata: { bookingId: String(held.bookingId) },
      idempotencyKey: `checkout-${held.bookingId}-1`,
    };
    const first = await payments.createCheckout(input);
    expect(first).toMatchObject({ status: "open", paid: false, paymentIntentId: null, amountCents: 4500 });
    expect(first.url).toBe(`https://tickets.example/api/dev/checkout/${first.id}`);
    expect((await payments.createCheckout(input)).id).toBe(first.id);
    clock += 32 * 60_000;
    expect((await payments.retrieveCheckout(first.id)).status).toBe("expired");
    await expect(payments.retrieveCheckout("cs_local_nope")).rejects.toMatchObject({ status: 404 });
  });

  it("gives each checkout a random id that nothing about the booking predicts", async () => {
    const event = await insertEvent(db, join(dir, "uploads"));
    const held = insertHeldBooking(db, event.id, { now: clock });
    const checkout = (expiresAt: number) =>
      payments.createCheckout({
        amountCents: 4500,
        currency: "aud",
        productName: event.name,
        customerEmail: held.email,
        successUrl: "https://tickets.example/success?session_id={CHECKOUT_SESSION_ID}",
        cancelUrl: "https://tickets.example/",
        expiresAt,
        metadata: { bookingId: String(held.bookingId) },
        idempotencyKey: `checkout-${held.bookingId}-${expiresAt}`,
      });
    const first = await checkout(clock + 31 * 60_000);
    const second = await checkout(clock + 62 * 60_000);
    // The local checkout page and GET /api/checkout-session still recognise the ids.
    for (const { id } of [first, second]) expect(id).toMatch(/^cs_local_[a-f0-9]{24}$/);
    expect(second.id).not.toBe(first.id);
    // The old scheme hashed the idempotency key, i.e. the booking id and the hold's expiry.
    const key = `checkout-${held.bookingId}-${clock + 31 * 60_000}`;
    expect(first.id).not.toBe(`cs_local_${createHash("sha256").update(key).digest("hex").slice(0, 24)}`);
  });

  it("gives the same booking on another server a different checkout id", async () => {
    // Two fresh databases hold the same booking id: a derived id would be the same in both.
    const ids: string[] = [];
    for (const name of ["one", "two"]) {
      const other = openDatabase(join(dir, `${name}.db`));
      try {
        const event = await insertEvent(other, join(dir, `uploads-${name}`));
        const held = insertHeldBooking(other, event.id, { now: clock });
        const provider = createLocalPayments({ PUBLIC_BASE_URL: "https://tickets.example" }, other, () => clock);
        const info = await provider.createCheckout({
          amountCents: 4500,
          currency: "aud",
          productName: event.name,
          customerEmail: "same@example.com",
          successUrl: "https://tickets.example/success?session_id={CHECKOUT_SESSION_ID}",
          cancelUrl: "https://tickets.example/",
          expiresAt: Date.UTC(Y, 0, 1, 0, 31),
          metadata: { bookingId: String(held.bookingId) },
          idempotencyKey: `checkout-${held.bookingId}-${Date.UTC(Y, 0, 1, 0, 31)}`,
        });
        expect(held.bookingId).toBe(1);
        ids.push(info.id);
      } finally {
        other.$client.close();
      }
    }
    expect(ids[0]).not.toBe(ids[1]);
  });
});
