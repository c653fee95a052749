// @vitest-environment happy-dom
import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { offlineDb, resetOfflineDbForTests, tapKey, ticketKey } from "../../lib/offline-db.ts";
import {
  backoffDelay,
  flushQueue,
  lateCount,
  MAX_DELAY_MS,
  pendingCount,
  type QueueEvent,
  recordTap,
  resetTapQueueForTests,
  startTapSync,
  subscribe,
  whenIdle,
} from "./tap-queue.ts";

type Sent = { toUserID: number; feedback: string; clientTs: number };

/**
 * A stand-in for the API at the network edge: it keeps what the real upsert keeps (newest clientTs
 * per partner), records every request, and can be switched offline or made to fail.
 */
function fakeServer() {
  const stored = new Map<number, { feedback: string; clientTs: number }>();
  const requests: Sent[] = [];
  let mode: "ok" | "offline" | { status: number; error: string; code?: string } = "ok";
  let gate: Promise<void> | undefined;
  const fetch = vi.fn(async (_url: string, init: RequestInit) => {
    if (gate) await gate;
    if (mode === "offline") throw new TypeError("Failed to fetch");
    const body = JSON.parse(String(init.body)) as Sent;
    requests.push(body);
    if (typeof mode === "object") {
      return new Response(JSON.stringify({ success: false, error: mode.error, code: mode.code }), {
        status: mode.status,
      });
    }
    const kept = stored.get(body.toUserID);
    if (!kept || body.clientTs > kept.clientTs) stored.set(body.toUserID, body);
    return Response.json({ success: true, ...stored.get(body.toUserID) });
  });
  vi.stubGlobal("fetch", fetch);
  return {
    stored,
    requests,
    set mode(m: typeof mode) {
      mode = m;
    },
    /** Holds every request until the returned release is called. */
    hold() {
      let release = () => {};
      gate = new Promise((r) => {
        release = () => {
          gate = undefined;
          r();
        };
      });
      return release;
    },
  };
}

const me = { eventID: 7, fromUserID: 1, token: "tok" };
const tap = (toUserID: number, feedback: "like" | "dislike") => recordTap({ ...me, toUserID, feedback });
const queued = async () => (await offlineDb()).getAll("feedbackQueue");
const choice = async (toUserID: number) =>
  (await offlineDb()).get("feedbackChoices", tapKey(me.eventID, me.fromUserID, toUserID));

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  resetOfflineDbForTests();
  resetTapQueueForTests();
});
afterEach(async () => {
  await flushQueue().catch(() => undefined);
  resetTapQueueForTests();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("the feedback tap queue", () => {
  it("stores a tap on the device before it is sent, and clears it once the server has it", async () => {
    const server = fakeServer();
    const seenAtSend: unknown[] = [];
    const send = vi.mocked(fetch).getMockImplementation();
    vi.mocked(fetch).mockImplementation(async (url, init) => {
      seenAtSend.push(
        (await queued()).map((t) => t.feedback),
        (await choice(2))?.feedback,
      );
      return send!(url as string, init as RequestInit);
    });

    const saved = await tap(2, "like");
    expect(saved).toMatchObject({ toUserID: 2, feedback: "like" });
    await flushQueue();

    expect(seenAtSend).toEqual([["like"], "like"]);
    expect(server.requests).toEqual([
      { fromUserID: 1, toUserID: 2, eventID: 7, feedback: "like", token: "tok", clientTs: saved.clientTs },
    ]);
    expect(await queued()).toEqual([]);
    expect((await choice(2))?.feedback).toBe("like");
  });

  it("keeps taps made offline and sends them when the network comes back", async () => {
    const server = fakeServer();
    server.mode = "offline";
    const stop = startTapSync();
    await tap(2, "like");
    await tap(3, "dislike");
    await flushQueue();

    expect(await pendingCount(me.eventID, me.fromUserID)).toBe(2);
    expect((await queued()).every((t) => t.attempts >= 1 && t.nextAttemptAt > Date.now())).toBe(true);
    // Still highlighted while they wait.
    expect((await choice(3))?.feedback).toBe("dislike");

    server.mode = "ok";
    window.dispatchEvent(new Event("online"));
    await vi.waitFor(async () => expect(await pendingCount(me.eventID, me.fromUserID)).toBe(0));
    expect(server.stored.get(2)?.feedback).toBe("like");
    expect(server.stored.get(3)?.feedback).toBe("dislike");
    stop();
  });

  it("lets the last tap for a partner win, sending only that one", async () => {
    const server = fakeServer();
    server.mode = "offline";
    const first = await tap(2, "like");
    const second = await tap(2, "dislike");
    const third = await tap(2, "like");
    await flushQueue();
    expect(second.clientTs).toBeGreaterThan(first.clientTs);
    expect(third.clientTs).toBeGreaterThan(second.clientTs);
    const waiting = await queued();
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({ feedback: "like", clientTs: third.clientTs });

    server.mode = "ok";
    await flushQueue();
    expect(server.requests).toEqual([expect.objectContaining({ feedback: "like", clientTs: third.clientTs })]);
    expect(await queued()).toEqual([]);
  });

  it("keeps a newer tap made while the older one is being sent", async () => {
    const server = fakeServer();
    const release = server.hold();
    await tap(2, "like");
    // The like is in flight; the participant changes their mind before the reply arrives.
    const newer = await tap(2, "dislike");
    release();
    await flushQueue();

    expect(server.requests.map((r) => r.feedback)).toEqual(["like", "dislike"]);
    expect(server.stored.get(2)).toMatchObject({ feedback: "dislike", clientTs: newer.clientTs });
    expect(await queued()).toEqual([]);
    expect((await choice(2))?.feedback).toBe("dislike");
  });

  it("drops a tap the server refuses (4xx) and says so by name", async () => {
    const server = fakeServer();
    server.mode = { status: 409, error: "feedback opens when the event starts" };
    await (await offlineDb()).put("partners", {
      key: ticketKey(me.eventID, me.fromUserID),
      partners: [{ id: 2, username: "Priya", image_name: "p-thumb.jpg" }],
      savedAt: Date.now(),
    });
    const events: QueueEvent[] = [];
    subscribe((e) => events.push(e));

    await tap(2, "like");
    await flushQueue();

    expect(events).toContainEqual({
      type: "notice",
      eventID: 7,
      fromUserID: 1,
      message: "Your choice for Priya couldn't be saved: feedback opens when the event starts",
    });
    expect(await queued()).toEqual([]);
    expect(await choice(2)).toBeUndefined();
    expect(server.requests).toHaveLength(1);
  });

  it("drops taps that arrive after ratings closed, and counts them for the page instead of a notice", async () => {
    const server = fakeServer();
    await (await offlineDb()).put("partners", {
      key: ticketKey(me.eventID, me.fromUserID),
      partners: [{ id: 2, username: "Priya", image_name: "p-thumb.jpg" }],
      savedAt: Date.now(),
    });
    const events: QueueEvent[] = [];
    subscribe((e) => events.push(e));
    server.mode = { status: 409, error: "the results are out, so ratings are closed", code: "ratings_closed" };

    await tap(2, "like");
    await tap(3, "dislike");
    await flushQueue();

    expect(await queued()).toEqual([]);
    expect(await lateCount(me.eventID, me.fromUserID)).toBe(2);
    expect(events.filter((e) => e.type === "notice")).toEqual([]);
    expect(await choice(2)).toBeUndefined();
    // Counted beside the page's partners, which stay as they were for offline use.
    expect((await (await offlineDb()).get("partners", ticketKey(me.eventID, me.fromUserID)))?.partners).toHaveLength(1);
  });

  it("retries a server error (5xx) with backoff until it goes through", async () => {
    const server = fakeServer();
    server.mode = { status: 503, error: "busy" };
    const before = Date.now();
    await tap(2, "like");
    await whenIdle();

    const [waiting] = await queued();
    expect(waiting?.attempts).toBe(1);
    expect(waiting?.nextAttemptAt).toBeGreaterThanOrEqual(before + 900);
    expect(waiting?.nextAttemptAt).toBeLessThanOrEqual(Date.now() + 1100);

    server.mode = "ok";
    // Nothing else happens: the backoff timer alone brings it through.
    await vi.waitFor(async () => expect(await queued()).toEqual([]), { timeout: 3000, interval: 50 });
    expect(server.requests).toHaveLength(2);
    expect(server.stored.get(2)?.feedback).toBe("like");
  });

  it("doubles the wait after each failure, up to a minute", () => {
    expect(backoffDelay(1)).toBeLessThanOrEqual(1100);
    expect(backoffDelay(3)).toBeGreaterThanOrEqual(3600);
    expect(backoffDelay(3)).toBeLessThanOrEqual(4400);
    expect(backoffDelay(30)).toBeLessThanOrEqual(MAX_DELAY_MS * 1.1);
    expect(backoffDelay(30)).toBeGreaterThanOrEqual(MAX_DELAY_MS * 0.9);
  });

  it("never sends the same tap twice, however many flushes are asked for at once", async () => {
    const server = fakeServer();
    const stop = startTapSync();
    await tap(2, "like");
    window.dispatchEvent(new Event("online"));
    await Promise.all([flushQueue(), flushQueue(), flushQueue({ dueOnly: true })]);
    await flushQueue();
    expect(server.requests).toHaveLength(1);
    stop();
  });
});
