import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { bookings, users } from "../../db/schema.ts";
import { type BrowserClient, browserClient, suiteTestServer } from "../../test/api-harness.ts";
import { insertEvent, insertPaidBookings } from "../../test/fixtures.ts";
import { feedbackToken } from "../lib/capability.ts";
import type { RoundsView } from "./rounds.ts";
import type { MyRoundsView } from "./rounds-guest.ts";

const PASSWORD = "correct horse battery staple";
const MINUTE = 60_000;

// The server's clock stands still unless a test moves it, so the time a phone counts down is exact.
let clockNow = Date.now();
const server = suiteTestServer({ deps: () => ({ now: () => clockNow }) });
const advance = (ms: number) => {
  clockNow += ms;
};
let admin: BrowserClient;
let anon: BrowserClient;

beforeAll(async () => {
  admin = browserClient(server.url);
  anon = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
});

const now = () => server.deps.now();
const reply = async <T = Record<string, unknown>>(response: Response) => ({
  status: response.status,
  body: (await response.json()) as T,
});

type Person = { userId: number; name: string; gender: "female" | "male" };
type Night = { eventId: number; people: Record<string, Person> };

/**
 * A night under way with paid attendees by name; those in `absent` never came (not checked in).
 * Names starting with a capital W are women, the rest men, to keep the tables readable.
 */
async function night(
  names: { women: string[]; men: string[]; absent?: string[] },
  status: "started" | "upcoming" | "ended" = "started",
): Promise<Night> {
  const { db, env } = server.deps;
  const event = await insertEvent(db, env.UPLOADS_DIR, {
    status,
    startsAt: now() - 10 * MINUTE,
    startedAt: status === "upcoming" ? null : now() - 5 * MINUTE,
  });
  const people: Record<string, Person> = {};
  const add = (name: string, gender: "female" | "male", i: number) => {
    const [p] = insertPaidBookings(db, event.id, 1, { name, gender, paidAt: now() - 86_400_000 });
    db.update(users)
      .set({ thumbName: `${name.toLowerCase().padEnd(32, "0").slice(0, 32)}-thumb.jpg` })
      .where(eq(users.id, p!.userId))
      .run();
    if (!names.absent?.includes(name)) checkIn(p!.userId, now() - 30 * MINUTE + i);
    people[name] = { userId: p!.userId, name, gender };
  };
  for (const [i, name] of names.women.entries()) add(name, "female", i);
  for (const [i, name] of names.men.entries()) add(name, "male", 100 + i);
  return { eventId: event.id, people };
}

function checkIn(userId: number, at = now()) {
  server.deps.db.update(bookings).set({ checkedInAt: at }).where(eq(bookings.userId, userId)).run();
}

const getRounds = async (n: Night) => reply<RoundsView>(await admin.get(`/api/admin-event/${n.eventId}/rounds`));
const plan = async (n: Night, settings: Record<string, unknown> = {}) =>
  reply<RoundsView>(await admin.postJson("/api/plan-rounds", { eventID: n.eventId, ...settings }));
const run = async (n: Night, action: string) =>
  reply<RoundsView>(await admin.postJson("/api/run-rounds", { eventID: n.eventId, action }));
const markLeft = async (n: Night, who: Person, left: boolean) =>
  reply<RoundsView>(await admin.postJson("/api/mark-left", { eventID: n.eventId, userID: who.userId, left }));
const startToken = (n: Night, who: Person) => feedbackToken(server.deps.env, "start", who.userId, n.eventId);
const myRounds = async (n: Night, who: Person, token: unknown = startToken(n, who)) =>
  reply<MyRoundsView>(await anon.postJson("/api/my-rounds", { eventID: n.eventId, userID: who.userId, token }));
const participants = async (n: Night, who: Person) =>
  reply<{ participants: { id: number; username: string }[] }>(
    await anon.postJson("/api/get-participants", { userID: who.userId, eventID: n.eventId, token: startToken(n, who) }),
  );
const like = async (n: Night, from: Person, to: Person) =>
  reply(
    await anon.postJson("/api/save-feedback", {
      fromUserID: from.userId,
      toUserID: to.userId,
      eventID: n.eventId,
      feedback: "like",
      token: startToken(n, from),
    }),
  );

/** Milliseconds from the reply's serverNow to its phaseEndsAt: what a phone counts down. */
const timeLeft = (view: { phaseEndsAt: string | null; serverNow: string }) =>
  view.phaseEndsAt === null ? null : Date.parse(view.phaseEndsAt) - Date.parse(view.serverNow);
/** Where the clock stands, as a phone would read it. */
const clock = (view: RoundsView | MyRoundsView) => [view.status, view.current, view.phase, timeLeft(view)];

/** Every pair of every round, as "female:male", so repeats show as duplicates. */
const pairsOf = (rounds: RoundsView["rounds"]) =>
  rounds.flatMap((r) => r.pairs.map((p) => `${p.femaleID}:${p.maleID}`));
const namesOf = (n: Night, ids: number[]) =>
  ids.map((id) => Object.values(n.people).find((p) => p.userId === id)?.name ?? `#${id}`);

describe("who may call", () => {
  it("answers 401 to every host call without the organiser's session, before reading the body", async () => {
    const n = await night({ women: ["Wendy"], men: ["Arjun"] });
    const calls = [
      anon.get(`/api/admin-event/${n.eventId}/rounds`),
      anon.postJson("/api/plan-rounds", { eventID: n.eventId }),
      anon.postJson("/api/run-rounds", { eventID: n.eventId, action: "start" }),
      anon.postJson("/api/mark-left", { eventID: n.eventId, userID: n.people.Arjun!.userId, left: true }),
      anon.postJson("/api/plan-rounds", { eventID: "not an id", roundMinutes: 99 }),
    ];
    for (const response of await Promise.all(calls)) {
      expect(await reply(response)).toEqual({
        status: 401,
        body: { success: false, error: "admin session required", code: "admin_session_required" },
      });
    }
    // Nothing was planned by the refused calls.
    expect((await getRounds(n)).body.status).toBe("none");
  });

  it("answers 403 to my-rounds without the start link's token of that guest, or for a guest without a seat", async () => {
    const n = await night({ women: ["Wendy", "Wanda"], men: ["Arjun"] });
    const { Wendy, Wanda, Arjun } = n.people as Record<string, Person>;
    const badLink = {
      status: 403,
      body: { success: false, error: "this feedback link is not valid", code: "invalid_link" },
    };
    const withoutToken = await anon.postJson("/api/my-rounds", { eventID: n.eventId, userID: Wendy!.userId });
    expect(await reply(withoutToken)).toEqual(badLink);
    for (const token of ["x".repeat(43), startToken(n, Wanda!), 42, null]) {
      expect(await myRounds(n, Wendy!, token)).toEqual(badLink);
    }
    // The end link's token opens the report only.
    const reportToken = feedbackToken(server.deps.env, "report", Arjun!.userId, n.eventId);
    expect(await myRounds(n, Arjun!, reportToken)).toEqual(badLink);

    server.deps.db.update(bookings).set({ status: "refunded" }).where(eq(bookings.userId, Wanda!.userId)).run();
    expect(await myRounds(n, Wanda!)).toEqual({
      status: 403,
      body: { success: false, error: "you are not a participant of this event", code: "not_a_participant" },
    });
  });

  it("answers 404 for an event that does not exist, and 400 for settings out of range", async () => {
    expect((await admin.get("/api/admin-event/987654321/rounds")).status).toBe(404);
    expect((await plan({ eventId: 987_654_321, people: {} })).status).toBe(404);
    const n = await night({ women: ["Wendy"], men: ["Arjun"] });
    for (const bad of [
      { roundMinutes: 0 },
      { roundMinutes: 31 },
      { roundMinutes: 2.5 },
      { breakMinutes: -1 },
      { breakMinutes: 11 },
      { maxRounds: 0 },
      { seated: "both" },
    ]) {
      const refused = await plan(n, bad);
      expect(refused.status, JSON.stringify(bad)).toBe(400);
      // Named in words, never by the field's code name.
      const words = {
        roundMinutes: "minutes per round",
        breakMinutes: "minutes between rounds",
        maxRounds: "most rounds",
        seated: "seated",
      };
      const error = (refused.body as unknown as { error: string }).error;
      expect(error).toContain(words[Object.keys(bad)[0] as keyof typeof words]);
      expect(error).not.toMatch(/^\w+:/);
    }
    expect((await run(n, "explode")).status).toBe(400);
    expect((await getRounds(n)).body.status).toBe("none");
  });
});

describe("caching", () => {
  it("marks every rounds answer no-store: they change by the second and are personal", async () => {
    const n = await night({ women: ["Wendy"], men: ["Arjun"] });
    const replies = [
      await admin.get(`/api/admin-event/${n.eventId}/rounds`),
      await admin.postJson("/api/plan-rounds", { eventID: n.eventId }),
      await admin.postJson("/api/run-rounds", { eventID: n.eventId, action: "start" }),
      await admin.postJson("/api/mark-left", { eventID: n.eventId, userID: n.people.Arjun!.userId, left: true }),
      await anon.postJson("/api/my-rounds", {
        eventID: n.eventId,
        userID: n.people.Wendy!.userId,
        token: startToken(n, n.people.Wendy!),
      }),
      await anon.postJson("/api/my-rounds", { eventID: n.eventId, userID: n.people.Wendy!.userId, token: "x" }),
    ];
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 403]);
    for (const response of replies) {
      await response.body?.cancel();
      expect(response.headers.get("cache-control")).toBe("no-store");
    }
  });
});

describe("planning from the people present", () => {
  it("shows who is present before planning, with names and no contact details", async () => {
    const n = await night({ women: ["Wendy", "Wanda"], men: ["Arjun", "Vikram", "Sam"], absent: ["Sam"] });
    const { status, body } = await getRounds(n);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: "none",
      settings: { roundMinutes: 5, breakMinutes: 1, maxRounds: null, seated: "female" },
      current: null,
      phase: null,
      phaseEndsAt: null,
      present: { female: 2, male: 2 },
      rounds: [],
      arrivals: [],
    });
    expect(Math.abs(Date.parse(body.serverNow) - now())).toBeLessThan(5_000);
    expect(body.people.map((p) => [p.username, p.gender, p.left])).toEqual([
      ["Arjun", "male", false],
      ["Vikram", "male", false],
      ["Wanda", "female", false],
      ["Wendy", "female", false],
    ]);
    expect(body.people[0]).toEqual({
      userID: n.people.Arjun!.userId,
      username: "Arjun",
      gender: "male",
      image_name: `arjun${"0".repeat(27)}-thumb.jpg`,
      left: false,
      arrivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      age: expect.any(Number),
    });
    expect(JSON.stringify(body)).not.toMatch(/@example\.com|\+614/);
  });

  it("plans only for the people present: everyone meets everyone once, no-shows nowhere", async () => {
    const n = await night({
      women: ["Wendy", "Wanda", "Willa"],
      men: ["Arjun", "Vikram", "Sam", "Noshow"],
      absent: ["Noshow"],
    });
    const { status, body } = await plan(n, { roundMinutes: 7, breakMinutes: 2, seated: "male" });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: "planned",
      settings: { roundMinutes: 7, breakMinutes: 2, maxRounds: null, seated: "male" },
      current: null,
      phase: null,
      present: { female: 3, male: 3 },
      arrivals: [],
    });
    expect(body.rounds.map((r) => r.round)).toEqual([1, 2, 3]);
    const pairs = pairsOf(body.rounds);
    expect(new Set(pairs).size).toBe(pairs.length);
    expect(pairs).toHaveLength(9);
    expect(JSON.stringify(body.rounds)).not.toContain(String(n.people.Noshow!.userId));
    // The GET answers the same plan.
    expect((await getRounds(n)).body.rounds).toEqual(body.rounds);
  });

  it("gives the larger side sit-outs and caps the rounds at maxRounds", async () => {
    const n = await night({ women: ["Wendy", "Wanda"], men: ["Arjun", "Vikram", "Sam"] });
    const full = (await plan(n)).body;
    expect(full.rounds).toHaveLength(3);
    for (const round of full.rounds) {
      expect(round.pairs).toHaveLength(2);
      expect(namesOf(n, round.sitOut)).toHaveLength(1);
    }
    expect(new Set(full.rounds.flatMap((r) => r.sitOut)).size).toBe(3);
    const capped = (await plan(n, { maxRounds: 2 })).body;
    expect(capped.rounds).toHaveLength(2);
    expect(capped.settings.maxRounds).toBe(2);
    // Settings left out keep their value; null takes the cap off.
    expect((await plan(n, { roundMinutes: 4 })).body.settings).toMatchObject({ roundMinutes: 4, maxRounds: 2 });
    expect((await plan(n, { maxRounds: null })).body.rounds).toHaveLength(3);
  });

  it("refuses to plan or re-plan more than 100 present a side: 409 room_too_large, nothing stored", async () => {
    const n = await night({ women: ["Wendy"], men: ["Arjun"] });
    const extra = insertPaidBookings(server.deps.db, n.eventId, 100, { gender: "female", paidAt: now() - MINUTE });
    for (const p of extra) checkIn(p.userId, now() - MINUTE);
    const refused = await plan(n);
    expect(refused).toMatchObject({
      status: 409,
      body: { code: "room_too_large", limit: 100, present: { female: 101, male: 1 } },
    });
    expect(String((refused.body as unknown as { error: string }).error)).toMatch(
      /^The rounds can be planned for up to 100 women and 100 men present/,
    );
    expect((await getRounds(n)).body.status).toBe("none");
    // One leaves: 100 a side is planned.
    expect((await markLeft(n, n.people.Wendy!, true)).status).toBe(200);
    expect((await plan(n)).status).toBe(200);
    expect((await run(n, "start")).status).toBe(200);
    // A re-plan checks again.
    expect((await markLeft(n, n.people.Wendy!, false)).status).toBe(200);
    expect(await plan(n)).toMatchObject({ status: 409, body: { code: "room_too_large" } });
  });

  it("answers 409 unless the event is started", async () => {
    const wrongState = { status: 409, body: expect.objectContaining({ code: "wrong_state" }) };
    for (const status of ["upcoming", "ended"] as const) {
      const n = await night({ women: ["Wendy"], men: ["Arjun"] }, status);
      expect(await plan(n)).toEqual(wrongState);
      expect(await run(n, "start")).toEqual(wrongState);
      expect(await markLeft(n, n.people.Arjun!, true)).toEqual(wrongState);
      expect((await getRounds(n)).body.status).toBe("none");
    }
  });
});

describe("running the rounds", () => {
  it("starts, and moves round → changeover → next round → finished by itself as the clock moves", async () => {
    const n = await night({ women: ["Wendy", "Wanda"], men: ["Arjun", "Vikram"] });
    await plan(n, { roundMinutes: 5, breakMinutes: 1 });
    const started = await run(n, "start");
    expect(started.status).toBe(200);
    expect(clock(started.body)).toEqual(["running", 1, "round", 5 * MINUTE]);

    advance(5 * MINUTE);
    expect(clock((await getRounds(n)).body)).toEqual(["running", 1, "break", MINUTE]);
    advance(MINUTE);
    expect(clock((await getRounds(n)).body)).toEqual(["running", 2, "round", 5 * MINUTE]);
    advance(5 * MINUTE);
    // No changeover after the last round.
    expect(clock((await getRounds(n)).body)).toEqual(["finished", 2, null, null]);
    expect(await run(n, "next")).toEqual({ status: 409, body: expect.objectContaining({ code: "wrong_state" }) });
  });

  it("runs every control: Pause, Resume, +1 min, Next and Finish rounds", async () => {
    const n = await night({ women: ["Wendy", "Wanda", "Willa"], men: ["Arjun", "Vikram", "Sam"] });
    await plan(n, { roundMinutes: 5, breakMinutes: 1 });
    const wrongState = { status: 409, body: expect.objectContaining({ code: "wrong_state" }) };
    expect(await run(n, "pause")).toEqual(wrongState);
    expect(await run(n, "finish")).toEqual(wrongState);
    await run(n, "start");
    expect(await run(n, "start")).toEqual(wrongState);

    advance(2 * MINUTE);
    const paused = await run(n, "pause");
    const left = 3 * MINUTE;
    expect(clock(paused.body)).toEqual(["paused", 1, "round", left]);
    // While paused the time left stands still, however long the pause.
    advance(10 * MINUTE);
    expect(clock((await getRounds(n)).body)).toEqual(["paused", 1, "round", left]);
    expect(await run(n, "resume").then((r) => clock(r.body))).toEqual(["running", 1, "round", left]);
    expect(await run(n, "resume")).toEqual(wrongState);

    const extended = await run(n, "extend");
    expect(timeLeft(extended.body)).toBe(left + MINUTE);

    // Next ends the round now, then the changeover now.
    expect(clock((await run(n, "next")).body)).toEqual(["running", 1, "break", MINUTE]);
    expect(clock((await run(n, "next")).body)).toEqual(["running", 2, "round", 5 * MINUTE]);
    // Paused, Next moves on and stays paused with the whole changeover left; +1 min adds to it.
    await run(n, "pause");
    expect(clock((await run(n, "next")).body)).toEqual(["paused", 2, "break", MINUTE]);
    expect(clock((await run(n, "extend")).body)).toEqual(["paused", 2, "break", 2 * MINUTE]);
    await run(n, "resume");

    const finished = await run(n, "finish");
    expect(clock(finished.body)).toEqual(["finished", 2, null, null]);
    expect(finished.body.rounds).toHaveLength(3);
    for (const action of ["start", "pause", "extend", "next", "finish"]) {
      expect(await run(n, action), action).toEqual(wrongState);
    }
    expect(await plan(n)).toEqual(wrongState);
  });

  it("moves the night one phase for 4 Next pressed at once on the same screen; the others are stale_state", async () => {
    const n = await night({ women: ["Wendy", "Wanda", "Willa"], men: ["Arjun", "Vikram", "Sam"] });
    await plan(n, { roundMinutes: 5, breakMinutes: 1 });
    await run(n, "start");
    const shown = { eventID: n.eventId, action: "next", current: 1, phase: "round" };
    const replies = await Promise.all(
      Array.from({ length: 4 }, async () => reply(await admin.postJson("/api/run-rounds", shown))),
    );
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409, 409, 409]);
    for (const r of replies.filter((r) => r.status === 409)) {
      expect(r.body).toMatchObject({ code: "stale_state" });
      expect(String(r.body.error)).not.toMatch(/^[a-z]+:/i);
    }
    expect(clock((await getRounds(n)).body)).toEqual(["running", 1, "break", MINUTE]);

    // A retry of a Next shown in the round, after the round ended by itself, does not skip round 2.
    advance(MINUTE);
    expect((await admin.postJson("/api/run-rounds", shown)).status).toBe(409);
    expect(clock((await getRounds(n)).body)).toEqual(["running", 2, "round", 5 * MINUTE]);
    // What the console shows now goes through; so does a control sent without what was shown.
    const fresh = await run(n, "pause");
    expect(fresh.status).toBe(200);
    const next = await admin.postJson("/api/run-rounds", { ...shown, current: 2, phase: "round" });
    expect(clock((await reply<RoundsView>(next)).body)).toEqual(["paused", 2, "break", MINUTE]);
    // Before the start the console shows no round and no phase.
    const other = await night({ women: ["Wendy"], men: ["Arjun"] });
    await plan(other);
    const start = { eventID: other.eventId, action: "start", current: null, phase: null };
    expect((await admin.postJson("/api/run-rounds", start)).status).toBe(200);
    expect(await reply(await admin.postJson("/api/run-rounds", start))).toMatchObject({
      status: 409,
      body: { code: "stale_state" },
    });
  });

  it("resumes from finished while the event is started: a Next in the last round is not the end of the night", async () => {
    const n = await night({ women: ["Wendy", "Wanda"], men: ["Arjun", "Vikram"] });
    await plan(n, { roundMinutes: 5, breakMinutes: 1 });
    await run(n, "start");
    await run(n, "next");
    await run(n, "next");
    expect(clock((await run(n, "next")).body)).toEqual(["finished", 2, null, null]);
    const resumed = await run(n, "resume");
    expect(resumed.status).toBe(200);
    expect(clock(resumed.body)).toEqual(["running", 2, "round", 5 * MINUTE]);
    expect(clock((await myRounds(n, n.people.Wendy!)).body)).toEqual(["running", 2, "round", 5 * MINUTE]);
    // Finished rounds, a re-plan and Next carry the night on from there.
    advance(5 * MINUTE);
    expect(clock((await getRounds(n)).body)).toEqual(["finished", 2, null, null]);
    expect((await run(n, "resume")).status).toBe(200);
    expect((await plan(n)).status).toBe(200);

    // Once the event has ended, the night is over for good.
    expect((await admin.postJson("/api/end-event", { eventId: n.eventId })).status).toBe(200);
    expect(await run(n, "resume")).toEqual({ status: 409, body: expect.objectContaining({ code: "wrong_state" }) });
  });

  it("answers 409 to the controls before anything is planned", async () => {
    const n = await night({ women: ["Wendy"], men: ["Arjun"] });
    expect(await run(n, "start")).toEqual({
      status: 409,
      body: { success: false, error: "plan the rounds first", code: "wrong_state" },
    });
  });

  it("refuses to start a plan with nobody in it", async () => {
    const n = await night({ women: ["Wendy"], men: ["Arjun"], absent: ["Wendy", "Arjun"] });
    expect((await plan(n)).body).toMatchObject({ status: "planned", rounds: [], present: { female: 0, male: 0 } });
    expect((await run(n, "start")).status).toBe(409);
  });

  it("stops the clock where the organiser ended the event", async () => {
    const n = await night({ women: ["Wendy", "Wanda"], men: ["Arjun", "Vikram"] });
    await plan(n);
    await run(n, "start");
    advance(2 * MINUTE);
    expect((await admin.postJson("/api/end-event", { eventId: n.eventId })).status).toBe(200);
    advance(30 * MINUTE);
    expect(clock((await getRounds(n)).body)).toEqual(["finished", 1, null, null]);
    expect(clock((await myRounds(n, n.people.Wendy!)).body)).toEqual(["finished", 1, null, null]);
    // Only round 1 was played before the end, so only its partner is Wendy's to rate.
    expect((await participants(n, n.people.Wendy!)).body.participants).toHaveLength(1);
  });
});

describe("late arrivals, early leavers and re-planning", () => {
  it("shows a late arrival, and a re-plan keeps the started rounds and repeats no pair", async () => {
    const n = await night({ women: ["Wendy", "Wanda"], men: ["Arjun", "Vikram", "Late"], absent: ["Late"] });
    const planned = (await plan(n)).body;
    expect(planned.present).toEqual({ female: 2, male: 2 });
    await run(n, "start");
    advance(5 * MINUTE + 30_000); // round 1 played, in the changeover

    checkIn(n.people.Late!.userId);
    const seen = (await getRounds(n)).body;
    expect(seen.present).toEqual({ female: 2, male: 3 });
    expect(seen.arrivals).toEqual([n.people.Late!.userId]);

    const replanned = await plan(n);
    expect(replanned.status).toBe(200);
    expect(replanned.body.arrivals).toEqual([]);
    expect(clock(replanned.body)).toEqual(["running", 1, "break", 30_000]);
    expect(replanned.body.rounds[0]).toEqual(planned.rounds[0]);
    const pairs = pairsOf(replanned.body.rounds);
    expect(new Set(pairs).size).toBe(pairs.length);
    expect(JSON.stringify(replanned.body.rounds.slice(1))).toContain(String(n.people.Late!.userId));
    // The late arrival sees the rounds they are in, from round 2 on.
    const late = (await myRounds(n, n.people.Late!)).body;
    expect(late.schedule.length).toBeGreaterThan(0);
    expect(late.schedule.every((r) => r.round >= 2)).toBe(true);
  });

  it("previews a re-plan without storing it", async () => {
    const n = await night({ women: ["Wendy", "Wanda"], men: ["Arjun", "Vikram"] });
    await plan(n);
    await run(n, "start");
    const late = insertPaidBookings(server.deps.db, n.eventId, 1, { name: "Omar", gender: "male", paidAt: now() });
    checkIn(late[0]!.userId);
    const preview = await plan(n, { preview: true });
    expect(preview.status).toBe(200);
    expect(preview.body.rounds.length).toBeGreaterThan(2);
    const stored = (await getRounds(n)).body;
    expect(stored.rounds).toHaveLength(2);
    expect(stored.arrivals).toEqual([late[0]!.userId]);
    expect(await plan(n)).toMatchObject({ status: 200, body: { rounds: preview.body.rounds } });
  });

  it("marks someone as left, leaves them out of the re-plan, and takes it back", async () => {
    const n = await night({ women: ["Wendy", "Wanda"], men: ["Arjun", "Vikram"] });
    const planned = (await plan(n)).body;
    await run(n, "start");
    const { Arjun, Wendy } = n.people as Record<string, Person>;

    const left = await markLeft(n, Arjun!, true);
    expect(left.status).toBe(200);
    expect(left.body.present).toEqual({ female: 2, male: 1 });
    expect(left.body.people.find((p) => p.userID === Arjun!.userId)?.left).toBe(true);

    advance(5 * MINUTE); // round 1 over
    const replanned = (await plan(n)).body;
    expect(replanned.rounds[0]).toEqual(planned.rounds[0]);
    expect(JSON.stringify(replanned.rounds.slice(1))).not.toContain(`:${Arjun!.userId}`);
    for (const round of replanned.rounds.slice(1)) {
      expect(round.sitOut).not.toContain(Arjun!.userId);
      expect(round.pairs.map((p) => p.maleID)).not.toContain(Arjun!.userId);
    }

    const back = await markLeft(n, Arjun!, false);
    expect(back.body.present).toEqual({ female: 2, male: 2 });
    // Back after the re-plan: a new arrival again until the next one.
    expect(back.body.arrivals).toEqual([Arjun!.userId]);
    expect((await markLeft(n, Wendy!, false)).status).toBe(200);
  });

  it("marks as left only a paid attendee who was checked in", async () => {
    const n = await night({ women: ["Wendy", "Wanda"], men: ["Arjun"], absent: ["Wanda"] });
    expect(await markLeft(n, n.people.Wanda!, true)).toEqual({
      status: 409,
      body: {
        success: false,
        error: "only someone checked in at the door can leave",
        code: "not_checked_in",
      },
    });
    server.deps.db
      .update(bookings)
      .set({ status: "refunded" })
      .where(eq(bookings.userId, n.people.Wendy!.userId))
      .run();
    expect((await markLeft(n, n.people.Wendy!, true)).body).toMatchObject({ code: "refunded" });
    expect((await markLeft(n, { userId: 987_654_321, name: "?", gender: "male" }, true)).status).toBe(404);
  });
});

describe("the guest's phone", () => {
  it("shows the guest's table and partner each round, the changeover's next table, and the countdown", async () => {
    const n = await night({ women: ["Wendy", "Wanda"], men: ["Arjun", "Vikram", "Sam"] });
    const { Wendy, Sam } = n.people as Record<string, Person>;
    expect((await myRounds(n, Wendy!)).body).toMatchObject({ status: "none", current: null, schedule: [] });

    const { rounds } = (await plan(n, { roundMinutes: 4, breakMinutes: 1 })).body;
    const expected = (who: Person) =>
      rounds.flatMap((r): MyRoundsView["schedule"] => {
        const pair = r.pairs.find((p) => p.femaleID === who.userId || p.maleID === who.userId);
        if (!pair) return r.sitOut.includes(who.userId) ? [{ round: r.round, table: null, partner: null }] : [];
        const partnerId = pair.femaleID === who.userId ? pair.maleID : pair.femaleID;
        const partner = Object.values(n.people).find((p) => p.userId === partnerId)!;
        const image_name = `${partner.name.toLowerCase().padEnd(32, "0")}-thumb.jpg`;
        return [{ round: r.round, table: pair.table, partner: { id: partnerId, username: partner.name, image_name } }];
      });

    const before = (await myRounds(n, Wendy!)).body;
    expect(before).toMatchObject({ status: "planned", current: null, phase: null, phaseEndsAt: null });
    expect(before.schedule).toEqual(expected(Wendy!));
    expect(before.schedule).toHaveLength(3);
    // Sam (three men for two tables) sits one round out: no table, no partner.
    expect((await myRounds(n, Sam!)).body.schedule).toEqual(expected(Sam!));
    expect((await myRounds(n, Sam!)).body.schedule.filter((r) => r.table === null)).toHaveLength(1);

    await run(n, "start");
    advance(MINUTE);
    expect(clock((await myRounds(n, Wendy!)).body)).toEqual(["running", 1, "round", 3 * MINUTE]);
    await run(n, "next");
    expect(clock((await myRounds(n, Wendy!)).body)).toEqual(["running", 1, "break", MINUTE]);
    await run(n, "pause");
    advance(MINUTE);
    expect(clock((await myRounds(n, Wendy!)).body)).toEqual(["paused", 1, "break", MINUTE]);
  });
});

describe("who counts as a partner", () => {
  it("lists only the people met in the rounds started so far, newest first, once there is a plan", async () => {
    const n = await night({ women: ["Wendy", "Wanda"], men: ["Arjun", "Vikram", "Noshow"], absent: ["Noshow"] });
    const { Wendy, Noshow } = n.people as Record<string, Person>;
    const { rounds } = (await plan(n)).body;
    const partnerIn = (round: number) => {
      const pair = rounds[round - 1]!.pairs.find((p) => p.femaleID === Wendy!.userId)!;
      return pair.maleID;
    };
    // Planned, not started: nobody met yet.
    expect((await participants(n, Wendy!)).body).toMatchObject({ participants: [] });

    await run(n, "start");
    expect((await participants(n, Wendy!)).body.participants.map((p) => p.id)).toEqual([partnerIn(1)]);
    const notYetMet = [n.people.Arjun!, n.people.Vikram!].find((m) => m.userId !== partnerIn(1))!;
    expect(await like(n, Wendy!, notYetMet)).toEqual({
      status: 404,
      body: { success: false, error: "no such partner at this event", code: "not_found" },
    });

    advance(6 * MINUTE); // round 2 has started by itself
    expect((await participants(n, Wendy!)).body.participants.map((p) => p.id)).toEqual([partnerIn(2), partnerIn(1)]);
    expect((await like(n, Wendy!, notYetMet)).status).toBe(200);
    // A no-show is never a partner.
    expect((await like(n, Wendy!, Noshow!)).status).toBe(404);
  });

  it("lists only the checked-in people of the other gender once the door was used, and refuses a tap on a no-show", async () => {
    const n = await night({ women: ["Wendy"], men: ["Arjun", "Vikram", "Noshow"], absent: ["Noshow"] });
    const { Wendy, Arjun, Noshow } = n.people as Record<string, Person>;
    expect((await participants(n, Wendy!)).body.participants.map((p) => p.username)).toEqual(["Arjun", "Vikram"]);
    expect(await like(n, Wendy!, Noshow!)).toEqual({
      status: 404,
      body: { success: false, error: "no such partner at this event", code: "not_found" },
    });
    expect((await like(n, Wendy!, Arjun!)).status).toBe(200);
    // Someone who came and then left stays a partner: they were met.
    await markLeft(n, Arjun!, true);
    expect((await participants(n, Wendy!)).body.participants.map((p) => p.username)).toEqual(["Arjun", "Vikram"]);
  });

  it("lists every paid person of the other gender while nobody was checked in, as before", async () => {
    const n = await night({ women: ["Wendy"], men: ["Arjun", "Vikram"], absent: ["Wendy", "Arjun", "Vikram"] });
    expect((await participants(n, n.people.Wendy!)).body.participants.map((p) => p.username)).toEqual([
      "Arjun",
      "Vikram",
    ]);
  });
});

describe("the event row", () => {
  it("keeps the rounds of each event apart", async () => {
    const a = await night({ women: ["Wendy"], men: ["Arjun"] });
    const b = await night({ women: ["Wanda"], men: ["Vikram"] });
    await plan(a);
    await run(a, "start");
    expect((await getRounds(b)).body.status).toBe("none");
    expect((await myRounds(b, b.people.Wanda!)).body).toMatchObject({ status: "none", schedule: [] });
  });
});

describe("POST /api/room-announcement (Announce)", () => {
  const announce = async (n: Night, text: string) =>
    reply<RoundsView & { code?: string; error?: string }>(
      await admin.postJson("/api/room-announcement", { eventID: n.eventId, text }),
    );

  it("shows a line on the console and every guest's round view until the next round starts, and takes it down", async () => {
    const n = await night({ women: ["Wendy", "Wren"], men: ["Adam", "Ben"] });
    expect(await announce(n, "Drinks are on the bar")).toMatchObject({ status: 409, body: { code: "wrong_state" } });
    await plan(n);
    expect(await announce(n, "Drinks are on the bar")).toMatchObject({ status: 409, body: { code: "wrong_state" } });
    await run(n, "start");

    const first = await announce(n, "  Drinks are on the bar  ");
    expect(first.status).toBe(200);
    expect(first.body.announcement).toBe("Drinks are on the bar");
    const guest = n.people.Wendy!;
    expect((await myRounds(n, guest)).body.announcement).toBe("Drinks are on the bar");
    // Logged once, with its words.
    const logged = server.deps.db.$client
      .prepare("select detail from activity_log where event_id = ? and action = 'room announcement'")
      .all(n.eventId);
    expect(logged).toEqual([{ detail: "Drinks are on the bar" }]);

    // The changeover after round 1 still belongs to round 1.
    advance(5 * MINUTE + 1_000);
    expect((await getRounds(n)).body).toMatchObject({
      current: 1,
      phase: "break",
      announcement: "Drinks are on the bar",
    });
    // Round 2 starts by itself: the line is down, on the console and the phones.
    advance(1 * MINUTE);
    expect((await getRounds(n)).body).toMatchObject({ current: 2, phase: "round", announcement: null });
    expect((await myRounds(n, guest)).body.announcement).toBeNull();

    expect((await announce(n, "Last round coming up")).body.announcement).toBe("Last round coming up");
    expect((await announce(n, "")).body.announcement).toBeNull();
    expect((await myRounds(n, guest)).body.announcement).toBeNull();
  });

  it("refuses a line over 140 characters with a sentence, changing nothing, and a host of another night", async () => {
    const n = await night({ women: ["Wanda"], men: ["Carl"] });
    await plan(n);
    await run(n, "start");
    await announce(n, "Welcome!");
    const long = await announce(n, "x".repeat(141));
    expect(long.status).toBe(400);
    expect(long.body.error).toBe("Keep the announcement to 140 characters; it has 141.");
    expect((await getRounds(n)).body.announcement).toBe("Welcome!");
    expect((await anon.postJson("/api/room-announcement", { eventID: n.eventId, text: "hi" })).status).toBe(401);
  });
});
