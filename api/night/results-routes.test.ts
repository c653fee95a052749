import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { defaultResultsAt } from "../../common/results-time.ts";
import { events } from "../../db/schema.ts";
import { type BrowserClient, browserClient, suiteTestServer } from "../../test/api-harness.ts";
import { yearLike } from "../../test/clock.ts";
import { insertEvent, insertPaidBookings, makeImage } from "../../test/fixtures.ts";
import { feedbackToken } from "../lib/capability.ts";

// Dates in a year laid out like 2031, always ahead of the clock (test/clock.ts).
const Y = yearLike(2031);

// The results calls (docs/api.md, Results; docs/decisions/021-results.md) over real HTTP: the release,
// paper scorecards, the ratings view, and the results time on the event. The scheduler's side (the
// automatic end, the reminder, the release at `resultsAt`) is in api/night/results.test.ts.

const server = suiteTestServer();
const HOUR = 3_600_000;

let admin: BrowserClient;
let anon: BrowserClient;
beforeAll(async () => {
  admin = browserClient(server.url);
  anon = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: "correct horse battery staple" })).status).toBe(200);
});

type Person = { userId: number; phone: string };
/** The fixture's rows, as many as were asked for. */
const pair = (rows: Person[]) => rows as [Person, Person];
const reply = async (response: Response) => ({
  status: response.status,
  body: (await response.json()) as Record<string, unknown>,
});

async function night(status: "upcoming" | "started" | "ended" = "started") {
  const { db, env } = server.deps;
  const event = await insertEvent(db, env.UPLOADS_DIR, { status, startsAt: Date.now() - 4 * HOUR });
  const [m1, m2] = pair(insertPaidBookings(db, event.id, 2, { gender: "male" }));
  const [f1] = pair(insertPaidBookings(db, event.id, 1, { gender: "female" }));
  return { id: event.id, m1, m2, f1 };
}

const setStatus = (eventId: number, status: "started" | "ended") =>
  server.deps.db.update(events).set({ status }).where(eq(events.id, eventId)).run();
const release = async (eventId: number) => reply(await admin.postJson("/api/release-results", { eventId }));
const tap = async (eventId: number, from: Person, to: Person, feedback: "like" | "dislike", clientTs?: number) =>
  reply(
    await anon.postJson("/api/save-feedback", {
      eventID: eventId,
      fromUserID: from.userId,
      toUserID: to.userId,
      feedback,
      token: feedbackToken(server.deps.env, "start", from.userId, eventId),
      ...(clientTs === undefined ? {} : { clientTs }),
    }),
  );
const paper = async (client: BrowserClient, eventId: number, from: number, to: number, feedback = "like") =>
  reply(
    await client.postJson("/api/admin-save-feedback", { eventID: eventId, fromUserID: from, toUserID: to, feedback }),
  );
const report = async (eventId: number, p: Person) =>
  reply(
    await anon.postJson("/api/get-feedback", {
      eventID: eventId,
      userID: p.userId,
      token: feedbackToken(server.deps.env, "report", p.userId, eventId),
    }),
  );

describe("POST /api/release-results", () => {
  it("answers 401 without the organiser, 404 for no event, 409 before the end, and once ended releases once", async () => {
    const e = await night("started");
    expect((await anon.postJson("/api/release-results", { eventId: e.id })).status).toBe(401);
    expect((await release(987_654)).status).toBe(404);
    expect(await release(e.id)).toMatchObject({ status: 409, body: { code: "wrong_state" } });

    setStatus(e.id, "ended");
    const first = await release(e.id);
    expect(first).toMatchObject({ status: 200, body: { success: true, sent: 3, failed: 0 } });
    const again = await release(e.id);
    expect(again).toEqual({ status: 200, body: { ...first.body, sent: 0 } });
  });
});

describe("ratings and the report around the release", () => {
  it("takes a tap before the release and refuses one after it with ratings_closed", async () => {
    const e = await night("ended");
    expect(await tap(e.id, e.m1, e.f1, "like")).toMatchObject({ status: 200, body: { feedback: "like" } });
    expect((await release(e.id)).status).toBe(200);
    expect(await tap(e.id, e.m1, e.f1, "dislike")).toEqual({
      status: 409,
      body: { success: false, error: "the results are out, so ratings are closed", code: "ratings_closed" },
    });
  });

  it("says when the results come until the release, then shows the report", async () => {
    const e = await night("ended");
    await tap(e.id, e.m1, e.f1, "like");
    await tap(e.id, e.f1, e.m1, "like");
    const event = server.deps.db.select().from(events).where(eq(events.id, e.id)).get()!;
    expect(await report(e.id, e.f1)).toMatchObject({
      status: 409,
      body: {
        code: "results_not_yet",
        resultsAt: new Date(defaultResultsAt(event)).toISOString(),
        timeZone: "Australia/Sydney",
      },
    });
    await release(e.id);
    expect(await report(e.id, e.f1)).toMatchObject({ status: 200, body: { mutual: [{ id: e.m1.userId }] } });
  });
});

describe("POST /api/admin-save-feedback", () => {
  it("answers 401 without the organiser's session", async () => {
    const e = await night();
    expect(await paper(anon, e.id, e.m1.userId, e.f1.userId)).toMatchObject({
      status: 401,
      body: { code: "admin_session_required" },
    });
  });

  it("answers 404 for an unknown event, a person without a seat, and someone they did not meet", async () => {
    const e = await night();
    const other = await night();
    expect((await paper(admin, 987_654, e.m1.userId, e.f1.userId)).status).toBe(404);
    expect(await paper(admin, e.id, other.m1.userId, e.f1.userId)).toMatchObject({
      status: 404,
      body: { code: "not_found", error: "no such participant at this event" },
    });
    // Two men never meet at a mixer: not a partner.
    expect(await paper(admin, e.id, e.m1.userId, e.m2.userId)).toMatchObject({
      status: 404,
      body: { error: "no such partner at this event" },
    });
  });

  it("answers 409 before the start and after the release", async () => {
    const upcoming = await night("upcoming");
    expect(await paper(admin, upcoming.id, upcoming.m1.userId, upcoming.f1.userId)).toMatchObject({
      status: 409,
      body: { code: "feedback_not_open" },
    });
    const e = await night("ended");
    await release(e.id);
    expect(await paper(admin, e.id, e.m1.userId, e.f1.userId)).toMatchObject({
      status: 409,
      body: { code: "ratings_closed" },
    });
  });

  it("stores a paper card with the server's time, and the guest's own tap replaces it whatever its time", async () => {
    const e = await night();
    const card = await paper(admin, e.id, e.m1.userId, e.f1.userId, "like");
    expect(card).toMatchObject({ status: 200, body: { success: true, feedback: "like" } });
    const stamped = card.body.clientTs as number;
    expect(Math.abs(stamped - server.deps.now())).toBeLessThan(5_000);
    // A tap made on the phone before the card was typed in (queued offline) is still the guest's own: it wins…
    expect((await tap(e.id, e.m1, e.f1, "dislike", stamped - 60_000)).body).toMatchObject({ feedback: "dislike" });
    // …and from then on a card cannot change it.
    expect(await paper(admin, e.id, e.m1.userId, e.f1.userId, "like")).toMatchObject({
      status: 409,
      body: { code: "rated_by_guest" },
    });
  });
});

describe("GET /api/admin-event/{id}/ratings", () => {
  it("lists each participant with the people they met, their choices, and who has finished", async () => {
    const e = await night();
    await paper(admin, e.id, e.f1.userId, e.m1.userId, "like");
    await paper(admin, e.id, e.f1.userId, e.m2.userId, "dislike");
    await paper(admin, e.id, e.m1.userId, e.f1.userId, "like");
    const ratings = await reply(await admin.get(`/api/admin-event/${e.id}/ratings`));
    expect(ratings.status).toBe(200);
    expect(ratings.body).toMatchObject({ released: false, ratings: { done: 2, total: 3 } });
    const people = ratings.body.people as { id: number; done: boolean; partners: { id: number; feedback: string }[] }[];
    expect(people.find((p) => p.id === e.f1.userId)).toMatchObject({
      done: true,
      partners: expect.arrayContaining([
        expect.objectContaining({ id: e.m1.userId, feedback: "like" }),
        expect.objectContaining({ id: e.m2.userId, feedback: "dislike" }),
      ]),
    });
    expect(people.find((p) => p.id === e.m2.userId)).toMatchObject({
      done: false,
      partners: [{ id: e.f1.userId, feedback: null }],
    });
    expect((await anon.get(`/api/admin-event/${e.id}/ratings`)).status).toBe(401);
    expect((await admin.get("/api/admin-event/987654/ratings")).status).toBe(404);
  });
});

describe("the results time on the event", () => {
  const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const update = (body: Record<string, unknown>) => admin.postJson("/api/update-event", body);
  const resultsAtOf = async (id: number) =>
    ((await (await fetch(`${server.url}/api/get-event/${id}`)).json()) as { resultsAt: string }).resultsAt;

  it("defaults to noon the day after, can be moved and reset, and never before the end", async () => {
    const { db, env } = server.deps;
    const startsAt = Date.UTC(Y, 10, 29, 8, 0); // 7 pm AEDT, Saturday
    const event = await insertEvent(db, env.UPLOADS_DIR, { startsAt, durationHours: 3 });
    const base = { eventid: event.id, eventName: event.name, eventDate: isoDate(startsAt), totalSeats: 10 };
    expect(await resultsAtOf(event.id)).toBe(`${Y}-11-30T01:00:00.000Z`);

    // 9 am AEDT on Sunday instead, sent as the form sends it (an instant with its offset).
    expect((await update({ ...base, resultsAt: `${Y}-11-30T09:00:00+11:00` })).status).toBe(200);
    expect(await resultsAtOf(event.id)).toBe(`${Y}-11-29T22:00:00.000Z`);

    // Before the end (10 pm AEDT) is refused; so is a moved start that would leave it before the end.
    const early = await update({ ...base, resultsAt: `${Y}-11-29T21:30:00+11:00` });
    expect(await reply(early)).toMatchObject({ status: 400, body: { code: "invalid_request" } });
    expect((await update({ ...base, eventTime: "20:0" })).status).toBe(400);
    expect((await update({ ...base, resultsAt: "tomorrow" })).status).toBe(400);

    expect((await update({ ...base, resultsAt: null })).status).toBe(200);
    expect(await resultsAtOf(event.id)).toBe(`${Y}-11-30T01:00:00.000Z`);
  });

  it("takes a results time on save-event too, empty for the default", async () => {
    const form = async (resultsAt: string) => {
      const f = new FormData();
      const fields: Record<string, string> = {
        eventName: "Results Form Night",
        eventDate: isoDate(Date.now() + 10 * 24 * HOUR),
        eventTime: "8:0",
        eventAddress: "1 Macquarie St, Sydney NSW 2000",
        totalSeats: "20",
        bookingAmount: "45",
        eventduration: "3",
        fromage: "25",
        toage: "35",
        timeZone: "Australia/Sydney",
        resultsAt,
      };
      for (const [k, v] of Object.entries(fields)) f.append(k, v);
      f.append("eventImage", new Blob([new Uint8Array(await makeImage("png"))], { type: "image/png" }), "p.png");
      return f;
    };
    const day = isoDate(Date.now() + 10 * 24 * HOUR);
    const chosen = `${day}T23:00:00.000Z`;
    const made = await reply(await admin.postForm("/api/save-event", await form(chosen)));
    expect(made.status).toBe(200);
    expect(await resultsAtOf(made.body.id as number)).toBe(chosen);

    const plain = await reply(await admin.postForm("/api/save-event", await form("")));
    expect(plain.status).toBe(200);
    const event = server.deps.db
      .select()
      .from(events)
      .where(eq(events.id, plain.body.id as number))
      .get()!;
    expect(event.resultsAt).toBeNull();
    expect(await resultsAtOf(event.id)).toBe(new Date(defaultResultsAt(event)).toISOString());

    // Before the end (8:00 UTC + 3 hours) is refused.
    const early = await reply(await admin.postForm("/api/save-event", await form(`${day}T10:00:00Z`)));
    expect(early).toMatchObject({ status: 400, body: { code: "invalid_request" } });
  });
});
