import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { feedbackToken } from "../api/lib/capability.ts";
import type { RoundsView } from "../api/night/rounds.ts";
import type { MyRoundsView } from "../api/night/rounds-guest.ts";
import { eraseUsers } from "../api/ops/retention.ts";
import { bookings, type PersonGender, users, type WantsToMeet } from "../db/schema.ts";
import { type BrowserClient, browserClient, suiteTestServer, verifiedPhoneBrowser } from "./api-harness.ts";
import { ADULT_DATE_OF_BIRTH } from "./date-of-birth.ts";
import { insertCheckedInGuests, insertEvent, insertPaidBookings, makeImage } from "./fixtures.ts";

// Issue 37, parts 1 and 5 over real HTTP: an event's format (Women meet men, One group, Mixed) set on
// Add and Edit and locked at the first booking, what each format's booking asks, and the night
// planned, run and rated the same way in all three.

const PASSWORD = "correct horse battery staple";
const MINUTE = 60_000;
const DAY = 86_400_000;

const clockNow = Date.now();
const server = suiteTestServer({
  env: { OTP_MAX_PER_ADDRESS: "1000" },
  deps: () => ({ now: () => clockNow }),
});
let admin: BrowserClient;
let anon: BrowserClient;
let jpeg: Buffer;

beforeAll(async () => {
  admin = browserClient(server.url);
  anon = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
  jpeg = await makeImage("jpeg", 800, 600);
});

const json = async <T = Record<string, unknown>>(response: Response) => ({
  status: response.status,
  body: (await response.json()) as T,
});
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

let phoneCounter = 0;
const newPhone = () =>
  `+6148${String(Date.now() % 100_000).padStart(5, "0")}${String(++phoneCounter).padStart(2, "0")}`;

/** The details form as a browser sends it, with only the fields given (a format's questions among them). */
async function book(eventId: number, fields: Record<string, string>) {
  const phone = newPhone();
  const browser = verifiedPhoneBrowser(server, phone);
  const form = new FormData();
  const all: Record<string, string> = {
    name: "Sam Rao",
    email: "sam@example.com",
    phone,
    dateOfBirth: ADULT_DATE_OF_BIRTH,
    eventID: String(eventId),
    ...fields,
  };
  for (const [k, v] of Object.entries(all)) form.append(k, v);
  form.append("image", new Blob([new Uint8Array(jpeg)], { type: "image/jpeg" }), "me.jpg");
  const reply = await json(await browser.postForm("/api/save-user-details", form));
  return { ...reply, phone };
}

const stored = (userId: number) =>
  server.deps.db
    .select({ gender: users.gender, wantsToMeet: users.wantsToMeet })
    .from(users)
    .where(eq(users.id, userId))
    .get();

const update = (eventId: number, fields: Record<string, unknown>) =>
  admin.postJson("/api/update-event", {
    eventid: eventId,
    eventName: "Test Mixer",
    eventDate: isoDate(clockNow + 7 * DAY),
    totalSeats: 10,
    ...fields,
  });

describe("an event's format on Add and Edit", () => {
  it("is Women meet men unless chosen, shows on the event, and changes freely before anyone books", async () => {
    const form = new FormData();
    const fields: Record<string, string> = {
      eventName: "Queer Singles Night",
      eventDate: isoDate(clockNow + 10 * DAY),
      eventTime: "09:30",
      eventAddress: "1 Oxford St, Sydney NSW 2000",
      totalSeats: "12",
      bookingAmount: "49.95",
      eventduration: "2",
      fromage: "25",
      toage: "40",
      format: "one_group",
    };
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append("eventImage", new Blob([new Uint8Array(await makeImage("png"))], { type: "image/png" }), "e.png");
    const created = await json<{ id: number }>(await admin.postForm("/api/save-event", form));
    expect(created.status).toBe(200);
    const id = created.body.id ?? (created.body as unknown as { eventID: number }).eventID;
    const shown = await json<{ format: string; seatsMale: null }>(await anon.get(`/api/get-event/${id}`));
    expect(shown.body.format).toBe("one_group");

    const plain = await insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR, { startsAt: clockNow + 7 * DAY });
    // Women meet men's answer stays as it was: no format field, which clients read as women_men.
    expect((await json<{ format?: string }>(await anon.get(`/api/get-event/${plain.id}`))).body.format).toBeUndefined();
    expect((await update(plain.id, { format: "mixed" })).status).toBe(200);
    expect((await json<{ format: string }>(await anon.get(`/api/get-event/${plain.id}`))).body.format).toBe("mixed");
    const bad = await update(plain.id, { format: "speed" });
    expect(bad.status).toBe(400);
  });

  it("refuses seats by gender at One group and Mixed: one pool of seats", async () => {
    const e = await insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR, { startsAt: clockNow + 7 * DAY });
    const refused = await json(await update(e.id, { format: "one_group", seatsMale: 5, seatsFemale: 5 }));
    expect(refused.status).toBe(400);
    expect(String(refused.body.error)).toContain("One group has one pool of seats");
    // Switching a balanced night to One group clears its seats by gender.
    expect((await update(e.id, { seatsMale: 5, seatsFemale: 5 })).status).toBe(200);
    expect((await update(e.id, { format: "one_group" })).status).toBe(200);
    const shown = await json<{ seatsMale: number | null; SeatsLeft: unknown }>(
      await anon.get(`/api/get-event/${e.id}`),
    );
    expect(shown.body.seatsMale).toBeNull();
    expect(shown.body.SeatsLeft).toBeNull();
  });

  it("answers 409 format_locked once anyone has booked, and changes nothing", async () => {
    const e = await insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR, { startsAt: clockNow + 7 * DAY });
    const held = await book(e.id, { gender: "female" });
    expect(held.status).toBe(200);
    const locked = await json(await update(e.id, { format: "one_group" }));
    expect(locked.status).toBe(409);
    expect(locked.body.code).toBe("format_locked");
    expect((await json<{ format?: string }>(await anon.get(`/api/get-event/${e.id}`))).body.format).toBeUndefined();
    // The same format again is no change: other edits still go through.
    expect((await update(e.id, { format: "women_men", totalSeats: 12 })).status).toBe(200);
  });
});

describe("what each format's booking asks", () => {
  const eventOf = (format: "women_men" | "one_group" | "mixed") =>
    insertEvent(server.deps.db, server.deps.env.UPLOADS_DIR, { startsAt: clockNow + 7 * DAY, format });

  it("Women meet men: Woman or Man, nothing about whom they would like to meet", async () => {
    const e = await eventOf("women_men");
    expect((await book(e.id, {})).status).toBe(400);
    expect((await book(e.id, { gender: "nonbinary" })).status).toBe(400);
    const asked = await book(e.id, { gender: "male", wantsToMeet: "women" });
    expect(asked.status).toBe(400);
    expect(String(asked.body.error)).toContain("do not ask whom you would like to meet");
    const ok = await book(e.id, { gender: "male" });
    expect(ok.status).toBe(200);
    expect(stored(ok.body.userID as number)).toEqual({ gender: "male", wantsToMeet: null });
  });

  it("One group: no gender at all, and one pool of seats", async () => {
    const e = await eventOf("one_group");
    const withGender = await book(e.id, { gender: "female" });
    expect(withGender.status).toBe(400);
    expect(String(withGender.body.error)).toContain("One group nights do not ask for a gender");
    expect((await book(e.id, { wantsToMeet: "everyone" })).status).toBe(400);
    const ok = await book(e.id, {});
    expect(ok.status).toBe(200);
    expect(stored(ok.body.userID as number)).toEqual({ gender: "unasked", wantsToMeet: null });
    const card = await json<{ SeatsLeft: unknown; SeatAvailabilityPer: number }>(
      await anon.get(`/api/get-event/${e.id}`),
    );
    expect(card.body.SeatsLeft).toBeNull();
  });

  it("Mixed: Woman, Man or Non-binary and whom they would like to meet, both required", async () => {
    const e = await eventOf("mixed");
    expect((await book(e.id, { wantsToMeet: "everyone" })).status).toBe(400);
    const noWish = await book(e.id, { gender: "nonbinary" });
    expect(noWish.status).toBe(400);
    expect(String(noWish.body.error)).toContain("Whom you would like to meet");
    expect((await book(e.id, { gender: "nonbinary", wantsToMeet: "some" })).status).toBe(400);
    const ok = await book(e.id, { gender: "nonbinary", wantsToMeet: "everyone" });
    expect(ok.status).toBe(200);
    expect(stored(ok.body.userID as number)).toEqual({ gender: "nonbinary", wantsToMeet: "everyone" });
    // Nothing of a refused form was kept: only the one good booking holds a seat.
    const held = server.deps.db.select().from(bookings).where(eq(bookings.eventId, e.id)).all();
    expect(held).toHaveLength(1);
  });

  it("the waitlist of a one-pool night asks no gender; Women meet men's still does", async () => {
    const full = await eventOf("one_group");
    insertPaidBookings(server.deps.db, full.id, 10);
    const phone = newPhone();
    const browser = verifiedPhoneBrowser(server, phone);
    const withGender = await browser.postJson("/api/join-waitlist", {
      eventID: full.id,
      phone,
      gender: "female",
      name: "Sam",
    });
    expect(withGender.status).toBe(400);
    const joined = await json(await browser.postJson("/api/join-waitlist", { eventID: full.id, phone, name: "Sam" }));
    expect(joined.status).toBe(200);
    const wm = await eventOf("women_men");
    insertPaidBookings(server.deps.db, wm.id, 10);
    const other = newPhone();
    const b2 = verifiedPhoneBrowser(server, other);
    expect((await b2.postJson("/api/join-waitlist", { eventID: wm.id, phone: other, name: "Sam" })).status).toBe(400);
  });
});

type Guest = { userId: number; name: string };

/** A started night of `format` with these guests checked in, in order, each with their answers. */
async function night(
  format: "one_group" | "mixed",
  guests: { name: string; gender?: PersonGender; wantsToMeet?: WantsToMeet }[],
) {
  const { db, env } = server.deps;
  const event = await insertEvent(db, env.UPLOADS_DIR, {
    status: "started",
    format,
    startsAt: clockNow - 10 * MINUTE,
    startedAt: clockNow - 5 * MINUTE,
    totalSeats: 40,
  });
  const added = insertCheckedInGuests(db, event.id, guests, clockNow - 30 * MINUTE);
  const people: Guest[] = added.map((p, i) => ({ userId: p.userId, name: guests[i]!.name }));
  return { eventId: event.id, people };
}

const plan = async (eventId: number, settings: Record<string, unknown> = {}) =>
  json<RoundsView>(await admin.postJson("/api/plan-rounds", { eventID: eventId, ...settings }));
const run = async (eventId: number, action: string) =>
  json<RoundsView>(await admin.postJson("/api/run-rounds", { eventID: eventId, action }));
const myRounds = async (eventId: number, g: Guest) =>
  json<MyRoundsView>(
    await anon.postJson("/api/my-rounds", {
      eventID: eventId,
      userID: g.userId,
      token: feedbackToken(server.deps.env, "start", g.userId, eventId),
    }),
  );
const partners = async (eventId: number, g: Guest) =>
  json<{ participants: { id: number }[] }>(
    await anon.postJson("/api/get-participants", {
      eventID: eventId,
      userID: g.userId,
      token: feedbackToken(server.deps.env, "start", g.userId, eventId),
    }),
  );

const pairKey = (a: number, b: number) => (a < b ? `${a}:${b}` : `${b}:${a}`);

describe("a One group night", () => {
  it("seats 7 in 7 rounds of 3 tables: every pair once, each sitting out once, never twice running", async () => {
    const names = ["Asha", "Bea", "Cleo", "Dana", "Esha", "Fern", "Gita"];
    const n = await night(
      "one_group",
      names.map((name) => ({ name })),
    );
    const planned = await plan(n.eventId);
    expect(planned.status).toBe(200);
    expect(planned.body.format).toBe("one_group");
    expect(planned.body.present).toEqual({ female: 0, male: 0 });
    expect(planned.body.presentTotal).toBe(7);
    const rounds = planned.body.rounds;
    expect(rounds).toHaveLength(7);
    const met = new Set<string>();
    const satOut: number[] = [];
    for (const r of rounds) {
      expect(r.pairs).toHaveLength(3);
      expect(r.sitOut).toHaveLength(1);
      satOut.push(r.sitOut[0]!);
      for (const p of r.pairs) {
        const key = pairKey(p.femaleID, p.maleID);
        expect(met.has(key)).toBe(false);
        met.add(key);
      }
    }
    expect(met.size).toBe(21);
    expect(new Set(satOut).size).toBe(7);

    // The phones follow: each guest's schedule has a table or a sit-out every round.
    await run(n.eventId, "start");
    const first = rounds[0]!;
    const sitter = n.people.find((p) => p.userId === first.sitOut[0])!;
    const mine = await myRounds(n.eventId, sitter);
    expect(mine.status).toBe(200);
    expect(mine.body.current).toBe(1);
    expect(mine.body.schedule[0]).toMatchObject({ round: 1, table: null, partner: null });
    const [pair] = first.pairs;
    const seated = n.people.find((p) => p.userId === pair!.femaleID)!;
    const theirs = await myRounds(n.eventId, seated);
    expect(theirs.body.schedule[0]).toMatchObject({ round: 1, table: pair!.table, partner: { id: pair!.maleID } });

    // The partner rule: after round 1, the one they met; the one who sat out has met nobody yet.
    expect((await partners(n.eventId, seated)).body.participants.map((p) => p.id)).toEqual([pair!.maleID]);
    expect((await partners(n.eventId, sitter)).body.participants).toEqual([]);
  });

  it("re-plans for a late arrival and someone who left, keeping the rounds played", async () => {
    const n = await night(
      "one_group",
      ["Ira", "Jo", "Kay", "Lia"].map((name) => ({ name })),
    );
    const first = await plan(n.eventId);
    expect(first.body.rounds).toHaveLength(3);
    await run(n.eventId, "start");
    const [p] = insertPaidBookings(server.deps.db, n.eventId, 1, { name: "Mo" });
    server.deps.db.update(bookings).set({ checkedInAt: clockNow }).where(eq(bookings.id, p!.bookingId)).run();
    server.deps.db.update(users).set({ gender: "unasked" }).where(eq(users.id, p!.userId)).run();
    const left = await json(
      await admin.postJson("/api/mark-left", { eventID: n.eventId, userID: n.people[0]!.userId, left: true }),
    );
    expect(left.status).toBe(200);
    const again = await plan(n.eventId);
    expect(again.status).toBe(200);
    expect(again.body.rounds[0]).toEqual(first.body.rounds[0]);
    const later = again.body.rounds.slice(1);
    const everyone = new Set(later.flatMap((r) => [...r.pairs.flatMap((x) => [x.femaleID, x.maleID]), ...r.sitOut]));
    expect(everyone.has(p!.userId)).toBe(true);
    expect(everyone.has(n.people[0]!.userId)).toBe(false);
    const seen = new Set<string>();
    for (const r of again.body.rounds)
      for (const x of r.pairs) {
        const key = pairKey(x.femaleID, x.maleID);
        expect(seen.has(key)).toBe(false);
        seen.add(key);
      }
  });
});

describe("a Mixed night", () => {
  it("seats only pairs who would each like to meet the other, and rates only them", async () => {
    const n = await night("mixed", [
      { name: "Ana", gender: "female", wantsToMeet: "men" },
      { name: "Ben", gender: "male", wantsToMeet: "women" },
      { name: "Cat", gender: "female", wantsToMeet: "women" },
      { name: "Dee", gender: "female", wantsToMeet: "everyone" },
      { name: "Eli", gender: "nonbinary", wantsToMeet: "everyone" },
      { name: "Fin", gender: "male", wantsToMeet: "everyone" },
    ]);
    const planned = await plan(n.eventId);
    expect(planned.status).toBe(200);
    const byId = new Map(n.people.map((p) => [p.userId, p.name]));
    const pairs = new Set(
      planned.body.rounds.flatMap((r) =>
        r.pairs.map((p) => [byId.get(p.femaleID), byId.get(p.maleID)].sort().join("+")),
      ),
    );
    // Every pair where each would like to meet the other, and no other.
    expect([...pairs].sort()).toEqual(
      ["Ana+Ben", "Ana+Fin", "Ben+Dee", "Cat+Dee", "Dee+Eli", "Dee+Fin", "Eli+Fin"].sort(),
    );
    // The organiser's view carries no answers: the planner read them, the reply has none.
    expect(JSON.stringify(planned.body)).not.toMatch(/wantsToMeet|wants_to_meet|everyone/);
    expect(planned.body.presentTotal).toBe(6);

    // Before any round starts and without a plan the partner rule still respects the answers.
    const fresh = await night("mixed", [
      { name: "Gus", gender: "male", wantsToMeet: "men" },
      { name: "Hal", gender: "male", wantsToMeet: "women" },
      { name: "Ivy", gender: "female", wantsToMeet: "men" },
      { name: "Jon", gender: "male", wantsToMeet: "men" },
    ]);
    const [gus, hal, ivy, jon] = fresh.people as [Guest, Guest, Guest, Guest];
    expect((await partners(fresh.eventId, gus)).body.participants.map((p) => p.id)).toEqual([jon.userId]);
    expect((await partners(fresh.eventId, ivy)).body.participants.map((p) => p.id)).toEqual([hal.userId]);
  });
});

describe("erasing a Mixed guest", () => {
  it("erases whom they would like to meet with the rest of their details", async () => {
    const n = await night("mixed", [{ name: "Kit", gender: "female", wantsToMeet: "women" }]);
    const { db } = server.deps;
    const kit = n.people[0]!;
    db.transaction((tx) => eraseUsers(tx, eq(users.id, kit.userId), { phone: true }));
    expect(stored(kit.userId)).toEqual({ gender: "female", wantsToMeet: null });
  });
});
