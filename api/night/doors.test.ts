import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { activityLog, hostLinks, hostSessions } from "../../db/access-schema.ts";
import { bookings, events } from "../../db/schema.ts";
import { type BrowserClient, browserClient, suiteTestServer, withTestServer } from "../../test/api-harness.ts";
import { insertEvent, insertPaidBookings } from "../../test/fixtures.ts";
import { HOUR, hostAccessHelpers, json, MINUTE, PASSWORD } from "../../test/suites/host-access.ts";
import { applyRetention } from "../ops/retention.ts";

// Doors that open without starting the night (docs/decisions/008-door.md), and host links that open
// the door from then (docs/decisions/022-host-access.md): every way of checking in waits for the
// event's doors-open time; **Open doors now** moves it to now without texting anyone or closing sales.

const DAY = 24 * HOUR;
const server = suiteTestServer();
let admin: BrowserClient;

beforeAll(async () => {
  admin = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
});

const now = () => server.deps.now();
const iso = (ms: number) => new Date(ms).toISOString();
const { newLink } = hostAccessHelpers(server, () => admin);

/** An upcoming night `startsIn` from now with `count` paid attendees (paid a day ago). */
async function upcoming(startsIn: number, count = 2) {
  const { db, env } = server.deps;
  const event = await insertEvent(db, env.UPLOADS_DIR, {
    name: "Doors Night",
    // On a whole minute, as the Edit form's date and time fields keep it.
    startsAt: Math.floor((now() + startsIn) / MINUTE) * MINUTE,
    timeZone: "Australia/Sydney",
  });
  return { event, attendees: insertPaidBookings(db, event.id, count, { paidAt: now() - DAY }) };
}

const checkIn = (client: BrowserClient, eventID: number, userID: number, clientTs = now()) =>
  client.postJson("/api/check-in", { eventID, userID, clientTs });
const adminEvent = async (id: number) => json<{ doorsOpenAt: string }>(await admin.get(`/api/admin-event/${id}`));
const activity = (eventId: number) =>
  server.deps.db.select().from(activityLog).where(eq(activityLog.eventId, eventId)).all();
const outboxSize = async () => (await json<unknown[]>(await fetch(`${server.url}/api/dev/outbox`))).length;
const hostToken = (url: string) => new URL(url).searchParams.get("t");

describe("the doors-open time", () => {
  it("defaults to 3 hours before the start, in the organiser's and the door's answers", async () => {
    const { event } = await upcoming(2 * DAY);
    const expected = iso(event.startsAt - 3 * HOUR);
    expect((await adminEvent(event.id)).doorsOpenAt).toBe(expected);
    const roster = await json<{ event: { doorsOpenAt: string } }>(
      await admin.get(`/api/admin-event/${event.id}/roster`),
    );
    expect(roster.event.doorsOpenAt).toBe(expected);
  });

  it("refuses a check-in before the doors open with a sentence and a code, never a field name", async () => {
    const { event, attendees } = await upcoming(2 * DAY);
    const refused = await checkIn(admin, event.id, attendees[0]!.userId);
    expect(refused.status).toBe(400);
    const body = await json<{ code: string; error: string; doorsOpenAt: string; timeZone: string }>(refused);
    expect(body).toMatchObject({ code: "doors_not_open", doorsOpenAt: iso(event.startsAt - 3 * HOUR) });
    expect(body.error).toMatch(/^Doors open at \d{1,2}:\d{2} [AP]M AE[DS]T (tomorrow|on \w{3} [\d-]+)\.$/);
    expect(body.error).not.toMatch(/clientTs/);
  });

  it("is set and reset on the Edit form's call, and refused after the start", async () => {
    const { event } = await upcoming(2 * DAY);
    const date = iso(event.startsAt).slice(0, 10);
    const edit = (fields: Record<string, unknown>) =>
      admin.postJson("/api/update-event", {
        eventid: event.id,
        eventName: "Doors Night",
        eventDate: date,
        totalSeats: 10,
        ...fields,
      });
    const earlier = iso(event.startsAt - 5 * HOUR);
    expect((await edit({ doorsOpenAt: earlier })).status).toBe(200);
    expect((await adminEvent(event.id)).doorsOpenAt).toBe(earlier);

    const late = await edit({ doorsOpenAt: iso(event.startsAt + 3 * HOUR) });
    expect(late.status).toBe(400);
    const body = await json<{ code: string; error: string }>(late);
    expect(body.code).toBe("doors_after_start");
    expect(body.error).toBe("The doors must open no later than the event's start.");

    expect((await edit({ doorsOpenAt: null })).status).toBe(200);
    expect((await adminEvent(event.id)).doorsOpenAt).toBe(iso(event.startsAt - 3 * HOUR));
  });
});

describe("Open doors now", () => {
  it("opens check-in at once, texts nobody, keeps sales open, is logged once and may be pressed again", async () => {
    const { event, attendees } = await upcoming(42 * HOUR);
    expect((await checkIn(admin, event.id, attendees[0]!.userId)).status).toBe(400);
    const texts = await outboxSize();

    const pressed = now();
    const opened = await admin.postJson("/api/open-doors", { eventId: event.id });
    expect(opened.status).toBe(200);
    const { doorsOpenAt } = await json<{ doorsOpenAt: string }>(opened);
    expect(Date.parse(doorsOpenAt)).toBeGreaterThanOrEqual(pressed);
    expect(Date.parse(doorsOpenAt)).toBeLessThanOrEqual(now());
    expect((await adminEvent(event.id)).doorsOpenAt).toBe(doorsOpenAt);

    const tapped = Date.parse(doorsOpenAt) + 1;
    server.advance(MINUTE);
    expect((await checkIn(admin, event.id, attendees[0]!.userId, tapped)).status).toBe(200);
    // Not a start: nobody was texted, and the event still takes bookings.
    expect(await outboxSize()).toBe(texts);
    const row = server.deps.db.select().from(events).where(eq(events.id, event.id)).get()!;
    expect(row).toMatchObject({ status: "upcoming", startedAt: null });

    // Pressed again (a retry, another phone): the same time, and no second log entry.
    const again = await admin.postJson("/api/open-doors", { eventId: event.id });
    expect(await json(again)).toMatchObject({ doorsOpenAt });
    expect(activity(event.id).filter((a) => a.action === "doors opened")).toHaveLength(1);
  });

  it("can't be undone once someone is checked in: moving the doors later is refused, earlier is fine", async () => {
    const { event, attendees } = await upcoming(2 * DAY);
    expect((await admin.postJson("/api/open-doors", { eventId: event.id })).status).toBe(200);
    expect((await checkIn(admin, event.id, attendees[0]!.userId)).status).toBe(200);
    const edit = (doorsOpenAt: number | null) =>
      admin.postJson("/api/update-event", {
        eventid: event.id,
        eventName: "Doors Night",
        eventDate: iso(event.startsAt).slice(0, 10),
        totalSeats: 10,
        doorsOpenAt: doorsOpenAt === null ? null : iso(doorsOpenAt),
      });
    const later = await edit(null);
    expect(later.status).toBe(409);
    expect(await json(later)).toMatchObject({
      code: "doors_in_use",
      error: "The doors can't open later: someone is already checked in, and that can't be undone.",
    });
    expect((await edit(now() - HOUR)).status).toBe(200);
  });

  it("answers 409 for an ended night and 404 for no such event", async () => {
    const { event } = await upcoming(-HOUR);
    server.deps.db.update(events).set({ status: "ended", endedAt: now() }).where(eq(events.id, event.id)).run();
    const ended = await admin.postJson("/api/open-doors", { eventId: event.id });
    expect(ended.status).toBe(409);
    expect((await json(ended)).code).toBe("wrong_state");
    expect((await admin.postJson("/api/open-doors", { eventId: 999_999 })).status).toBe(404);
  });
});

describe("a host link opens the door from the doors-open time", () => {
  it("refuses host-login before the doors open, saying when, and signs in once they are open", async () => {
    const { event, attendees } = await upcoming(6 * DAY);
    const link = await newLink(event.id, "Early door");
    const phone = browserClient(server.url);
    const early = await phone.postJson("/api/host-login", { token: hostToken(link.url) });
    expect(early.status).toBe(403);
    expect(await json(early)).toMatchObject({
      code: "host_link_not_open",
      doorsOpenAt: iso(event.startsAt - 3 * HOUR),
      timeZone: "Australia/Sydney",
    });
    expect(server.deps.db.select().from(hostSessions).where(eq(hostSessions.linkId, link.id)).all()).toHaveLength(0);

    // The organiser opens the doors early: the link works from then, and the host can check people in.
    expect((await admin.postJson("/api/open-doors", { eventId: event.id })).status).toBe(200);
    expect((await phone.postJson("/api/host-login", { token: hostToken(link.url) })).status).toBe(200);
    expect((await checkIn(phone, event.id, attendees[0]!.userId)).status).toBe(200);
  });

  it("refuses a host's calls when the doors were moved back later, before anyone came", async () => {
    const { event } = await upcoming(6 * DAY);
    expect((await admin.postJson("/api/open-doors", { eventId: event.id })).status).toBe(200);
    const link = await newLink(event.id, "Door 2");
    const phone = browserClient(server.url);
    expect((await phone.postJson("/api/host-login", { token: hostToken(link.url) })).status).toBe(200);
    expect((await phone.get(`/api/admin-event/${event.id}/roster`)).status).toBe(200);
    server.deps.db.update(events).set({ doorsOpenAt: null }).where(eq(events.id, event.id)).run();
    for (const response of [
      await phone.get(`/api/admin-event/${event.id}/roster`),
      await phone.get(`/api/admin-event/${event.id}/rounds`),
      await phone.get(`/api/admin-event/${event.id}/ratings`),
      await phone.get(`/api/admin-event/${event.id}/message-guests`),
      await phone.get("/api/host-session"),
    ]) {
      expect(response.status).toBe(403);
      expect((await json(response)).code).toBe("host_link_not_open");
    }
  });

  it("refuses a host's confirm-booking arrival before the doors open", async () => {
    const { event, attendees } = await upcoming(6 * DAY);
    const [a] = attendees;
    server.deps.db.update(bookings).set({ uniqueCode: "HOSTEARLY2" }).where(eq(bookings.id, a!.bookingId)).run();
    const reply = await admin.postJson("/api/confirm-booking", {
      eventID: event.id,
      userID: a!.userId,
      uniqueCode: "hostearly2",
    });
    expect(await json(reply)).toMatchObject({ confirmed: true, checkedIn: false });
    expect(server.deps.db.select().from(bookings).where(eq(bookings.id, a!.bookingId)).get()?.checkedInAt).toBeNull();
  });
});

describe("host sessions do not grow without bound", () => {
  it("limits host-login per link (30 an hour) and per address (60 an hour) with 429 rate_limited", async () => {
    await withTestServer(async (own) => {
      const organiser = browserClient(own.url);
      expect((await organiser.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
      const { db, env } = own.deps;
      const event = await insertEvent(db, env.UPLOADS_DIR, { status: "started", startsAt: own.deps.now() - HOUR });
      const make = async () =>
        hostToken(
          (
            await json<{ url: string }>(
              await organiser.postJson("/api/host-links", { eventID: event.id, label: "Door" }),
            )
          ).url,
        );
      const login = (token: unknown) => browserClient(own.url).postJson("/api/host-login", { token });

      const first = await make();
      for (let i = 0; i < 30; i++) expect((await login(first)).status).toBe(200);
      const perLink = await login(first);
      expect(perLink.status).toBe(429);
      expect((await json(perLink)).code).toBe("rate_limited");
      expect(db.select().from(hostSessions).all()).toHaveLength(30);

      // Another link still signs in, until the address has made 60 tries of any kind.
      const second = await make();
      expect((await login(second)).status).toBe(200);
      for (let i = 0; i < 28; i++) expect((await login(`${i + 1}.forged`)).status).toBe(403);
      const perAddress = await login(second);
      expect(perAddress.status).toBe(429);
      expect((await json(perAddress)).code).toBe("rate_limited");

      // An hour later the counts are spent.
      own.advance(HOUR + MINUTE);
      expect((await login(second)).status).toBe(200);
    });
  });

  it("the retention job deletes the sessions of expired and revoked links, and keeps live ones", async () => {
    const { db, env } = server.deps;
    const live = await insertEvent(db, env.UPLOADS_DIR, { status: "started", startsAt: now() - HOUR });
    const links = await Promise.all(["Live", "Revoked", "Expired"].map((label) => newLink(live.id, label)));
    const sessionOf = async (token: string | null) =>
      expect((await browserClient(server.url).postJson("/api/host-login", { token })).status).toBe(200);
    for (const link of links) await sessionOf(hostToken(link.url));
    // Revoking deletes at once; a session row left from before (a crash, an older build) is swept too.
    db.update(hostLinks).set({ revokedAt: now() }).where(eq(hostLinks.id, links[1]!.id)).run();
    db.update(hostLinks)
      .set({ expiresAt: now() - MINUTE })
      .where(eq(hostLinks.id, links[2]!.id))
      .run();
    const count = (linkId: number) =>
      db.select().from(hostSessions).where(eq(hostSessions.linkId, linkId)).all().length;
    expect([count(links[0]!.id), count(links[1]!.id), count(links[2]!.id)]).toEqual([1, 1, 1]);

    await applyRetention({ db, uploadsDir: env.UPLOADS_DIR, retentionDays: env.RETENTION_DAYS }, now());
    expect([count(links[0]!.id), count(links[1]!.id), count(links[2]!.id)]).toEqual([1, 0, 0]);
  });
});
