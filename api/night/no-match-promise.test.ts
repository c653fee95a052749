import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { and, eq, like } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { creditEntries } from "../../db/credit-schema.ts";
import { bookings, events, feedback, outboxMessages } from "../../db/schema.ts";
import { browserClient, type TestServer, withTestServer } from "../../test/api-harness.ts";
import { insertEvent, insertPaidBookings } from "../../test/fixtures.ts";
import { signedInOnMe } from "../../test/suites/booking-flow.ts";
import { deliverPending } from "../messaging/outbox.ts";

// The no-match promise (issue 52 part 4, docs/decisions/060-no-match-promise.md) over real HTTP: at
// Release results, a guest who came, rated everyone they met and has no match gets the price they
// paid as credit on their number, with one text; anyone else gets nothing; a second release, a crash
// inside the release and a restart give nothing twice.

const HOUR = 3_600_000;
const LIMITS = { OTP_MAX_PER_ADDRESS: "1000", OTP_MAX_PER_PHONE: "1000" };
const PASSWORD = "correct horse battery staple";
const REASON = "No match at Harbour Mixer: your next night is on us";

type Guest = { userId: number; bookingId: number; phone: string };

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "sdt-nomatch-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Servers started in turn on one database file: a restart. */
const sameFile = () => ({
  env: { ...LIMITS, DATABASE_PATH: join(dir, "app.db"), UPLOADS_DIR: join(dir, "uploads") },
});

/**
 * An ended Women meet men night run with the door: four guests checked in and one no-show.
 * - `m1` rated both women Not for me and nobody liked him: no match, so credit. He paid $30 by card
 *   and $20 of earlier credit, so the price he paid is $50.
 * - `m2` and `f1` like each other: a match, nothing.
 * - `f2` rated only one of the two men she met: nothing.
 * - `m3` never came (not checked in): nothing.
 */
async function night(server: TestServer, noMatchPromise = true) {
  const { db, env } = server.deps;
  const event = await insertEvent(db, env.UPLOADS_DIR, {
    name: "Harbour Mixer",
    status: "ended",
    startsAt: server.deps.now() - 4 * HOUR,
    startedAt: server.deps.now() - 4 * HOUR,
    endedAt: server.deps.now() - HOUR,
    noMatchPromise,
  });
  const [m1, m2, m3] = insertPaidBookings(db, event.id, 3, { gender: "male" }) as [Guest, Guest, Guest];
  const [f1, f2] = insertPaidBookings(db, event.id, 2, { gender: "female" }) as [Guest, Guest];
  for (const g of [m1, m2, f1, f2]) {
    db.update(bookings).set({ checkedInAt: event.startsAt }).where(eq(bookings.id, g.bookingId)).run();
  }
  db.update(bookings).set({ amountCents: 5000, creditCents: 2000 }).where(eq(bookings.id, m1.bookingId)).run();
  const rate = (from: Guest, to: Guest, value: "like" | "dislike") =>
    db
      .insert(feedback)
      .values({ eventId: event.id, fromUserId: from.userId, toUserId: to.userId, value, clientTs: 1, updatedAt: 1 })
      .run();
  rate(m1, f1, "dislike");
  rate(m1, f2, "dislike");
  rate(m2, f1, "like");
  rate(m2, f2, "dislike");
  rate(f1, m1, "dislike");
  rate(f1, m2, "like");
  rate(f2, m2, "dislike");
  return { id: event.id, m1, m2, m3, f1, f2 };
}

async function admin(server: TestServer) {
  const browser = browserClient(server.url);
  expect((await browser.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
  return browser;
}

const release = async (server: TestServer, eventId: number) =>
  (await admin(server)).postJson("/api/release-results", { eventId });

const ledger = (server: TestServer) => server.deps.db.select().from(creditEntries).all();
const promiseTexts = (server: TestServer) =>
  server.deps.db.select().from(outboxMessages).where(like(outboxMessages.body, "%next night is on us%")).all();

type Me = { credit: { balanceCents: number; history: { at: string; amountCents: number; reason: string }[] } };
const meOf = async (server: TestServer, phone: string) =>
  (await (await (await signedInOnMe(server.url, phone)).get("/api/me")).json()) as Me;

describe("the no-match promise at Release results", () => {
  it("gives the price paid as credit, with one text, only to the guest who came, rated everyone and has no match", async () => {
    await withTestServer({ env: LIMITS }, async (server) => {
      const e = await night(server);
      const reply = await release(server, e.id);
      expect(reply.status).toBe(200);
      // The organiser's reply is the release's as before: counts, no guest's credit or number.
      const body = await reply.json();
      expect(Object.keys(body).sort()).toEqual(["failed", "releasedAt", "sent", "success"]);

      expect(ledger(server)).toEqual([
        expect.objectContaining({
          amountCents: 5000,
          kind: "given",
          reason: REASON,
          uniqueKey: `nomatch:${e.m1.bookingId}`,
          bookingId: e.m1.bookingId,
          eventId: e.id,
        }),
      ]);

      const texts = promiseTexts(server);
      expect(texts).toHaveLength(1);
      expect(texts[0]).toMatchObject({ to: e.m1.phone, status: "sent", purpose: "transactional" });
      expect(texts[0]?.body).toBe(
        "No match at Harbour Mixer this time, so your next night is on us: $50.00 is now credit on this number " +
          "(balance $50.00), used at your next booking. It does not expire.",
      );
      // Transactional: no link, no offer, no other night.
      expect(texts[0]?.body).not.toMatch(/https?:|www\.|offer|discount|book now|\bsale\b/i);

      // m1 sees it on /me, with nothing of anyone else; the others see no credit.
      const mine = await meOf(server, e.m1.phone);
      expect(mine.credit).toEqual({
        balanceCents: 5000,
        history: [{ at: expect.any(String), amountCents: 5000, reason: REASON }],
      });
      const text = JSON.stringify(mine);
      for (const other of [e.m2, e.m3, e.f1, e.f2]) expect(text).not.toContain(other.phone);
      expect(text).not.toContain("Attendee");
      for (const other of [e.m2, e.m3, e.f1, e.f2]) {
        expect((await meOf(server, other.phone)).credit).toEqual({ balanceCents: 0, history: [] });
      }
    });
  });

  it("counts a friend match as a match: Friend both ways gives nothing", async () => {
    await withTestServer({ env: LIMITS }, async (server) => {
      const e = await night(server);
      const { db } = server.deps;
      db.update(events).set({ offersFriend: true }).where(eq(events.id, e.id)).run();
      for (const [from, to] of [
        [e.m1, e.f1],
        [e.f1, e.m1],
      ] as const) {
        db.update(feedback)
          .set({ value: "friend" })
          .where(and(eq(feedback.fromUserId, from.userId), eq(feedback.toUserId, to.userId)))
          .run();
      }
      expect((await release(server, e.id)).status).toBe(200);
      expect(ledger(server)).toEqual([]);
      expect(promiseTexts(server)).toEqual([]);
    });
  });

  it("gives nothing at a night that did not promise it", async () => {
    await withTestServer({ env: LIMITS }, async (server) => {
      const e = await night(server, false);
      expect((await release(server, e.id)).status).toBe(200);
      expect(ledger(server)).toEqual([]);
      expect(promiseTexts(server)).toEqual([]);
    });
  });

  it("gives nothing when nobody's coming is on record (no door, no rounds), though every guest is thanked", async () => {
    await withTestServer({ env: LIMITS }, async (server) => {
      const e = await night(server);
      server.deps.db.update(bookings).set({ checkedInAt: null }).where(eq(bookings.eventId, e.id)).run();
      expect((await release(server, e.id)).status).toBe(200);
      expect(ledger(server)).toEqual([]);
      expect(promiseTexts(server)).toEqual([]);
    });
  });

  it("gives nothing more at a second release", async () => {
    await withTestServer({ env: LIMITS }, async (server) => {
      const e = await night(server);
      expect((await release(server, e.id)).status).toBe(200);
      const again = await release(server, e.id);
      expect(again.status).toBe(200);
      expect(await again.json()).toMatchObject({ sent: 0 });
      expect(ledger(server)).toHaveLength(1);
      expect(promiseTexts(server)).toHaveLength(1);
    });
  });

  it("after a crash inside the release gives both or neither, and once across a restart", async () => {
    let eventId = 0;
    let m1: Guest | undefined;
    // The server dies as it writes the promise's text: the credit written just before is rolled back
    // with the release, so nothing is half done.
    await withTestServer({ ...sameFile(), expectNoErrors: false }, async (server) => {
      const e = await night(server);
      eventId = e.id;
      m1 = e.m1;
      server.deps.db.$client.exec(
        `CREATE TRIGGER crash_at_text BEFORE INSERT ON outbox_messages WHEN NEW.dedupe_key LIKE 'results:%:nomatch:%'
         BEGIN SELECT RAISE(ABORT, 'the server died here'); END`,
      );
      expect((await release(server, e.id)).status).toBe(500);
      expect(ledger(server)).toEqual([]);
      expect(promiseTexts(server)).toEqual([]);
      server.deps.db.$client.exec("DROP TRIGGER crash_at_text");
    });
    // Started again: the release goes through; this time the carrier is down, so the text waits.
    await withTestServer(
      {
        ...sameFile(),
        deps: (base) => ({
          sms: {
            ...base.sms,
            send: async () => {
              throw new Error("carrier down");
            },
          },
        }),
        expectNoErrors: false,
      },
      async (server) => {
        expect((await release(server, eventId)).status).toBe(200);
        expect(ledger(server)).toHaveLength(1);
        expect(promiseTexts(server)).toEqual([expect.objectContaining({ to: m1?.phone, status: "pending" })]);
      },
    );
    // Started once more, past the retry's wait: the outbox sends the waiting text once; releasing
    // again adds nothing.
    await withTestServer(sameFile(), async (server) => {
      server.advance(10 * 60_000);
      await deliverPending(server.deps);
      await deliverPending(server.deps);
      expect((await release(server, eventId)).status).toBe(200);
      expect(ledger(server)).toEqual([expect.objectContaining({ uniqueKey: `nomatch:${m1?.bookingId}` })]);
      expect(promiseTexts(server)).toEqual([expect.objectContaining({ to: m1?.phone, status: "sent" })]);
      expect((await meOf(server, m1?.phone ?? "")).credit.balanceCents).toBe(5000);
    });
  });
});
