import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { bookings, users } from "../../db/schema.ts";
import { type BrowserClient, browserClient, suiteTestServer } from "../../test/api-harness.ts";
import { insertEvent, insertPaidBookings, makeImage } from "../../test/fixtures.ts";
import { HOUR, hostAccessHelpers, json, MINUTE, PASSWORD } from "../../test/suites/host-access.ts";
import { applyRetention, ERASED } from "../ops/retention.ts";
import { recordActivity } from "./activity.ts";
import type { ActivityRow } from "./admin-schemas.ts";

// The activity log (docs/decisions/022-host-access.md): every change lands in it under `organiser` or
// the host link's label, with the event and the person concerned; erasure leaves only the id.

const server = suiteTestServer();
let admin: BrowserClient;

beforeAll(async () => {
  admin = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
});

const { night, newLink, hostPhone } = hostAccessHelpers(server, () => admin);

describe("the activity log", () => {
  const activity = async (eventID: number) => {
    const response = await admin.get(`/api/admin-event/${eventID}/activity`);
    expect(response.status).toBe(200);
    return json<ActivityRow[]>(response);
  };
  const entry = (rows: ActivityRow[], action: string) => rows.find((r) => r.action === action);

  it("records every change with its actor, the event and the person, newest first", async () => {
    const { db } = server.deps;
    // Created, edited, started and ended by the organiser through the panel's calls.
    const form = new FormData();
    const fields = {
      eventName: "Logged Night",
      eventDate: new Date(server.deps.now() + 10 * 24 * HOUR).toISOString().slice(0, 10),
      eventTime: "19:30",
      eventAddress: "1 Macquarie St, Sydney NSW 2000",
      totalSeats: "24",
      bookingAmount: "49.95",
      eventduration: "2",
      fromage: "25",
      toage: "35",
    };
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    form.append("eventImage", new Blob([new Uint8Array(await makeImage("png"))], { type: "image/png" }), "p.png");
    const saved = await admin.postForm("/api/save-event", form);
    expect(saved.status, await saved.clone().text()).toBe(200);
    const eventID = (await json<{ id: number }>(saved)).id;
    expect(
      (
        await admin.postJson("/api/update-event", {
          eventid: eventID,
          eventName: "Logged Night",
          eventDate: fields.eventDate,
          totalSeats: 30,
        })
      ).status,
    ).toBe(200);
    const [ana, ben, cat, dev] = insertPaidBookings(db, eventID, 4, { paidAt: server.deps.now() - HOUR });
    expect((await admin.postJson("/api/start-event", { eventId: eventID })).status).toBe(200);

    // The host checks people in, undoes one, plans and runs the rounds, marks someone left.
    const link = await newLink(eventID, "Door 1");
    const { phone } = await hostPhone(link);
    for (const person of [ana!, ben!, cat!, dev!]) {
      const response = await phone.postJson("/api/check-in", {
        eventID,
        userID: person.userId,
        clientTs: server.deps.now(),
      });
      expect(response.status).toBe(200);
    }
    expect((await phone.postJson("/api/undo-check-in", { eventID, userID: dev!.userId })).status).toBe(200);
    expect((await phone.postJson("/api/plan-rounds", { eventID })).status).toBe(200);
    expect((await phone.postJson("/api/run-rounds", { eventID, action: "start" })).status).toBe(200);
    expect((await phone.postJson("/api/mark-left", { eventID, userID: cat!.userId, left: true })).status).toBe(200);
    // The host types in a paper card: the first guest with someone they met, for that partner.
    const ratings = await json<{ people: { id: number; partners: { id: number }[] }[] }>(
      await phone.get(`/api/admin-event/${eventID}/ratings`),
    );
    const card = ratings.people.find((p) => p.partners.length > 0)!;
    const paper = { eventID, fromUserID: card.id, toUserID: card.partners[0]!.id, feedback: "like" };
    expect((await phone.postJson("/api/admin-save-feedback", paper)).status).toBe(200);

    // The organiser refunds one, revokes the link, ends the night.
    const pi = `pi_local_activity_${ben!.bookingId}`;
    db.update(bookings).set({ paymentIntentId: pi }).where(eq(bookings.id, ben!.bookingId)).run();
    expect((await admin.postJson("/api/refund", { paymentIntentId: pi })).status).toBe(200);
    expect((await admin.postJson("/api/revoke-host-link", { id: link.id })).status).toBe(200);
    expect((await admin.postJson("/api/end-event", { eventId: eventID })).status).toBe(200);
    expect((await admin.postJson("/api/release-results", { eventId: eventID })).status).toBe(200);
    // A second tap releases nothing new, and logs nothing.
    expect((await admin.postJson("/api/release-results", { eventId: eventID })).status).toBe(200);

    const rows = await activity(eventID);
    const mine = rows.filter((r) => r.eventID === eventID);
    const name = (id: number) => db.select().from(users).where(eq(users.id, id)).get()!.name;
    expect(entry(mine, "event created")).toMatchObject({ actor: "organiser" });
    expect(entry(mine, "event edited")).toMatchObject({ actor: "organiser", actorKind: "organiser", detail: "seats" });
    expect(entry(mine, "event started")).toMatchObject({ actor: "organiser" });
    expect(entry(mine, "event ended")).toMatchObject({ actor: "organiser" });
    expect(entry(mine, "host link created")).toMatchObject({ actor: "organiser", detail: "Door 1" });
    expect(entry(mine, "host link revoked")).toMatchObject({ actor: "organiser", detail: "Door 1" });
    expect(entry(mine, "refund")).toMatchObject({
      actor: "organiser",
      person: { userID: ben!.userId, name: name(ben!.userId) },
    });
    expect(mine.filter((r) => r.action === "check-in")).toHaveLength(4);
    expect(mine.filter((r) => r.action === "check-in").every((r) => r.actor === "Door 1")).toBe(true);
    expect(entry(mine, "check-in undone")).toMatchObject({
      actor: "Door 1",
      person: { userID: dev!.userId, name: name(dev!.userId) },
    });
    expect(entry(mine, "rounds planned")).toMatchObject({ actor: "Door 1" });
    expect(entry(mine, "rounds controlled")).toMatchObject({ actor: "Door 1", detail: "start" });
    expect(entry(mine, "marked left")).toMatchObject({
      actor: "Door 1",
      detail: "left",
      person: { userID: cat!.userId, name: name(cat!.userId) },
    });
    // Both people of a paper card, named at read time; the note holds no id and no name.
    expect(entry(mine, "paper card entered")).toMatchObject({
      actor: "Door 1",
      actorKind: "host",
      detail: "like",
      person: { userID: card.id, name: name(card.id) },
      otherPerson: { userID: paper.toUserID, name: name(paper.toUserID) },
    });
    expect(mine.filter((r) => r.action === "results released")).toEqual([
      expect.objectContaining({ actor: "organiser" }),
    ]);
    // Newest first.
    expect(mine[0]!.action).toBe("results released");
    expect(mine.at(-1)!.action).toBe("event created");
    const times = rows.map((r) => Date.parse(r.at));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it("records a promo code made and disabled by the organiser, once", async () => {
    const { event } = await night(0, "Promo Night");
    const made = await admin.postJson("/api/promo-codes", { eventID: event.id, code: "FRIENDS", percentOff: 10 });
    expect(made.status).toBe(200);
    const { promoCode } = await json<{ promoCode: { id: number } }>(made);
    for (let i = 0; i < 2; i++) {
      expect((await admin.postJson("/api/disable-promo-code", { id: promoCode.id })).status).toBe(200);
    }
    const rows = (await activity(event.id)).filter((r) => r.eventID === event.id);
    expect(rows.map((r) => [r.action, r.actor, r.detail])).toEqual([
      ["promo code disabled", "organiser", "FRIENDS"],
      ["promo code created", "organiser", "FRIENDS"],
    ]);
  });

  it("records a cancelled night, and nothing on a night nobody touched", async () => {
    const { db, env } = server.deps;
    const upcoming = await insertEvent(db, env.UPLOADS_DIR, { name: "To Cancel" });
    const untouched = await insertEvent(db, env.UPLOADS_DIR, { name: "Untouched" });
    expect((await admin.postJson("/api/cancel-event", { eventId: upcoming.id })).status).toBe(200);
    expect(entry(await activity(upcoming.id), "event cancelled")).toMatchObject({
      actor: "organiser",
      eventID: upcoming.id,
    });
    expect((await activity(untouched.id)).filter((r) => r.eventID === untouched.id)).toEqual([]);
  });

  it("counts failed admin logins per 15 minutes, one entry each", async () => {
    const { event } = await night(0);
    // Past the quarter hour, so the three wrong passwords share a window.
    const now = server.deps.now();
    server.advance(15 * MINUTE - (now % (15 * MINUTE)) + 1000);
    const guesser = browserClient(server.url);
    for (let i = 0; i < 3; i++) {
      expect((await guesser.postJson("/api/admin-login", { password: `wrong ${i}` })).status).toBe(401);
    }
    const failed = (await activity(event.id)).filter((r) => r.action === "failed admin logins");
    expect(failed[0]).toMatchObject({ count: 3, eventID: null, person: null });
  });

  it("keeps only the id of a person whose data was erased", async () => {
    const { event, attendees } = await night(1);
    const { phone } = await hostPhone(await newLink(event.id));
    const [ana] = attendees;
    await phone.postJson("/api/check-in", { eventID: event.id, userID: ana!.userId, clientTs: server.deps.now() });
    server.deps.db.update(users).set({ name: ERASED.name }).where(eq(users.id, ana!.userId)).run();
    expect(entry(await activity(event.id), "check-in")?.person).toEqual({ userID: ana!.userId, name: null });
  });

  it("deletes entries older than RETENTION_DAYS with the hourly retention job", async () => {
    const { db, env } = server.deps;
    const { event } = await night(0);
    const now = server.deps.now();
    const DAY = 24 * HOUR;
    recordActivity(db, { actor: "organiser", action: "event edited", eventId: event.id }, now - 91 * DAY);
    recordActivity(db, { actor: "organiser", action: "event started", eventId: event.id }, now - 89 * DAY);
    await applyRetention({ db, uploadsDir: env.UPLOADS_DIR, retentionDays: 90 }, now);
    const left = (await activity(event.id)).filter((r) => r.eventID === event.id).map((r) => r.action);
    expect(left).toEqual(["event started"]);
  });

  it("records a host's check-in by the ticket's code once, and nothing for a code checked again", async () => {
    const { event, attendees } = await night(1);
    const [ana] = attendees;
    server.deps.db.update(bookings).set({ uniqueCode: "ABCD1234" }).where(eq(bookings.id, ana!.bookingId)).run();
    const { phone } = await hostPhone(await newLink(event.id, "Door 2"));
    for (let i = 0; i < 2; i++) {
      const reply = await phone.postJson("/api/confirm-booking", {
        eventID: event.id,
        userID: ana!.userId,
        uniqueCode: "abcd1234",
      });
      expect(reply.status).toBe(200);
    }
    const checkIns = (await activity(event.id)).filter((r) => r.action === "check-in");
    expect(checkIns).toEqual([
      expect.objectContaining({
        actor: "Door 2",
        detail: "ticket code",
        person: expect.objectContaining({ userID: ana!.userId }),
      }),
    ]);
  });
});

describe("the activity log records changes only, counts repeats and pages", () => {
  const page = async (eventID: number, query = "") => {
    const response = await admin.get(`/api/admin-event/${eventID}/activity${query}`);
    expect(response.status).toBe(200);
    return json<ActivityRow[]>(response);
  };
  const ofEvent = (rows: ActivityRow[], eventID: number) => rows.filter((r) => r.eventID === eventID);

  it("logs nothing for 520 repeat check-ins, so a host's earlier marked left stays in view", async () => {
    const { event, attendees } = await night(2);
    const [ana, ben] = attendees;
    const { phone } = await hostPhone(await newLink(event.id, "Door 3"));
    const tap = server.deps.now() - MINUTE;
    const checkIn = (userID: number) => phone.postJson("/api/check-in", { eventID: event.id, userID, clientTs: tap });
    expect((await checkIn(ana!.userId)).status).toBe(200);
    expect((await checkIn(ben!.userId)).status).toBe(200);
    const left = { eventID: event.id, userID: ben!.userId, left: true };
    expect((await phone.postJson("/api/mark-left", left)).status).toBe(200);
    for (let i = 0; i < 520; i += 20) {
      const replies = await Promise.all(Array.from({ length: 20 }, () => checkIn(ana!.userId)));
      expect(replies.every((r) => r.status === 200)).toBe(true);
    }
    // Marking her left again, and undoing a check-in twice, change nothing the second time either.
    expect((await phone.postJson("/api/mark-left", left)).status).toBe(200);
    const rows = ofEvent(await page(event.id), event.id);
    expect(rows.filter((r) => r.action === "check-in")).toHaveLength(2);
    expect(rows.filter((r) => r.action === "marked left")).toEqual([
      expect.objectContaining({ actor: "Door 3", actorKind: "host", count: 1 }),
    ]);
  });

  it("logs one row for 20 parallel refunds of one booking", async () => {
    const { db } = server.deps;
    const event = await insertEvent(db, server.deps.env.UPLOADS_DIR, { name: "Refund Night" });
    const [ana] = insertPaidBookings(db, event.id, 1, { paidAt: server.deps.now() - HOUR });
    const pi = `pi_local_parallel_${ana!.bookingId}`;
    db.update(bookings).set({ paymentIntentId: pi }).where(eq(bookings.id, ana!.bookingId)).run();
    const replies = await Promise.all(
      Array.from({ length: 20 }, () => admin.postJson("/api/refund", { paymentIntentId: pi })),
    );
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    // And one more, after: the refund is recorded already.
    expect((await admin.postJson("/api/refund", { paymentIntentId: pi })).status).toBe(200);
    const refunds = ofEvent(await page(event.id), event.id).filter((r) => r.action === "refund");
    expect(refunds).toEqual([
      expect.objectContaining({ count: 1, person: expect.objectContaining({ userID: ana!.userId }) }),
    ]);
  });

  it("counts a change repeated by the same actor within 15 minutes in one entry", async () => {
    const { event, attendees } = await night(1);
    const [ana] = attendees;
    const { phone } = await hostPhone(await newLink(event.id, "Door 4"));
    const body = { eventID: event.id, userID: ana!.userId, clientTs: server.deps.now() - MINUTE };
    // Tapped, undone, tapped, undone, tapped: each a change, the same two changes over and over.
    for (let i = 0; i < 3; i++) {
      expect((await phone.postJson("/api/check-in", body)).status).toBe(200);
      if (i < 2) expect((await phone.postJson("/api/undo-check-in", body)).status).toBe(200);
    }
    const rows = ofEvent(await page(event.id), event.id);
    expect(rows.filter((r) => r.action === "check-in")).toEqual([expect.objectContaining({ count: 3 })]);
    expect(rows.filter((r) => r.action === "check-in undone")).toEqual([expect.objectContaining({ count: 2 })]);
    // Past the window, the same change is an entry of its own.
    server.advance(16 * MINUTE);
    expect((await phone.postJson("/api/undo-check-in", body)).status).toBe(200);
    const later = ofEvent(await page(event.id), event.id).filter((r) => r.action === "check-in undone");
    expect(later.map((r) => r.count)).toEqual([1, 2]);
  });

  it("reads older entries page by page with `before`, newest first, none twice", async () => {
    const { db } = server.deps;
    const { event } = await night(0, "Long Night");
    const start = server.deps.now() - 10 * HOUR;
    for (let i = 0; i < 23; i++) {
      recordActivity(
        db,
        { actor: "organiser", action: "rounds controlled", eventId: event.id, detail: `step ${i}` },
        start + i * MINUTE,
      );
    }
    const seen: ActivityRow[] = [];
    let before: number | undefined;
    for (;;) {
      const rows = await page(event.id, `?limit=10${before === undefined ? "" : `&before=${before}`}`);
      seen.push(...ofEvent(rows, event.id));
      if (rows.length < 10) break;
      before = rows.at(-1)!.id;
    }
    expect(seen.map((r) => r.detail)).toEqual(Array.from({ length: 23 }, (_, i) => `step ${22 - i}`));
    for (const query of ["?before=0", "?before=x", "?limit=0", "?limit=501"]) {
      const refused = await admin.get(`/api/admin-event/${event.id}/activity${query}`);
      expect(refused.status, query).toBe(400);
    }
  });

  it("says which fields an edit changed, and logs nothing for an edit that changed nothing", async () => {
    const { db, env } = server.deps;
    // On the minute, as the edit form keeps it.
    const startsAt = Math.floor((server.deps.now() + 7 * 24 * HOUR) / MINUTE) * MINUTE;
    const event = await insertEvent(db, env.UPLOADS_DIR, { name: "Edited Night", totalSeats: 20, startsAt });
    const date = new Date(event.startsAt).toISOString().slice(0, 10);
    const base = { eventid: event.id, eventName: "Edited Night", eventDate: date, totalSeats: 20 };
    expect((await admin.postJson("/api/update-event", base)).status).toBe(200);
    expect((await admin.postJson("/api/update-event", { ...base, totalSeats: 24, bookingAmount: 50 })).status).toBe(
      200,
    );
    const edits = ofEvent(await page(event.id), event.id).filter((r) => r.action === "event edited");
    expect(edits.map((r) => r.detail)).toEqual(["price, seats"]);
  });

  it("stores the actor's kind: the organiser, a host, the server", async () => {
    const { event } = await night(0);
    expect((await admin.postJson("/api/host-links", { eventID: event.id, label: "Bar" })).status).toBe(200);
    const rows = await page(event.id);
    expect(ofEvent(rows, event.id)[0]).toMatchObject({ actor: "organiser", actorKind: "organiser" });
    for (const failed of rows.filter((r) => r.action === "failed admin logins")) {
      expect(failed.actorKind).toBe("system");
    }
  });
});

describe("host link labels", () => {
  it("keeps `organiser` for the organiser and refuses control characters, in words", async () => {
    const { event } = await night(0);
    for (const label of ["organiser", "Organiser", " ORGANISER "]) {
      const refused = await admin.postJson("/api/host-links", { eventID: event.id, label });
      expect(refused.status).toBe(400);
      expect((await json<{ error: string; code: string }>(refused)).error).toBe(
        "“organiser” is kept for the organiser; choose another label.",
      );
    }
    for (const label of ["Door\n1", "Door\u00001", "Door\u001b[31m", "Bar\u007f"]) {
      const refused = await admin.postJson("/api/host-links", { eventID: event.id, label });
      expect(refused.status).toBe(400);
      expect((await json<{ error: string }>(refused)).error).toBe(
        "A label can't contain control characters such as line breaks.",
      );
    }
    expect((await admin.postJson("/api/host-links", { eventID: event.id, label: "Organisers' helper" })).status).toBe(
      200,
    );
  });
});
