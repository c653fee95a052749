import { describe, expect, it } from "vitest";
import { json, waitlistSuite } from "../../test/suites/waitlist.ts";

// Every refund tells the person, once, what comes back and how long it takes; a cancelled night's
// own text already says so, so its refunds add none.

const suite = waitlistSuite();
const { server } = suite;

async function textsTo(phone: string) {
  const outbox = await json<{ to: string; body: string }[]>(await fetch(`${server.url}/api/dev/outbox`));
  return outbox.filter((m) => m.to === phone).map((m) => m.body);
}

describe("refund texts", () => {
  it("texts the amount and the time to arrive once, however often the refund is asked for", async () => {
    const event = await suite.newEvent({ total: 4, name: "Harbour Mixer" });
    const [paid] = suite.paidSeats(event.id, 1, "female");
    const refund = () => suite.admin.postJson("/api/refund", { paymentIntentId: paid!.paymentIntentId });
    expect((await refund()).status).toBe(200);
    expect((await refund()).status).toBe(200);
    await expect
      .poll(() => textsTo(paid!.phone))
      .toEqual([
        "Your $45.00 for Harbour Mixer is being refunded to your card; it can take 5-10 business days to show.",
      ]);
  });

  it("sends a cancelled night's attendees one text, the cancellation's, with the amount", async () => {
    const event = await suite.newEvent({ total: 4, name: "Cancelled Mixer" });
    const [paid] = suite.paidSeats(event.id, 1, "male");
    expect((await suite.admin.postJson("/api/cancel-event", { eventId: event.id })).status).toBe(200);
    await expect.poll(() => textsTo(paid!.phone)).toHaveLength(1);
    const [text] = await textsTo(paid!.phone);
    expect(text).toMatch(/has been cancelled\. Your \$45\.00 is being refunded to your card/);
  });
});
