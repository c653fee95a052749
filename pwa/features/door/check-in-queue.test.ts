// @vitest-environment happy-dom
import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type KeptRoster, offlineDb, resetOfflineDbForTests } from "../../lib/offline-db.ts";
import {
  type CheckInEvent,
  flushCheckIns,
  pendingCheckIns,
  recordCheckIn,
  resetCheckInQueueForTests,
  startCheckInSync,
  subscribeCheckIns,
  whenCheckInsIdle,
} from "./check-in-queue.ts";

type Sent = { url: string; body: { eventID: number; userID: number; clientTs?: number } };

/**
 * The API at the network edge, keeping what the real one keeps (the earliest check-in per booking,
 * cleared by undo), recording every request; it can go offline or answer with an error.
 */
function fakeServer() {
  const checkedIn = new Map<number, number>();
  const requests: Sent[] = [];
  let mode: "ok" | "offline" | { status: number; error: string } = "ok";
  const fetch = vi.fn(async (url: string, init: RequestInit) => {
    if (mode === "offline") throw new TypeError("Failed to fetch");
    const body = JSON.parse(String(init.body)) as Sent["body"];
    requests.push({ url, body });
    if (typeof mode === "object") {
      return new Response(JSON.stringify({ success: false, error: mode.error }), { status: mode.status });
    }
    if (url === "/api/undo-check-in") {
      checkedIn.delete(body.userID);
      return Response.json({ success: true, checkedInAt: null });
    }
    const kept = checkedIn.get(body.userID);
    if (kept === undefined || body.clientTs! < kept) checkedIn.set(body.userID, body.clientTs!);
    return Response.json({ success: true, checkedInAt: new Date(checkedIn.get(body.userID)!).toISOString() });
  });
  vi.stubGlobal("fetch", fetch);
  return {
    checkedIn,
    requests,
    set mode(m: typeof mode) {
      mode = m;
    },
  };
}

const EVENT = 5;
const roster: KeptRoster = {
  eventID: EVENT,
  savedAt: 1,
  event: {
    id: EVENT,
    event_name: "Door Night",
    EventDateTime: "2026-11-29T08:00:00.000Z",
    event_status: "started",
    time_zone: "Australia/Sydney",
  },
  attendees: [
    { userID: 1, name: "Asha", gender: "female", thumbName: "a.jpg", phoneLast4: "1111", checkedInAt: null, age: 29 },
    { userID: 2, name: "Dev", gender: "male", thumbName: "d.jpg", phoneLast4: "2222", checkedInAt: null, age: 31 },
  ],
  refunded: [],
};
const kept = async () => (await offlineDb()).get("doorRosters", EVENT);

beforeEach(async () => {
  globalThis.indexedDB = new IDBFactory();
  resetOfflineDbForTests();
  resetCheckInQueueForTests();
  await (await offlineDb()).put("doorRosters", roster);
});
afterEach(async () => {
  await flushCheckIns().catch(() => undefined);
  resetCheckInQueueForTests();
  vi.unstubAllGlobals();
});

describe("the door's check-in queue", () => {
  it("keeps check-ins made offline on the phone and sends them with the tap's time when back online", async () => {
    const server = fakeServer();
    server.mode = "offline";
    const stop = startCheckInSync();
    const asha = await recordCheckIn(EVENT, 1, "check-in");
    const dev = await recordCheckIn(EVENT, 2, "check-in");
    await flushCheckIns();
    expect((await pendingCheckIns(EVENT)).map((e) => [e.userID, e.action])).toEqual([
      [1, "check-in"],
      [2, "check-in"],
    ]);
    expect(server.checkedIn.size).toBe(0);

    server.mode = "ok";
    window.dispatchEvent(new Event("online"));
    await vi.waitFor(async () => expect(await pendingCheckIns(EVENT)).toEqual([]));
    expect(server.checkedIn.get(1)).toBe(asha.clientTs);
    expect(server.checkedIn.get(2)).toBe(dev.clientTs);
    // The kept roster now says what the server has, so a reload offline shows it.
    expect((await kept())?.attendees.map((a) => a.checkedInAt)).toEqual([
      new Date(asha.clientTs).toISOString(),
      new Date(dev.clientTs).toISOString(),
    ]);
    stop();
  });

  it("sends only the last action per attendee: an undo replaces a check-in still waiting", async () => {
    const server = fakeServer();
    server.mode = "offline";
    await recordCheckIn(EVENT, 1, "check-in");
    const undo = await recordCheckIn(EVENT, 1, "undo");
    await flushCheckIns();
    const waiting = await pendingCheckIns(EVENT);
    expect(waiting).toHaveLength(1);
    expect(waiting[0]).toMatchObject({ action: "undo", clientTs: undo.clientTs });

    server.mode = "ok";
    await flushCheckIns();
    expect(server.requests.map((r) => r.url)).toEqual(["/api/undo-check-in"]);
    expect(await pendingCheckIns(EVENT)).toEqual([]);
  });

  it("keeps everything through a lapsed session (401) and says so, then sends after the next login", async () => {
    const server = fakeServer();
    const events: CheckInEvent[] = [];
    subscribeCheckIns((e) => events.push(e));
    server.mode = { status: 401, error: "admin session required" };
    await recordCheckIn(EVENT, 1, "check-in");
    await recordCheckIn(EVENT, 2, "check-in");
    await flushCheckIns();
    expect(events).toContainEqual({ type: "session-lapsed" });
    expect(await pendingCheckIns(EVENT)).toHaveLength(2);
    // One refused request is enough to know: the second was not hammered at the server.
    expect(server.requests.length).toBeLessThan(4);

    server.mode = "ok";
    await flushCheckIns();
    expect(await pendingCheckIns(EVENT)).toEqual([]);
    expect([...server.checkedIn.keys()].sort()).toEqual([1, 2]);
  });

  it("drops a check-in the server refuses (a refunded booking) and names the attendee", async () => {
    const server = fakeServer();
    const events: CheckInEvent[] = [];
    subscribeCheckIns((e) => events.push(e));
    server.mode = { status: 409, error: "this booking was refunded" };
    await recordCheckIn(EVENT, 2, "check-in");
    await flushCheckIns();
    expect(events).toContainEqual({
      type: "notice",
      eventID: EVENT,
      message: "Couldn't check in Dev: this booking was refunded",
    });
    expect(await pendingCheckIns(EVENT)).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it("retries a server error (5xx) rather than dropping the check-in", async () => {
    const server = fakeServer();
    server.mode = { status: 503, error: "busy" };
    await recordCheckIn(EVENT, 1, "check-in");
    await whenCheckInsIdle();
    const [waiting] = await pendingCheckIns(EVENT);
    expect(waiting?.attempts).toBe(1);
    expect(waiting!.nextAttemptAt).toBeGreaterThan(Date.now());
    server.mode = "ok";
    await flushCheckIns();
    expect(await pendingCheckIns(EVENT)).toEqual([]);
    expect(server.checkedIn.has(1)).toBe(true);
  });
});
