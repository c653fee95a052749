import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { activityLog } from "../../db/access-schema.ts";
import { keepApart } from "../../db/rounds-schema.ts";
import { bookings, users } from "../../db/schema.ts";
import { type BrowserClient, browserClient, suiteTestServer } from "../../test/api-harness.ts";
import { insertEvent, insertHeldBooking, insertPaidBookings } from "../../test/fixtures.ts";
import { newMobile } from "../../test/suites/booking-flow.ts";
import { hostAccessHelpers } from "../../test/suites/host-access.ts";
import type { KeepApartView } from "./keep-apart.ts";
import type { RoundsView } from "./rounds.ts";

// Nobody across the table twice (docs/decisions/030-nobody-across-the-table-twice.md), through the
// API: who met at an earlier night is read from that night's started rounds by verified number, and
// the organiser's Keep apart marks are stored per event and never seated.

const PASSWORD = "correct horse battery staple";
const MINUTE = 60_000;
const DAY = 86_400_000;

// The harness's clock: tests move it with server.advance instead of sleeping.
const server = suiteTestServer();
const advance = (ms: number) => server.advance(ms);
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

type Guest = { name: string; phone: string; gender: "female" | "male" };
type Night = { eventId: number; ids: Record<string, number> };

/**
 * A night under way with these guests paid and checked in, in order. A guest is a new users row at
 * every booking, as the details form makes one; the phone is what two nights share.
 */
async function night(guests: Guest[], name = "Repeat Mixer"): Promise<Night> {
  const { db, env } = server.deps;
  const event = await insertEvent(db, env.UPLOADS_DIR, {
    name,
    status: "started",
    startsAt: now() - 10 * MINUTE,
    startedAt: now() - 5 * MINUTE,
  });
  const ids: Record<string, number> = {};
  guests.forEach((g, i) => {
    const [p] = insertPaidBookings(db, event.id, 1, { name: g.name, gender: g.gender, paidAt: now() - DAY });
    db.update(users).set({ phone: g.phone }).where(eq(users.id, p!.userId)).run();
    db.update(bookings)
      .set({ phone: g.phone, checkedInAt: now() - 30 * MINUTE + i })
      .where(eq(bookings.userId, p!.userId))
      .run();
    ids[g.name] = p!.userId;
  });
  return { eventId: event.id, ids };
}

const guest = (name: string, gender: "female" | "male"): Guest => ({ name, gender, phone: newMobile() });

const getRounds = async (n: Night) => reply<RoundsView>(await admin.get(`/api/admin-event/${n.eventId}/rounds`));
const plan = async (n: Night, settings: Record<string, unknown> = {}) =>
  reply<RoundsView>(await admin.postJson("/api/plan-rounds", { eventID: n.eventId, ...settings }));
const run = async (n: Night, action: string) =>
  reply<RoundsView>(await admin.postJson("/api/run-rounds", { eventID: n.eventId, action }));
const list = async (n: Night, client = admin) =>
  reply<KeepApartView>(await client.get(`/api/admin-event/${n.eventId}/keep-apart`));
const mark = async (n: Night, userIDs: unknown, apart: unknown = true, client = admin) =>
  reply<KeepApartView & { replanned: boolean }>(
    await client.postJson("/api/keep-apart", { eventID: n.eventId, userIDs, apart }),
  );

/** Every pair of the plan as "name:name", woman first. */
function pairsIn(n: Night, rounds: RoundsView["rounds"]) {
  const name = (id: number) => Object.entries(n.ids).find(([, v]) => v === id)?.[0] ?? `#${id}`;
  return rounds.map((r) => r.pairs.map((p) => `${name(p.femaleID)}:${name(p.maleID)}`));
}

/** A night whose first round ran and whose second never started: Asha met Cal, Bea met Dev. */
async function earlierNight(people: Guest[]) {
  const n = await night(people, "Last Month");
  expect((await plan(n)).body.rounds).toHaveLength(2);
  expect(pairsIn(n, (await getRounds(n)).body.rounds)).toEqual([
    ["Asha:Cal", "Bea:Dev"],
    ["Asha:Dev", "Bea:Cal"],
  ]);
  expect((await run(n, "start")).status).toBe(200);
  advance(3 * MINUTE);
  expect((await admin.postJson("/api/end-event", { eventId: n.eventId })).status).toBe(200);
  // A later night (the organiser's session stays signed in across it).
  advance(60 * MINUTE);
  return n;
}

describe("who met at an earlier night", () => {
  it("is read from the earlier night's started rounds by verified number, and the plan avoids them", async () => {
    const people = [guest("Asha", "female"), guest("Bea", "female"), guest("Cal", "male"), guest("Dev", "male")];
    await earlierNight(people);
    // The same four book again (new rows, the same numbers), with two newcomers.
    const n = await night([...people, guest("Eve", "female"), guest("Fin", "male")]);

    // Three rounds of a possible three: everyone meets everyone, so the two pairs who met meet again.
    const full = await plan(n);
    expect(full.status).toBe(200);
    const seatedAgain = full.body.metBefore.map(({ round, table }) => {
      const pair = full.body.rounds[round - 1]!.pairs.find((p) => p.table === table)!;
      return pairsIn(n, [{ ...full.body.rounds[0]!, pairs: [pair] }])[0]![0];
    });
    expect(seatedAgain.sort()).toEqual(["Asha:Cal", "Bea:Dev"]);

    // Two rounds leave room to choose: nobody who met before is seated, and none is counted.
    const capped = await plan(n, { maxRounds: 2 });
    expect(capped.body.rounds).toHaveLength(2);
    const pairs = pairsIn(n, capped.body.rounds).flat();
    expect(pairs).not.toContain("Asha:Cal");
    expect(pairs).not.toContain("Bea:Dev");
    expect(capped.body.metBefore).toEqual([]);
    // Everyone still has a date every round: history changes who, never how many.
    for (const round of capped.body.rounds) expect(round.sitOut).toEqual([]);
    // Asha and Dev only sat at the same table in the round that never started: not a meeting.
    expect((await getRounds(n)).body.metBefore).toEqual([]);
  });

  it("forgets a number once retention has erased it", async () => {
    const people = [guest("Asha", "female"), guest("Bea", "female"), guest("Cal", "male"), guest("Dev", "male")];
    const last = await earlierNight(people);
    const { db } = server.deps;
    for (const id of Object.values(last.ids)) db.update(users).set({ phone: "erased" }).where(eq(users.id, id)).run();
    const n = await night(people);
    expect((await plan(n)).body.metBefore).toEqual([]);
  });
});

describe("Keep apart", () => {
  it("marks two guests, lists them by name, keeps them apart in every plan, and undoes", async () => {
    const n = await night([
      guest("Asha", "female"),
      guest("Bea", "female"),
      guest("Cal", "male"),
      guest("Dev", "male"),
    ]);
    const { Asha, Cal } = n.ids as Record<string, number>;
    const marked = await mark(n, [Cal, Asha]);
    expect(marked.status).toBe(200);
    // Lower id first (Asha booked first), whichever order they were marked in.
    expect(marked.body.pairs).toEqual([{ userIDs: [Asha, Cal], names: ["Asha", "Cal"] }]);
    expect(marked.body.replanned).toBe(false);
    expect(marked.body.guests.map((g) => g.username)).toEqual(["Asha", "Bea", "Cal", "Dev"]);
    expect((await list(n)).body.pairs).toHaveLength(1);

    for (const maxRounds of [null, 1, 2]) {
      const planned = await plan(n, { maxRounds });
      expect(pairsIn(n, planned.body.rounds).flat()).not.toContain("Asha:Cal");
    }
    // Uncapped, the round they would have met in leaves both out rather than seat them.
    const full = await plan(n, { maxRounds: null });
    expect(full.body.rounds.some((r) => r.sitOut.includes(Asha!) && r.sitOut.includes(Cal!))).toBe(true);

    // Marking again changes nothing; undoing takes the mark off, once.
    expect((await mark(n, [Asha, Cal])).body.pairs).toHaveLength(1);
    const undone = await mark(n, [Asha, Cal], false);
    expect(undone.status).toBe(200);
    expect(undone.body.pairs).toEqual([]);
    expect((await mark(n, [Asha, Cal], false)).body.pairs).toEqual([]);
    const logged = server.deps.db
      .select()
      .from(activityLog)
      .where(eq(activityLog.eventId, n.eventId))
      .all()
      .map((r) => r.action);
    expect(logged.filter((a) => a === "kept apart")).toHaveLength(1);
    expect(logged.filter((a) => a === "keep apart undone")).toHaveLength(1);
  });

  it("re-plans the rounds not yet started at once when the plan seats the pair in one", async () => {
    const n = await night([
      guest("Asha", "female"),
      guest("Bea", "female"),
      guest("Cleo", "female"),
      guest("Cal", "male"),
      guest("Dev", "male"),
      guest("Eli", "male"),
    ]);
    const { Asha, Dev } = n.ids as Record<string, number>;
    await plan(n);
    await run(n, "start");
    const before = (await getRounds(n)).body;
    // Round 1 is under way; Asha and Dev meet in round 2.
    expect(pairsIn(n, before.rounds.slice(1)).flat()).toContain("Asha:Dev");
    const marked = await mark(n, [Asha, Dev]);
    expect(marked.body.replanned).toBe(true);
    const after = (await getRounds(n)).body;
    expect(after.rounds[0]).toEqual(before.rounds[0]);
    expect(pairsIn(n, after.rounds).flat()).not.toContain("Asha:Dev");
    expect(after.status).toBe("running");
  });

  it("is the organiser's: 401 without a session, 403 to a host of the night, and nothing is stored", async () => {
    const n = await night([guest("Asha", "female"), guest("Cal", "male")]);
    const { Asha, Cal } = n.ids as Record<string, number>;
    const { newLink, hostPhone } = hostAccessHelpers(server, () => admin);
    const { phone } = await hostPhone(await newLink(n.eventId));
    expect(await list(n, anon)).toMatchObject({ status: 401, body: { code: "admin_session_required" } });
    expect(await mark(n, [Asha, Cal], true, anon)).toMatchObject({
      status: 401,
      body: { code: "admin_session_required" },
    });
    expect(await list(n, phone)).toMatchObject({ status: 403, body: { code: "forbidden" } });
    expect(await mark(n, [Asha, Cal], true, phone)).toMatchObject({ status: 403, body: { code: "forbidden" } });
    // The host's own rounds view still opens, and shows no marks.
    expect((await phone.get(`/api/admin-event/${n.eventId}/rounds`)).status).toBe(200);
    expect(server.deps.db.select().from(keepApart).where(eq(keepApart.eventId, n.eventId)).all()).toEqual([]);
  });

  it("refuses bad ids, a guest of another event, a seat not paid for and a night that is over, changing nothing", async () => {
    const n = await night([guest("Asha", "female"), guest("Cal", "male")]);
    const other = await night([guest("Zoe", "female"), guest("Yan", "male")], "Another Night");
    const { Asha, Cal } = n.ids as Record<string, number>;
    const held = insertHeldBooking(server.deps.db, n.eventId, { name: "Holly", now: now() });
    const cases: [unknown, number, string][] = [
      [[Asha, Asha], 400, "invalid_request"],
      [[Asha], 400, "invalid_request"],
      [[Asha, Cal, Cal], 400, "invalid_request"],
      [[Asha, -3], 400, "invalid_request"],
      [[Asha, "Cal"], 400, "invalid_request"],
      ["Asha,Cal", 400, "invalid_request"],
      [null, 400, "invalid_request"],
      [[Asha, 987_654_321], 404, "not_found"],
      [[Asha, other.ids.Yan], 404, "not_found"],
      [[Asha, held.userId], 404, "not_found"],
    ];
    for (const [userIDs, status, code] of cases) {
      const refused = await mark(n, userIDs);
      expect({ userIDs, status: refused.status, code: (refused.body as { code?: string }).code }).toEqual({
        userIDs,
        status,
        code,
      });
    }
    expect(await mark(n, [Asha, Cal], "yes")).toMatchObject({ status: 400, body: { code: "invalid_request" } });
    expect(
      await reply(await admin.postJson("/api/keep-apart", { eventID: 987_654, userIDs: [Asha, Cal], apart: true })),
    ).toMatchObject({ status: 404, body: { code: "not_found" } });
    expect(await reply(await admin.get("/api/admin-event/987654/keep-apart"))).toMatchObject({
      status: 404,
      body: { code: "not_found" },
    });
    expect(await reply(await admin.get("/api/admin-event/abc/keep-apart"))).toMatchObject({
      status: 400,
      body: { code: "invalid_request" },
    });
    expect(await admin.postJson("/api/end-event", { eventId: n.eventId })).toHaveProperty("status", 200);
    expect(await mark(n, [Asha, Cal])).toMatchObject({ status: 409, body: { code: "wrong_state" } });
    const stored = server.deps.db
      .select()
      .from(keepApart)
      .where(and(eq(keepApart.eventId, n.eventId)))
      .all();
    expect(stored).toEqual([]);
  });

  it("shows names only, and only this event's guests", async () => {
    const a = guest("Asha", "female");
    const c = guest("Cal", "male");
    const n = await night([a, c]);
    const other = await night([guest("Zoe", "female")], "Another Night");
    await mark(n, [n.ids.Asha, n.ids.Cal]);
    const shown = await list(n);
    const text = JSON.stringify(shown.body);
    for (const secret of [a.phone, c.phone, a.phone.slice(-4), "@example.com", "-thumb.jpg", ".jpg"])
      expect(text).not.toContain(secret);
    expect(shown.body.guests.map((g) => g.userID)).not.toContain(other.ids.Zoe);
    expect(shown.body.guests).toEqual([
      { userID: n.ids.Asha, username: "Asha", gender: "female" },
      { userID: n.ids.Cal, username: "Cal", gender: "male" },
    ]);
  });
});
