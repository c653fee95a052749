import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it, vi } from "vitest";
import type { RoomEvent } from "../../common/room-events.ts";
import { bookings } from "../../db/schema.ts";
import { type BrowserClient, browserClient, suiteTestServer } from "../../test/api-harness.ts";
import { insertEvent, insertPaidBookings } from "../../test/fixtures.ts";
import { signedInOnMe } from "../../test/suites/booking-flow.ts";
import { feedbackToken } from "../lib/capability.ts";
import { closeRoomStreams, roomSubscribers } from "./room-events.ts";

// The room's stream over real HTTP (docs/decisions/038-room-stream.md): each client reads the body
// of GET /api/round-events as a browser's EventSource would, and waits for the event it expects.

const PASSWORD = "correct horse battery staple";
const MINUTE = 60_000;
const server = suiteTestServer();
let admin: BrowserClient;
let anon: BrowserClient;

beforeAll(async () => {
  admin = browserClient(server.url);
  anon = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
});

/** A started event with two women and two men checked in, its rounds planned. */
async function night() {
  const { db, env, now } = server.deps;
  const event = await insertEvent(db, env.UPLOADS_DIR, {
    status: "started",
    startsAt: now() - 10 * MINUTE,
    startedAt: now() - 5 * MINUTE,
  });
  const people = [
    ...insertPaidBookings(db, event.id, 2, { gender: "female" }),
    ...insertPaidBookings(db, event.id, 2, { gender: "male" }),
  ].map((p) => p.userId);
  for (const id of people) db.update(bookings).set({ checkedInAt: now() }).where(eq(bookings.userId, id)).run();
  expect((await admin.postJson("/api/plan-rounds", { eventID: event.id })).status).toBe(200);
  return { eventId: event.id, people };
}

const guestPath = (eventId: number, userId: number, token = feedbackToken(server.deps.env, "start", userId, eventId)) =>
  `/api/round-events?eventID=${eventId}&userID=${userId}&t=${encodeURIComponent(token)}`;

type Stream = {
  events: RoomEvent[];
  /** Resolves with the first event (seen so far or to come) that matches. */
  waitFor(match: (e: RoomEvent) => boolean): Promise<RoomEvent>;
  close(): void;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
};

/** Opens the stream and reads it in the background, as EventSource does. */
async function open(client: BrowserClient, path: string): Promise<Stream> {
  const controller = new AbortController();
  const response = await client.request(path, { signal: controller.signal, headers: { accept: "text/event-stream" } });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  expect(response.headers.get("cache-control")).toBe("no-store");
  const events: RoomEvent[] = [];
  const waiting = new Set<() => void>();
  const ended = (async () => {
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        buffer += value;
        let end = buffer.indexOf("\n\n");
        while (end >= 0) {
          const data = buffer
            .slice(0, end)
            .split("\n")
            .find((line) => line.startsWith("data: "));
          buffer = buffer.slice(end + 2);
          if (data) events.push(JSON.parse(data.slice("data: ".length)) as RoomEvent);
          for (const wake of waiting) wake();
          end = buffer.indexOf("\n\n");
        }
      }
    } catch {
      // Aborted by close().
    }
  })();
  return {
    events,
    waitFor: (match) =>
      new Promise((resolve) => {
        const check = () => {
          const found = events.find(match);
          if (!found) return;
          waiting.delete(check);
          resolve(found);
        };
        waiting.add(check);
        check();
      }),
    close: () => controller.abort(),
    ended,
  };
}

const run = (eventId: number, action: string) => admin.postJson("/api/run-rounds", { eventID: eventId, action });

describe("the room's stream", () => {
  it("tells two guests and the room's screen of Start, Next, Pause, +1 min and Announce, and forgets them when they go", async () => {
    const n = await night();
    const other = await night();
    const [w1, , m1] = n.people as [number, number, number, number];
    const outsider = other.people[0]!;
    const clients = [
      await open(anon, guestPath(n.eventId, w1)),
      await open(anon, guestPath(n.eventId, m1)),
      await open(admin, `/api/round-events?eventID=${n.eventId}`),
    ];
    const elsewhere = await open(anon, guestPath(other.eventId, outsider));
    expect(roomSubscribers(server.deps.db, n.eventId)).toBe(3);

    // Each connection starts with the room as it is now.
    for (const c of clients) expect((await c.waitFor((e) => e.change === "open")).status).toBe("planned");

    const steps: [string, (e: RoomEvent) => boolean][] = [
      ["start", (e) => e.change === "start" && e.status === "running" && e.current === 1],
      // A changeover follows round 1 (the default break), so Next starts it.
      ["next", (e) => e.change === "next" && e.current === 1 && e.phase === "break"],
      ["pause", (e) => e.change === "pause" && e.status === "paused"],
      ["extend", (e) => e.change === "extend" && e.status === "paused"],
    ];
    for (const [action, expected] of steps) {
      expect((await run(n.eventId, action)).status).toBe(200);
      await Promise.all(clients.map((c) => c.waitFor(expected)));
    }
    const announced = await admin.postJson("/api/room-announcement", { eventID: n.eventId, text: "Drinks at the bar" });
    expect(announced.status).toBe(200);
    await Promise.all(
      clients.map((c) => c.waitFor((e) => e.change === "announcement" && e.announcement === "Drinks at the bar")),
    );

    // A guest of another event hears only their own room: its first change arrives after all of the above.
    expect((await run(other.eventId, "start")).status).toBe(200);
    await elsewhere.waitFor((e) => e.change === "start");
    expect(elsewhere.events.map((e) => e.change)).toEqual(["open", "start"]);

    // Left is the staff's business: the screen hears it, the guests do not.
    expect(
      (await admin.postJson("/api/mark-left", { eventID: n.eventId, userID: n.people[3], left: true })).status,
    ).toBe(200);
    await clients[2]!.waitFor((e) => e.change === "people");
    expect((await run(n.eventId, "resume")).status).toBe(200);
    await Promise.all(clients.map((c) => c.waitFor((e) => e.change === "resume")));
    for (const guest of clients.slice(0, 2)) expect(guest.events.some((e) => e.change === "people")).toBe(false);

    for (const c of [...clients, elsewhere]) c.close();
    await vi.waitFor(() => expect(roomSubscribers(server.deps.db)).toBe(0), { timeout: 10_000 });
  });

  it("refuses a caller without a session or a valid link, and a guest's link for another event", async () => {
    const n = await night();
    const other = await night();
    const guest = n.people[0]!;
    const refused = async (client: BrowserClient, path: string) => {
      const response = await client.get(path);
      return { status: response.status, code: ((await response.json()) as { code: string }).code };
    };
    expect(await refused(anon, `/api/round-events?eventID=${n.eventId}`)).toEqual({
      status: 401,
      code: "admin_session_required",
    });
    expect(await refused(anon, guestPath(n.eventId, guest, "not-a-token"))).toEqual({
      status: 403,
      code: "invalid_link",
    });
    expect(await refused(anon, `/api/round-events?eventID=${n.eventId}&userID=${guest}`)).toEqual({
      status: 403,
      code: "invalid_link",
    });
    // Their own link, pointed at another event's room.
    const theirs = feedbackToken(server.deps.env, "start", guest, n.eventId);
    expect(await refused(anon, guestPath(other.eventId, guest, theirs))).toEqual({ status: 403, code: "invalid_link" });
    // A valid link for the other event, held by someone with no seat there.
    expect(await refused(anon, guestPath(other.eventId, guest))).toEqual({ status: 403, code: "not_a_participant" });
    expect(await refused(admin, "/api/round-events?eventID=999999")).toEqual({ status: 404, code: "not_found" });
    expect(roomSubscribers(server.deps.db)).toBe(0);
  });

  it("ends every stream when the server shuts down, and lets go of them", async () => {
    const n = await night();
    const streams = [
      await open(anon, guestPath(n.eventId, n.people[0]!)),
      await open(admin, `/api/round-events?eventID=${n.eventId}`),
    ];
    await Promise.all(streams.map((s) => s.waitFor((e) => e.change === "open")));
    closeRoomStreams(server.deps.db);
    await Promise.all(streams.map((s) => s.ended));
    await vi.waitFor(() => expect(roomSubscribers(server.deps.db)).toBe(0), { timeout: 10_000 });
  });
});

// Issue 46, item 8: the Rounds tab's "Ratings: 2 of 7 done" follows the room. A saved rating tells the
// staff's streams (never the guests'), coalesced so a room rating at once costs a message or two.
describe("ratings on the room's stream", () => {
  it("tells the staff's screens when ratings arrive, coalesced, and never the guests", async () => {
    const n = await night();
    const [w1, w2, m1, m2] = n.people as [number, number, number, number];
    // Round 2 under way: each woman has met each man, so every rating below is allowed.
    for (const action of ["start", "next", "next"]) expect((await run(n.eventId, action)).status).toBe(200);
    const screen = await open(admin, `/api/round-events?eventID=${n.eventId}`);
    const guest = await open(anon, guestPath(n.eventId, w2));
    await Promise.all([screen, guest].map((s) => s.waitFor((e) => e.change === "open")));
    const rate = (from: number, to: number) =>
      anon.postJson("/api/save-feedback", {
        eventID: n.eventId,
        fromUserID: from,
        toUserID: to,
        feedback: "like",
        token: feedbackToken(server.deps.env, "start", from, n.eventId),
      });
    expect((await rate(w1, m1)).status).toBe(200);
    await screen.waitFor((e) => e.change === "ratings");
    // A burst: the screen hears of it once more at most, after the first.
    for (const [from, to] of [
      [w1, m2],
      [w2, m1],
      [w2, m2],
      [m1, w1],
      [m2, w2],
    ] as const) {
      expect((await rate(from, to)).status).toBe(200);
    }
    await vi.waitFor(() => expect(screen.events.filter((e) => e.change === "ratings")).toHaveLength(2), {
      timeout: 10_000,
    });
    // The paper card the staff type in counts too.
    expect(
      (
        await admin.postJson("/api/admin-save-feedback", {
          eventID: n.eventId,
          fromUserID: m1,
          toUserID: w2,
          feedback: "like",
        })
      ).status,
    ).toBe(200);
    await vi.waitFor(() => expect(screen.events.filter((e) => e.change === "ratings")).toHaveLength(3), {
      timeout: 10_000,
    });
    expect(guest.events.some((e) => e.change === "ratings")).toBe(false);
    screen.close();
    guest.close();
  });
});

// A right that ends ends the streams it opened (docs/decisions/040-sharing-defaults-and-stream-rights.md):
// each case opens the ender's stream and someone else's, ends the right, and sees the first stream's
// read finish while the other still hears the room.
describe("a stream lasts as long as the right that opened it", () => {
  /** The other stream still hears the room: the host's Start reaches it. */
  async function stillHears(eventId: number, stream: Stream) {
    expect((await run(eventId, "start")).status).toBe(200);
    await stream.waitFor((e) => e.change === "start");
  }

  async function hostPhone(eventId: number) {
    const link = await admin.postJson("/api/host-links", { eventID: eventId, label: "Door" });
    expect(link.status).toBe(200);
    const { id, url } = (await link.json()) as { id: number; url: string };
    const phone = browserClient(server.url);
    const login = await phone.postJson("/api/host-login", { token: new URL(url).searchParams.get("t") });
    expect(login.status).toBe(200);
    return { id, phone };
  }

  it("Revoke ends the host's open stream, and another host's stays open", async () => {
    const n = await night();
    const revoked = await hostPhone(n.eventId);
    const kept = await hostPhone(n.eventId);
    const theirs = await open(revoked.phone, `/api/round-events?eventID=${n.eventId}`);
    const other = await open(kept.phone, `/api/round-events?eventID=${n.eventId}`);
    await Promise.all([theirs, other].map((s) => s.waitFor((e) => e.change === "open")));
    expect((await admin.postJson("/api/revoke-host-link", { id: revoked.id })).status).toBe(200);
    // The client's read finishes: the server ended the stream (a test that waits here in vain times out).
    await theirs.ended;
    await stillHears(n.eventId, other);
    expect(roomSubscribers(server.deps.db, n.eventId)).toBe(1);
    other.close();
  });

  it("signing out ends that organiser session's open stream, and another session's stays open", async () => {
    const n = await night();
    const leaving = browserClient(server.url);
    expect((await leaving.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
    const theirs = await open(leaving, `/api/round-events?eventID=${n.eventId}`);
    const other = await open(admin, `/api/round-events?eventID=${n.eventId}`);
    await Promise.all([theirs, other].map((s) => s.waitFor((e) => e.change === "open")));
    expect((await leaving.postJson("/api/admin-logout", {})).status).toBe(200);
    // The client's read finishes: the server ended the stream (a test that waits here in vain times out).
    await theirs.ended;
    await stillHears(n.eventId, other);
    expect(roomSubscribers(server.deps.db, n.eventId)).toBe(1);
    other.close();
  });

  it("a refund ends the refunded guest's open stream, and another guest's stays open", async () => {
    const n = await night();
    const [refunded, kept] = n.people as [number, number];
    const paymentIntentId = `pi_local_stream_${refunded}`;
    server.deps.db.update(bookings).set({ paymentIntentId }).where(eq(bookings.userId, refunded)).run();
    const theirs = await open(anon, guestPath(n.eventId, refunded));
    const other = await open(anon, guestPath(n.eventId, kept));
    await Promise.all([theirs, other].map((s) => s.waitFor((e) => e.change === "open")));
    expect((await admin.postJson("/api/refund", { paymentIntentId })).status).toBe(200);
    // The client's read finishes: the server ended the stream (a test that waits here in vain times out).
    await theirs.ended;
    await stillHears(n.eventId, other);
    expect(roomSubscribers(server.deps.db, n.eventId)).toBe(1);
    other.close();
  });

  it("Delete my details ends the erased guest's open stream, and another guest's stays open", async () => {
    const n = await night();
    const [erased, kept] = n.people as [number, number];
    const phone = server.deps.db.select().from(bookings).where(eq(bookings.userId, erased)).get()!.phone;
    const theirs = await open(anon, guestPath(n.eventId, erased));
    const other = await open(anon, guestPath(n.eventId, kept));
    await Promise.all([theirs, other].map((s) => s.waitFor((e) => e.change === "open")));
    const me = await signedInOnMe(server.url, phone);
    expect((await me.postJson("/api/me-delete-details", {})).status).toBe(200);
    // The client's read finishes: the server ended the stream (a test that waits here in vain times out).
    await theirs.ended;
    await stillHears(n.eventId, other);
    expect(roomSubscribers(server.deps.db, n.eventId)).toBe(1);
    other.close();
  });
});
