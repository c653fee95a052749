import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../../db/client.ts";
import { insertEvent, insertHeldBooking } from "../../../test/fixtures.ts";
import { createLocalPayments } from "./local.ts";

const dir = mkdtempSync(join(tmpdir(), "sdt-local-pay-"));
const db = openDatabase(join(dir, "app.db"));
let clock = Date.UTC(2030, 0, 1);
const payments = createLocalPayments({ PUBLIC_BASE_URL: "https://tickets.example" }, db, () => clock);

afterAll(() => {
  db.$client.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the local payments provider", () => {
  it("gives the same refund for the same key, a new one for another key, and refuses other providers' payments", async () => {
    const a = await payments.refund("pi_local_abc", "refund-1");
    expect(a.refundId).toMatch(/^re_local_/);
    expect(await payments.refund("pi_local_abc", "refund-1")).toEqual(a);
    expect((await payments.refund("pi_local_def", "refund-2")).refundId).not.toBe(a.refundId);
    await expect(payments.refund("pi_3Nabc", "refund-3")).rejects.toThrow();
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
});
