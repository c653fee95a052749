import { eq } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { announcements, marketingConsents } from "../../db/marketing-schema.ts";
import { outboxMessages } from "../../db/schema.ts";
import { suiteTestServer } from "../../test/api-harness.ts";
import { recordingSms } from "../../test/fakes/sms.ts";
import { insertEvent } from "../../test/fixtures.ts";
import { backgroundJobs } from "../ops/jobs.ts";
import { createScheduler } from "../ops/scheduler.ts";
import { recordConsent } from "./consent.ts";
import { enqueueMarketingSms, enqueueSms } from "./outbox.ts";

// Issue 36: marketing leaves through the one outbox, but only to an address that consents at the
// moment it is sent, and at INVITE_RATE_PER_MINUTE at most. The clock is moved, never slept on.

const texted: { to: string; body: string }[] = [];
/** Numbers the carrier refuses for now (the outbox retries them later). */
const refused = new Set<string>();
const sms = recordingSms((text) => {
  if (refused.has(text.to)) throw new Error("carrier refused");
  return texted.push(text);
});
const server = suiteTestServer({ env: { INVITE_RATE_PER_MINUTE: "5" }, deps: () => ({ sms }) });

/** One tick of the server's background jobs at the harness's clock, as server.ts runs them. */
const tick = () => createScheduler(server.deps, backgroundJobs(server.deps)).tick();

let people = 0;
/** An announcement to `count` new numbers, each with a yes on record unless `consent` is false. */
async function announce(count: number, consent = true) {
  const { db } = server.deps;
  const event = await insertEvent(db, server.deps.env.UPLOADS_DIR);
  const at = server.deps.now();
  const { id } = db
    .insert(announcements)
    .values({
      eventId: event.id,
      audience: {},
      channels: ["sms"],
      text: "Hi",
      recipientsSms: count,
      recipientsEmail: 0,
      createdAt: at,
    })
    .returning({ id: announcements.id })
    .get();
  const numbers = Array.from({ length: count }, () => `+6141${String(2_000_000 + people++)}`);
  for (const to of numbers) {
    if (consent) recordConsent(db, { channel: "sms", address: to, given: true, source: "booking", phone: to, at });
    enqueueMarketingSms(
      db,
      { dedupeKey: `announce:${id}:sms:${to}`, to, body: `Seats left ${to}` },
      { announcementId: id },
    );
  }
  return { id, numbers };
}

const statusOf = (announcementId: number) =>
  server.deps.db
    .select({ to: outboxMessages.to, status: outboxMessages.status })
    .from(outboxMessages)
    .where(eq(outboxMessages.announcementId, announcementId))
    .all();

describe("marketing through the outbox", () => {
  // Each test starts a fresh minute, with whatever an earlier one left queued sent.
  beforeEach(async () => {
    server.advance(3_600_000);
    await tick();
    texted.length = 0;
  });

  it("sends 12 at 5 a minute: five, five more a minute later, the last two the minute after", async () => {
    texted.length = 0;
    const { id, numbers } = await announce(12);
    await tick();
    expect(texted).toHaveLength(5);
    // Ticks within the same minute send nothing more.
    server.advance(30_000);
    await tick();
    expect(texted).toHaveLength(5);
    server.advance(30_001);
    await tick();
    expect(texted).toHaveLength(10);
    server.advance(60_001);
    await tick();
    expect(texted.map((t) => t.to).sort()).toEqual([...numbers].sort());
    expect(statusOf(id).every((m) => m.status === "sent")).toBe(true);
  });

  it("keeps texts that are not marketing out of the budget: a ticket goes at once while announcements wait", async () => {
    texted.length = 0;
    await announce(6);
    await tick();
    expect(texted).toHaveLength(5);
    enqueueSms(server.deps.db, { dedupeKey: "ticket:marketing-test", to: "+61412999999", body: "Your ticket" });
    await tick();
    expect(texted.map((t) => t.to)).toContain("+61412999999");
    expect(texted).toHaveLength(6);
    server.advance(60_001);
    await tick();
  });

  it("checks consent when each text is sent: someone who opts out mid-send gets nothing more", async () => {
    texted.length = 0;
    const { id, numbers } = await announce(8);
    await tick();
    const first = texted.map((t) => t.to);
    expect(first).toHaveLength(5);
    const later = numbers.filter((n) => !first.includes(n));
    // One of those still waiting replies STOP before its turn (recorded as the inbound webhook does).
    const quitter = later[0]!;
    recordConsent(server.deps.db, {
      channel: "sms",
      address: quitter,
      given: false,
      source: "inbound",
      phone: quitter,
      at: server.deps.now(),
    });
    server.advance(60_001);
    await tick();
    expect(texted.map((t) => t.to)).not.toContain(quitter);
    expect(texted).toHaveLength(7);
    expect(statusOf(id).find((m) => m.to === quitter)?.status).toBe("suppressed");
    // Opting back in afterwards does not resurrect the skipped text.
    recordConsent(server.deps.db, {
      channel: "sms",
      address: quitter,
      given: true,
      source: "inbound",
      phone: quitter,
      at: server.deps.now(),
    });
    server.advance(60_001);
    await tick();
    expect(texted.map((t) => t.to)).not.toContain(quitter);
  });

  it("never sends marketing to an address that has no consent record at all", async () => {
    const { id, numbers } = await announce(1, false);
    server.advance(60_001);
    await tick();
    expect(texted).toEqual([]);
    expect(statusOf(id)).toEqual([{ to: numbers[0], status: "suppressed" }]);
  });

  it("lets a refused text wait for its retry without holding a place in the minute's budget", async () => {
    const first = await announce(5);
    for (const n of first.numbers) refused.add(n);
    await tick();
    expect(texted).toEqual([]);
    // Five tries failed and wait for their retry; a second announcement's texts still go this minute.
    const second = await announce(5);
    server.advance(1_000);
    await tick();
    expect(texted.map((t) => t.to).sort()).toEqual([...second.numbers].sort());
    // Once the carrier takes them, the first five go at their retry, in a later minute's budget.
    refused.clear();
    server.advance(60_001);
    await tick();
    expect(texted).toHaveLength(10);
    expect(statusOf(first.id).every((m) => m.status === "sent")).toBe(true);
  });

  it("keeps every choice: a consent record cannot be rewritten, only followed by a newer one", () => {
    const { db } = server.deps;
    recordConsent(db, {
      channel: "sms",
      address: "+61412777777",
      given: true,
      source: "me",
      phone: "+61412777777",
      at: 1,
    });
    expect(() => db.update(marketingConsents).set({ given: false }).run()).toThrow(/never changed/);
  });
});
