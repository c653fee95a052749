import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { bookings, users } from "../../db/schema.ts";
import { type BrowserClient, browserClient, suiteTestServer } from "../../test/api-harness.ts";
import { insertEvent, insertPaidBookings } from "../../test/fixtures.ts";

// A host needs a name, a photo and a ticket status, not a gender (issue 46, item 3;
// docs/decisions/040-sharing-defaults-and-stream-rights.md): hosts' replies carry no gender at One
// group and Mixed nights, and at Women meet men only the woman/man the counts need. The organiser's
// own views keep it.

const PASSWORD = "correct horse battery staple";
const MINUTE = 60_000;
const server = suiteTestServer();
let admin: BrowserClient;

beforeAll(async () => {
  admin = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
});

/** A started night of `format` with two women, two men and one non-binary guest, all checked in, planned. */
async function night(format: "mixed" | "women_men") {
  const { db, env, now } = server.deps;
  const event = await insertEvent(db, env.UPLOADS_DIR, {
    format,
    status: "started",
    startsAt: now() - 10 * MINUTE,
    startedAt: now() - 5 * MINUTE,
  });
  const people = [
    ...insertPaidBookings(db, event.id, 2, { gender: "female" }),
    ...insertPaidBookings(db, event.id, 3, { gender: "male" }),
  ].map((p) => p.userId);
  const nonbinary = people[4]!;
  db.update(users).set({ gender: "nonbinary" }).where(eq(users.id, nonbinary)).run();
  for (const id of people) db.update(bookings).set({ checkedInAt: now() }).where(eq(bookings.userId, id)).run();
  expect((await admin.postJson("/api/plan-rounds", { eventID: event.id })).status).toBe(200);
  return { eventId: event.id, nonbinary };
}

async function hostOf(eventId: number) {
  const link = await admin.postJson("/api/host-links", { eventID: eventId, label: "Door" });
  expect(link.status).toBe(200);
  const { url } = (await link.json()) as { url: string };
  const host = browserClient(server.url);
  expect((await host.postJson("/api/host-login", { token: new URL(url).searchParams.get("t") })).status).toBe(200);
  return host;
}

/** Every GET a host may make for the night, and the first message of the room's stream. */
async function hostReachable(client: BrowserClient, eventId: number): Promise<Record<string, string>> {
  const replies: Record<string, string> = {};
  for (const path of [
    `/api/admin-event/${eventId}/roster`,
    `/api/admin-event/${eventId}/rounds`,
    `/api/admin-event/${eventId}/ratings`,
    `/api/admin-event/${eventId}/message-guests`,
  ]) {
    const response = await client.get(path);
    expect(response.status, path).toBe(200);
    replies[path] = await response.text();
  }
  const controller = new AbortController();
  const stream = await client.request(`/api/round-events?eventID=${eventId}`, { signal: controller.signal });
  expect(stream.status).toBe(200);
  const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n\n")) text += (await reader.read()).value ?? "";
  controller.abort();
  replies["/api/round-events"] = text;
  return replies;
}

// The replies' POSTs (plan, run, mark-left) answer the rounds view too.
async function hostPosts(client: BrowserClient, eventId: number, someone: number): Promise<Record<string, string>> {
  const replies: Record<string, string> = {};
  for (const [path, body] of [
    ["/api/plan-rounds", { eventID: eventId }],
    ["/api/mark-left", { eventID: eventId, userID: someone, left: true }],
  ] as const) {
    const response = await client.postJson(path, body);
    expect(response.status, `${path} ${await response.clone().text()}`).toBe(200);
    replies[path] = await response.text();
  }
  return replies;
}

describe("gender in the night's replies", () => {
  it("a host of a Mixed night gets no gender in any reply; the organiser still does", async () => {
    const { eventId, nonbinary } = await night("mixed");
    const host = await hostOf(eventId);
    const seen = { ...(await hostReachable(host, eventId)), ...(await hostPosts(host, eventId, nonbinary)) };
    for (const [path, text] of Object.entries(seen)) {
      expect(text, path).not.toContain("nonbinary");
      expect(text, path).not.toContain('"gender"');
    }
    // The organiser's own views keep it.
    const mine = await hostReachable(admin, eventId);
    for (const path of [
      `/api/admin-event/${eventId}/roster`,
      `/api/admin-event/${eventId}/rounds`,
      `/api/admin-event/${eventId}/ratings`,
    ]) {
      expect(mine[path], path).toContain('"gender":"nonbinary"');
    }
  });

  it("a host of a Women meet men night gets only the woman or man the counts need", async () => {
    const { eventId } = await night("women_men");
    const host = await hostOf(eventId);
    const roster = (await (await host.get(`/api/admin-event/${eventId}/roster`)).json()) as {
      attendees: { gender?: string }[];
    };
    expect(roster.attendees.map((a) => a.gender ?? "none").sort()).toEqual([
      "female",
      "female",
      "male",
      "male",
      "none",
    ]);
    const seen = await hostReachable(host, eventId);
    for (const [path, text] of Object.entries(seen)) expect(text, path).not.toContain("nonbinary");
  });
});
