import { eq, inArray } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { feedbackToken } from "../api/lib/capability.ts";
import { signValue } from "../api/lib/crypto.ts";
import { guestSessions } from "../db/access-schema.ts";
import { events, type PersonGender, users, type WantsToMeet } from "../db/schema.ts";
import { type BrowserClient, browserClient, suiteTestServer, verifiedPhoneBrowser } from "./api-harness.ts";
import { insertCheckedInGuests, insertEvent } from "./fixtures.ts";

// Issue 37: whom a guest would like to meet is their orientation (APP 3). The planner reads it; no
// reply shows it, nor the CSV. Proven over every route: every GET the OpenAPI document declares (and
// the guests' token-opened reads) is called as the organiser, as a guest signed in on /me with a
// verified number, and as a stranger; then every guest's answer is changed in the database, with
// nothing else, and every call is made again. Any reply that differs would be telling someone the
// answer, so none may.

const PASSWORD = "correct horse battery staple";
const MINUTE = 60_000;

// The clock stands still: the two rounds of calls must differ in nothing but the answers.
const clockNow = Date.now();
const server = suiteTestServer({ deps: () => ({ now: () => clockNow }) });
let admin: BrowserClient;
let anon: BrowserClient;
let guest: BrowserClient;

type Guest = { userId: number; bookingId: number; phone: string };
let eventId: number;
let people: Guest[];

const NEXT: Record<WantsToMeet, WantsToMeet> = { women: "men", men: "everyone", everyone: "women" };

beforeAll(async () => {
  admin = browserClient(server.url);
  anon = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
  const { db, env } = server.deps;
  const event = await insertEvent(db, env.UPLOADS_DIR, {
    status: "started",
    format: "mixed",
    startsAt: clockNow - 10 * MINUTE,
    startedAt: clockNow - 5 * MINUTE,
    totalSeats: 20,
  });
  eventId = event.id;
  const answers: [PersonGender, WantsToMeet][] = [
    ["female", "men"],
    ["male", "women"],
    ["female", "everyone"],
    ["male", "everyone"],
    ["nonbinary", "everyone"],
    ["female", "women"],
  ];
  people = insertCheckedInGuests(
    db,
    event.id,
    answers.map(([gender, wantsToMeet], i) => ({ name: `Guest ${i}`, gender, wantsToMeet })),
    clockNow - 30 * MINUTE,
  );
  // The night as it runs: planned (the planner read the answers once), started, rated.
  expect((await admin.postJson("/api/plan-rounds", { eventID: eventId })).status).toBe(200);
  expect((await admin.postJson("/api/run-rounds", { eventID: eventId, action: "start" })).status).toBe(200);
  // The guest: signed in on /me (the session row written straight in, as sign-in leaves it) and
  // verified for booking, so /me, Download my data and the kept details answer.
  guest = verifiedPhoneBrowser(server, people[0]!.phone);
  const sessionId = "isolation-test-session";
  const expiresAt = clockNow + 30 * 24 * 60 * MINUTE;
  db.insert(guestSessions).values({ id: sessionId, phone: people[0]!.phone, createdAt: clockNow, expiresAt }).run();
  guest.jar.set("sdt_me", signValue(env.SESSION_SECRET, "guest-session", sessionId, expiresAt));
  expect((await guest.get("/api/me")).status).toBe(200);
});

/** A path's `{name}` filled in: a booking's id where it names one, this event's id otherwise. */
function fill(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) =>
    String(/booking/i.test(name) ? people[0]!.bookingId : /user/i.test(name) ? people[0]!.userId : eventId),
  );
}

type Operation = {
  parameters?: { name: string; in: string; required?: boolean }[];
  responses?: Record<string, { content?: Record<string, unknown> }>;
};

/** A reply that never ends (the room's server-sent events): its messages are the round views checked here. */
const streams = (op: Operation) => Object.values(op.responses ?? {}).some((r) => r.content?.["text/event-stream"]);

/** The query a GET declares, each known name filled with this night's values. */
function query(op: Operation): string {
  const values: Record<string, string> = {
    phone: people[0]!.phone,
    eventID: String(eventId),
    eventId: String(eventId),
    event: String(eventId),
    id: String(eventId),
    userID: String(people[0]!.userId),
    bookingId: String(people[0]!.bookingId),
  };
  const params = (op.parameters ?? []).filter((p) => p.in === "query" && values[p.name] !== undefined);
  return params.length ? `?${params.map((p) => `${p.name}=${encodeURIComponent(values[p.name]!)}`).join("&")}` : "";
}

/** Every call, as each caller, answered: status and the body's text. */
async function everything(paths: Record<string, { get?: Operation }>): Promise<Map<string, string>> {
  const seen = new Map<string, string>();
  const callers: [string, BrowserClient][] = [
    ["organiser", admin],
    ["guest", guest],
    ["stranger", anon],
  ];
  for (const [path, ops] of Object.entries(paths)) {
    if (!ops.get || path.startsWith("/api/docs") || path === "/api/openapi.json" || streams(ops.get)) continue;
    const url = fill(path) + query(ops.get);
    for (const [who, client] of callers) {
      const response = await client.get(url);
      seen.set(`${who} GET ${url}`, `${response.status} ${await response.text()}`);
    }
  }
  // The guests' own reads, opened with their links' tokens, for every guest of the night.
  for (const p of people) {
    const start = feedbackToken(server.deps.env, "start", p.userId, eventId);
    const report = feedbackToken(server.deps.env, "report", p.userId, eventId);
    for (const [path, body] of [
      ["/api/my-rounds", { eventID: eventId, userID: p.userId, token: start }],
      ["/api/get-participants", { eventID: eventId, userID: p.userId, token: start }],
      ["/api/get-feedback", { eventID: eventId, userID: p.userId, token: report }],
    ] as const) {
      const response = await anon.postJson(path, body);
      seen.set(`guest ${p.userId} POST ${path}`, `${response.status} ${await response.text()}`);
    }
  }
  return seen;
}

describe("would like to meet, shown to nobody", () => {
  it("changes no reply of any route, nor the CSV, when every guest's answer changes", async () => {
    const doc = (await (await anon.get("/api/openapi.json")).json()) as { paths: Record<string, { get?: Operation }> };
    const gets = Object.keys(doc.paths).filter((p) => doc.paths[p]!.get);
    // The document is the list of routes: the CSV and the organiser's views are among them.
    expect(gets).toContain("/api/admin-event/{id}/participants.csv");
    expect(gets).toContain("/api/admin-event/{id}/rounds");
    expect(gets).toContain("/api/me-data");
    // The only reply left out is the room's stream, which carries the round views called below.
    expect(gets.filter((p) => streams(doc.paths[p]!.get!))).toEqual(["/api/round-events"]);

    const before = await everything(doc.paths);
    // Replies that answered with data, not only refusals: the check has something to look at.
    const answered = [...before.values()].filter((v) => v.startsWith("200")).length;
    expect(answered).toBeGreaterThan(15);
    expect(before.get(`organiser GET /api/admin-event/${eventId}/participants.csv`)).toMatch(/^200 /);
    expect(before.get(`guest GET /api/me-data`)).toMatch(/^200 /);

    const { db } = server.deps;
    for (const p of people) {
      const row = db.select({ wants: users.wantsToMeet }).from(users).where(eq(users.id, p.userId)).get()!;
      db.update(users).set({ wantsToMeet: NEXT[row.wants!] }).where(eq(users.id, p.userId)).run();
    }
    const after = await everything(doc.paths);
    const differing = [...before.keys()].filter((k) => before.get(k) !== after.get(k));
    expect(differing).toEqual([]);
    // And no reply names the field at all.
    for (const [call, text] of after) expect(`${call}: ${text}`).not.toMatch(/wants_?to_?meet|would like to meet/i);
  });

  it("is what the planner reads: a re-plan after the answers change seats other pairs", async () => {
    const { db } = server.deps;
    // Only the planner's own view may differ: the plan made from new answers.
    db.update(events).set({ status: "started" }).where(eq(events.id, eventId)).run();
    db.update(users)
      .set({ wantsToMeet: "everyone" })
      .where(
        inArray(
          users.id,
          people.map((p) => p.userId),
        ),
      )
      .run();
    const first = await admin.get(`/api/admin-event/${eventId}/rounds`);
    const before = ((await first.json()) as { rounds: unknown[] }).rounds;
    const replanned = await admin.postJson("/api/plan-rounds", { eventID: eventId });
    expect(replanned.status).toBe(200);
    const after = ((await replanned.json()) as { rounds: unknown[] }).rounds;
    expect(after).not.toEqual(before);
  });
});
