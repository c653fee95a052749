import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outboxMessages } from "../../db/schema.ts";
import { startTestServer, type TestServer } from "../../test/api-harness.ts";
import type { SmsProvider } from "../providers/sms/types.ts";
import { deliverPending, enqueueSms, retryDelay } from "./outbox.ts";

let server: TestServer;
let down = true;
const delivered: string[] = [];
const flaky: SmsProvider = {
  name: "console",
  startVerification: async () => {},
  checkVerification: async () => "wrong",
  send: async (to) => {
    if (down) throw new Error("provider unavailable");
    delivered.push(to);
    return { id: `SM${delivered.length}` };
  },
};

beforeAll(async () => {
  server = await startTestServer({ deps: () => ({ sms: flaky }) });
});
afterAll(async () => {
  await server.close();
});

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
});
