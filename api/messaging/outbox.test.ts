import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { outboxMessages } from "../../db/schema.ts";
import { suiteTestServer } from "../../test/api-harness.ts";
import { recordingSms } from "../../test/fakes/sms.ts";
import type { SmsProvider } from "../providers/sms/types.ts";
import { deliverPending, enqueueSms, retryDelay } from "./outbox.ts";

let down = true;
const delivered: string[] = [];
const flaky = recordingSms(({ to }) => {
  if (down) throw new Error("provider unavailable");
  return delivered.push(to);
});

const server = suiteTestServer({ deps: () => ({ sms: flaky }) });

describe("the SMS outbox", () => {
  it("rides out an hours-long provider outage with backoff, then sends the message once", async () => {
    const { db } = server.deps;
    enqueueSms(db, { dedupeKey: "test:outage", to: "+61412000001", body: "Your ticket code is X" });
    enqueueSms(db, { dedupeKey: "test:outage", to: "+61412000001", body: "a replay queues nothing" });
    const row = () => db.select().from(outboxMessages).where(eq(outboxMessages.dedupeKey, "test:outage")).get()!;

    // Three hours of outage, the background loop running every 30 seconds.
    let tries = 0;
    for (let elapsed = 0; elapsed < 3 * 3_600_000; elapsed += 30_000) {
      const before = row().attempts;
      await deliverPending({ ...server.deps, sms: flaky }, { dedupePrefix: "test:" });
      if (row().attempts > before) tries++;
      server.advance(30_000);
    }
    expect(row().status).toBe("pending");
    // Backed off: a handful of tries, not one every 30 seconds (360).
    expect(tries).toBeGreaterThan(5);
    expect(tries).toBeLessThan(15);

    down = false;
    server.advance(retryDelay(row().attempts));
    await deliverPending({ ...server.deps, sms: flaky }, { dedupePrefix: "test:" });
    await deliverPending({ ...server.deps, sms: flaky }, { dedupePrefix: "test:" });
    expect(row().status).toBe("sent");
    expect(delivered).toEqual(["+61412000001"]);
  });

  it("sends a message once when a second delivery run starts while the first awaits the provider", async () => {
    const { db } = server.deps;
    enqueueSms(db, { dedupeKey: "slow:1", to: "+61412000002", body: "A seat is free" });
    const sent: string[] = [];
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow: SmsProvider = {
      ...flaky,
      send: async (to) => {
        sent.push(to);
        await gate;
        return { id: `SM-slow-${sent.length}` };
      },
    };
    const first = deliverPending({ ...server.deps, sms: slow }, { dedupePrefix: "slow:" });
    // The scheduler's tick (or a second server) while the provider has not answered yet.
    const second = await deliverPending({ ...server.deps, sms: slow }, { dedupePrefix: "slow:" });
    release();
    await first;
    expect(second).toEqual([]);
    expect(sent).toEqual(["+61412000002"]);
    expect(db.select().from(outboxMessages).where(eq(outboxMessages.dedupeKey, "slow:1")).get()?.status).toBe("sent");
  });

  it("tries again a message whose send a crash interrupted, once its lease has run out", async () => {
    const { db } = server.deps;
    enqueueSms(db, { dedupeKey: "crash:1", to: "+61412000003", body: "Your ticket" });
    const stuck: SmsProvider = { ...flaky, send: () => new Promise(() => {}) };
    void deliverPending({ ...server.deps, sms: stuck }, { dedupePrefix: "crash:" });
    down = false;
    expect(await deliverPending({ ...server.deps, sms: flaky }, { dedupePrefix: "crash:" })).toEqual([]);
    server.advance(61_000);
    const retried = await deliverPending({ ...server.deps, sms: flaky }, { dedupePrefix: "crash:" });
    expect(retried.map((m) => m.status)).toEqual(["sent"]);
  });
});
