import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { hostLinks } from "../../db/access-schema.ts";
import { bookings, users } from "../../db/schema.ts";
import { type BrowserClient, browserClient, suiteTestServer } from "../../test/api-harness.ts";
import { insertPaidBookings } from "../../test/fixtures.ts";
import {
  appRoutes,
  callRoute,
  HOUR,
  hostAccessHelpers,
  json,
  type LinkReply,
  MINUTE,
  PASSWORD,
} from "../../test/suites/host-access.ts";

// Host links (docs/decisions/022-host-access.md): a host session opens the door and the rounds of
// one event and nothing else; revoking the link or its expiry ends it at once; every change lands in
// the activity log under the organiser's name or the link's label.

/**
 * The calls a host session may make (for its own event). Every other call that needs the organiser's
 * session must answer a host 403: the walk below finds those calls in the app itself, so a call
 * added later is covered without touching this test. A new call for hosts goes in this list.
 */
const HOST_ALLOWED = new Set([
  "GET /api/admin-event/:id/roster",
  "POST /api/check-in",
  "POST /api/undo-check-in",
  "POST /api/open-doors",
  "GET /api/admin-event/:id/rounds",
  "POST /api/plan-rounds",
  "POST /api/run-rounds",
  "POST /api/mark-left",
  // Announce: the host runs the room (issue 37).
  "POST /api/room-announcement",
  // The room's stream, for the Full screen the host puts on the wall.
  "GET /api/round-events",
  "GET /api/admin-event/:id/ratings",
  "POST /api/admin-save-feedback",
  "GET /api/admin-event/:id/message-guests",
  "POST /api/message-guests",
]);

const server = suiteTestServer();
let admin: BrowserClient;

beforeAll(async () => {
  admin = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
});

const { night, newLink, hostPhone } = hostAccessHelpers(server, () => admin);

const call = callRoute;

describe("what a host session opens", () => {
  it("answers 403 to a host on every call that needs the organiser's session, except the door and the rounds", async () => {
    const { event } = await night();
    const { phone } = await hostPhone(await newLink(event.id));
    const anon = browserClient(server.url);

    const organiserOnly: string[] = [];
    const hostCalls: string[] = [];
    for (const route of appRoutes(server.deps)) {
      // A call that needs the organiser's session tells a caller without one so, before anything else.
      const refused = await call(anon, route, event.id);
      const code = refused.status === 401 ? (await json(refused)).code : null;
      if (code !== "admin_session_required") continue;
      (HOST_ALLOWED.has(route) ? hostCalls : organiserOnly).push(route);
    }
    // The walk found the organiser's calls (the list is long; these stand for it).
    expect(organiserOnly).toEqual(
      expect.arrayContaining([
        "GET /api/admin-events",
        "POST /api/refund",
        "POST /api/cancel-event",
        "POST /api/start-event",
        "POST /api/end-event",
        "GET /api/admin-event/:id/participants.csv",
        "GET /api/get-event-user/:id",
        "GET /api/admin-event-summary/:id",
        "POST /api/save-event",
        "POST /api/update-event",
        "POST /api/host-links",
        "POST /api/revoke-host-link",
        "GET /api/admin-event/:id/activity",
        "POST /api/release-results",
      ]),
    );
    expect(hostCalls.length).toBeGreaterThanOrEqual(7);

    const answers: Record<string, number> = {};
    for (const route of organiserOnly) answers[route] = (await call(phone, route, event.id)).status;
    expect(answers).toEqual(Object.fromEntries(organiserOnly.map((route) => [route, 403])));

    // The door and the rounds of its own event open (a 400 is the walk's made-up body, past the guard).
    for (const route of hostCalls) {
      const response = await call(phone, route, event.id);
      // The room's stream never ends by itself: let it go, as a phone closing the page would.
      await response.body?.cancel();
      expect([401, 403], route).not.toContain(response.status);
    }
  });

  it("refuses a host the roster, the rounds and the check-ins of another event", async () => {
    const { event } = await night();
    const other = await night(2, "Another Night");
    const { phone } = await hostPhone(await newLink(event.id));

    expect((await phone.get(`/api/admin-event/${event.id}/roster`)).status).toBe(200);
    for (const response of [
      await phone.get(`/api/admin-event/${other.event.id}/roster`),
      await phone.get(`/api/admin-event/${other.event.id}/rounds`),
      await phone.postJson("/api/check-in", {
        eventID: other.event.id,
        userID: other.attendees[0]!.userId,
        clientTs: server.deps.now(),
      }),
      await phone.postJson("/api/plan-rounds", { eventID: other.event.id }),
      await phone.get(`/api/admin-event/${other.event.id}/ratings`),
      await phone.postJson("/api/admin-save-feedback", {
        eventID: other.event.id,
        fromUserID: other.attendees[0]!.userId,
        toUserID: other.attendees[1]!.userId,
        feedback: "like",
      }),
    ]) {
      expect(response.status).toBe(403);
      expect((await json(response)).code).toBe("forbidden");
    }
    expect(server.deps.db.select().from(bookings).where(eq(bookings.eventId, other.event.id)).all()).toEqual(
      expect.arrayContaining([expect.objectContaining({ checkedInAt: null })]),
    );
  });

  it("shows a host no email and no more of a phone than its last four digits", async () => {
    const { event } = await night(0);
    // Named, so no name carries digits of a phone.
    const attendees = insertPaidBookings(server.deps.db, event.id, 2, { name: "Guest", paidAt: event.startsAt - HOUR });
    const { phone } = await hostPhone(await newLink(event.id));
    const roster = await (await phone.get(`/api/admin-event/${event.id}/roster`)).text();
    const rounds = await (await phone.get(`/api/admin-event/${event.id}/rounds`)).text();
    for (const { userId, phone: number } of attendees) {
      const user = server.deps.db.select().from(users).where(eq(users.id, userId)).get()!;
      for (const text of [roster, rounds]) {
        expect(text).not.toContain(user.email);
        expect(text).not.toContain(number.slice(-6));
      }
      expect(roster).toContain(number.slice(-4));
    }
  });
});

describe("host links and sessions", () => {
  it("makes a link that lives until 6 hours after the planned end and signs a phone in", async () => {
    const { event } = await night();
    const link = await newLink(event.id, "Priya (host)");
    expect(link).toMatchObject({ label: "Priya (host)", eventID: event.id });
    expect(Date.parse(link.expiresAt)).toBe(event.startsAt + event.durationHours * HOUR + 6 * HOUR);
    expect(link.url).toMatch(new RegExp(`^${server.url}/host\\?t=${link.id}\\.[\\w-]+$`));

    const { phone, response } = await hostPhone(link);
    const cookie = response.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/^sdt_host=/);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Strict/i);
    expect(response.headers.get("cache-control")).toBe("no-store");

    const session = await phone.get("/api/host-session");
    expect(session.status).toBe(200);
    expect(await json(session)).toEqual({
      eventID: event.id,
      label: "Priya (host)",
      expiresAt: link.expiresAt,
      eventName: "Host Night",
      timeZone: "Australia/Sydney",
    });
    const list = await json<LinkReply[]>(await admin.get(`/api/admin-event/${event.id}/host-links`));
    expect(list.map((l) => l.id)).toContain(link.id);
  });

  it("refuses a token that is altered, cut off, another link's or not a token at all", async () => {
    const { event } = await night();
    const link = await newLink(event.id);
    const other = await newLink(event.id, "Door 2");
    const token = new URL(link.url).searchParams.get("t")!;
    const otherMac = new URL(other.url).searchParams.get("t")!.split(".")[1];
    // One character of the signature changed, mid-way: its last may carry only padding bits, and an
    // "A" swapped for an "A" would be no change at all.
    const at = token.indexOf(".") + 5;
    const altered = `${token.slice(0, at)}${token[at] === "A" ? "B" : "A"}${token.slice(at + 1)}`;
    const phone = browserClient(server.url);
    for (const bad of [altered, token.slice(0, 20), `${link.id}.${otherMac}`, "", 42, null]) {
      const response = await phone.postJson("/api/host-login", { token: bad });
      expect(response.status).toBe(403);
      expect((await json(response)).code).toBe("invalid_link");
    }
    expect((await phone.get("/api/host-session")).status).toBe(401);
  });

  it("ends every copy of the session at once on Revoke, and the link no longer signs in", async () => {
    const { event } = await night();
    const link = await newLink(event.id);
    const { phone } = await hostPhone(link);
    const copy = browserClient(server.url);
    for (const [name, value] of phone.jar) copy.jar.set(name, value);
    expect((await copy.get(`/api/admin-event/${event.id}/roster`)).status).toBe(200);

    expect((await admin.postJson("/api/revoke-host-link", { id: link.id })).status).toBe(200);
    for (const client of [phone, copy]) {
      const roster = await client.get(`/api/admin-event/${event.id}/roster`);
      expect(roster.status).toBe(401);
      expect((await json(roster)).code).toBe("host_access_ended");
      expect((await client.get("/api/host-session")).status).toBe(401);
    }
    const again = await browserClient(server.url).postJson("/api/host-login", {
      token: new URL(link.url).searchParams.get("t"),
    });
    expect(again.status).toBe(401);
    expect((await json(again)).code).toBe("host_access_ended");
    // Revoking twice changes nothing; an unknown link is a 404.
    expect((await admin.postJson("/api/revoke-host-link", { id: link.id })).status).toBe(200);
    expect((await admin.postJson("/api/revoke-host-link", { id: 987_654 })).status).toBe(404);
  });

  it("ends the session when the link expires (the clock moved, not slept)", async () => {
    const { event } = await night();
    const link = await newLink(event.id);
    const { phone } = await hostPhone(link);
    server.advance(Date.parse(link.expiresAt) - server.deps.now() - MINUTE);
    expect((await phone.get(`/api/admin-event/${event.id}/roster`)).status).toBe(200);
    server.advance(2 * MINUTE);
    const roster = await phone.get(`/api/admin-event/${event.id}/roster`);
    expect(roster.status).toBe(401);
    expect((await json(roster)).code).toBe("host_access_ended");
    expect((await phone.get("/api/host-session")).status).toBe(401);
    const login = await browserClient(server.url).postJson("/api/host-login", {
      token: new URL(link.url).searchParams.get("t"),
    });
    expect(login.status).toBe(401);
    // A link for a night over by more than 6 hours is not made at all.
    const late = await admin.postJson("/api/host-links", { eventID: event.id, label: "Late" });
    expect(late.status).toBe(409);
    expect((await json(late)).code).toBe("wrong_state");
  });

  it("validates the label and the event", async () => {
    const { event } = await night();
    expect((await admin.postJson("/api/host-links", { eventID: event.id, label: "  " })).status).toBe(400);
    expect((await admin.postJson("/api/host-links", { eventID: event.id, label: "x".repeat(61) })).status).toBe(400);
    expect((await admin.postJson("/api/host-links", { eventID: 987_654, label: "Door" })).status).toBe(404);
    expect((await admin.get("/api/admin-event/987654/host-links")).status).toBe(404);
    expect((await admin.get("/api/admin-event/987654/activity")).status).toBe(404);
    expect(server.deps.db.select().from(hostLinks).where(eq(hostLinks.label, "  ")).all()).toEqual([]);
  });
});
