import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { bookings, events, outboxMessages } from "../../db/schema.ts";
import { type BrowserClient, browserClient, suiteTestServer } from "../../test/api-harness.ts";
import { insertEvent, insertPaidBookings } from "../../test/fixtures.ts";
import { hostAccessHelpers, json, PASSWORD } from "../../test/suites/host-access.ts";
import { feedbackToken } from "../lib/capability.ts";
import { queueRatingReminders } from "./results.ts";

// Whose rating a paper card may fill, what a host sees of the ratings, and who came to a night
// (docs/decisions/021-results.md, 022-host-access.md), over real HTTP.

const server = suiteTestServer();
const HOUR = 3_600_000;

let admin: BrowserClient;
let anon: BrowserClient;
beforeAll(async () => {
  admin = browserClient(server.url);
  anon = browserClient(server.url);
  expect((await admin.postJson("/api/admin-login", { password: PASSWORD })).status).toBe(200);
});

type Person = { userId: number; bookingId: number; phone: string };
const reply = async (response: Response) => ({
  status: response.status,
  body: (await response.json()) as Record<string, unknown>,
});

async function night(men: number, women: number, status: "started" | "upcoming" = "started") {
  const { db, env } = server.deps;
  const event = await insertEvent(db, env.UPLOADS_DIR, {
    name: "Harbour Mixer",
    status,
    startsAt: server.deps.now() - HOUR,
  });
  const m = insertPaidBookings(db, event.id, men, { gender: "male" }) as Person[];
  const f = insertPaidBookings(db, event.id, women, { gender: "female" }) as Person[];
  return { id: event.id, m, f };
}

const checkIn = (...people: Person[]) => {
  for (const p of people) {
    server.deps.db.update(bookings).set({ checkedInAt: server.deps.now() }).where(eq(bookings.id, p.bookingId)).run();
  }
};
const tap = async (eventId: number, from: Person, to: Person, feedback: "like" | "dislike") =>
  reply(
    await anon.postJson("/api/save-feedback", {
      eventID: eventId,
      fromUserID: from.userId,
      toUserID: to.userId,
      feedback,
      token: feedbackToken(server.deps.env, "start", from.userId, eventId),
    }),
  );
const paper = async (client: BrowserClient, eventId: number, from: Person, to: Person, feedback: string) =>
  reply(
    await client.postJson("/api/admin-save-feedback", {
      eventID: eventId,
      fromUserID: from.userId,
      toUserID: to.userId,
      feedback,
    }),
  );
const report = async (eventId: number, p: Person) =>
  reply(
    await anon.postJson("/api/get-feedback", {
      eventID: eventId,
      userID: p.userId,
      token: feedbackToken(server.deps.env, "report", p.userId, eventId),
    }),
  );
const endEvent = async (eventId: number) => reply(await admin.postJson("/api/end-event", { eventId }));
const release = async (eventId: number) => reply(await admin.postJson("/api/release-results", { eventId }));
const textsTo = async (p: Person) =>
  (await json<{ to: string; body: string }[]>(await fetch(`${server.url}/api/dev/outbox`)))
    .filter((m) => m.to === p.phone)
    .map((m) => m.body);

describe("a paper card and the guest's own choice", () => {
  it("never replaces the guest's Dislike, so the results show no match and no number", async () => {
    const e = await night(1, 1);
    const [m0] = e.m as [Person];
    const [f0] = e.f as [Person];
    expect((await tap(e.id, f0, m0, "dislike")).status).toBe(200);
    expect((await tap(e.id, m0, f0, "like")).status).toBe(200);

    // Typed in after her tap: refused, and her Dislike stands.
    expect(await paper(admin, e.id, f0, m0, "like")).toMatchObject({
      status: 409,
      body: { code: "rated_by_guest" },
    });

    expect((await endEvent(e.id)).status).toBe(200);
    expect((await release(e.id)).status).toBe(200);
    const m0Report = await report(e.id, m0);
    expect(m0Report.status).toBe(200);
    expect(m0Report.body.mutual).toEqual([]);
    expect(JSON.stringify(m0Report.body)).not.toContain(f0.phone);
    const f0Texts = await textsTo(f0);
    expect(f0Texts.some((t) => t.includes("1 mutual match"))).toBe(false);
  });

  it("fills a pair the guest has not rated, may be corrected by staff, and gives way to the guest's own tap", async () => {
    const e = await night(1, 1);
    const [m0] = e.m as [Person];
    const [f0] = e.f as [Person];
    expect(await paper(admin, e.id, f0, m0, "like")).toMatchObject({ status: 200, body: { feedback: "like" } });
    expect(await paper(admin, e.id, f0, m0, "dislike")).toMatchObject({ status: 200, body: { feedback: "dislike" } });
    // Her own tap wins over the card, whatever its time.
    expect(await tap(e.id, f0, m0, "like")).toMatchObject({ status: 200, body: { feedback: "like" } });
    expect(await paper(admin, e.id, f0, m0, "dislike")).toMatchObject({
      status: 409,
      body: { code: "rated_by_guest" },
    });
  });
});

describe("what staff see of the ratings", () => {
  const { newLink, hostPhone } = hostAccessHelpers(server, () => admin);
  type Ratings = {
    people: { id: number; partners: { id: number; feedback: string | null; rated: boolean; by: string | null }[] }[];
  };

  it("gives a host rated-or-not per pair and never the choice; the organiser sees choices", async () => {
    const e = await night(2, 1);
    const [m0, m1] = e.m as [Person, Person];
    const [f0] = e.f as [Person];
    await tap(e.id, f0, m0, "dislike");
    await paper(admin, e.id, f0, m1, "like");

    const { phone } = await hostPhone(await newLink(e.id));
    const hosts = await reply(await phone.get(`/api/admin-event/${e.id}/ratings`));
    expect(hosts.status).toBe(200);
    expect(JSON.stringify(hosts.body)).not.toMatch(/"(like|dislike)"/);
    const hersForHost = (hosts.body as unknown as Ratings).people.find((p) => p.id === f0.userId)!;
    expect(hersForHost.partners).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: m0.userId, rated: true, by: "guest", feedback: null }),
        expect.objectContaining({ id: m1.userId, rated: true, by: "staff", feedback: null }),
      ]),
    );
    const his = (hosts.body as unknown as Ratings).people.find((p) => p.id === m0.userId)!;
    expect(his.partners).toEqual([expect.objectContaining({ id: f0.userId, rated: false, by: null, feedback: null })]);

    const organisers = await json<Ratings>(await admin.get(`/api/admin-event/${e.id}/ratings`));
    expect(organisers.people.find((p) => p.id === f0.userId)!.partners).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: m0.userId, rated: true, by: "guest", feedback: "dislike" }),
        expect.objectContaining({ id: m1.userId, rated: true, by: "staff", feedback: "like" }),
      ]),
    );
  });
});

describe("who came", () => {
  it("thanks those who came, says sorry once to a no-show with no link and nothing at the release, and counts only those who came", async () => {
    const e = await night(2, 2);
    const [m0, m1] = e.m as [Person, Person];
    const [f0, f1] = e.f as [Person, Person];
    // f1 never arrives.
    checkIn(m0, m1, f0);
    expect((await tap(e.id, m0, f0, "like")).status).toBe(200);
    expect((await tap(e.id, f0, m0, "like")).status).toBe(200);
    expect((await tap(e.id, f0, m1, "dislike")).status).toBe(200);

    const summary = async () =>
      json<{ came: number; noShows: number; ratings: { done: number; total: number }; feedbackGiven: number | null }>(
        await admin.get(`/api/admin-event-summary/${e.id}`),
      );
    expect(await summary()).toMatchObject({ came: 3, noShows: 1, ratings: { done: 2, total: 3 } });
    // The no-show met nobody: her page lists nobody to rate.
    const hers = await anon.postJson("/api/get-participants", {
      eventID: e.id,
      userID: f1.userId,
      token: feedbackToken(server.deps.env, "start", f1.userId, e.id),
    });
    expect(await json(hers)).toMatchObject({ participants: [] });

    expect((await endEvent(e.id)).status).toBe(200);
    const sorry = await textsTo(f1);
    expect(sorry).toEqual(["Sorry we missed you at Harbour Mixer. Questions? support@example.com"]);
    const thanks = await textsTo(f0);
    expect(thanks).toHaveLength(1);
    expect(thanks[0]).toMatch(/^Thanks for coming to Harbour Mixer!/);

    // Ratings progress: the same numbers in the summary and the Rounds tab's view, the no-show left out.
    const s = await summary();
    expect(s).toMatchObject({ came: 3, noShows: 1, ratings: { done: 2, total: 3 }, feedbackGiven: 2 });
    const ratings = await json<{ ratings: { done: number; total: number }; people: { id: number; done: boolean }[] }>(
      await admin.get(`/api/admin-event/${e.id}/ratings`),
    );
    expect(ratings.ratings).toEqual({ done: 2, total: 3 });
    expect(ratings.people.filter((p) => p.done)).toHaveLength(2);
    expect(ratings.people.find((p) => p.id === f1.userId)?.done ?? false).toBe(false);

    expect((await release(e.id)).status).toBe(200);
    expect(await textsTo(f1)).toEqual(sorry);
    expect((await textsTo(f0)).some((t) => t.includes("1 mutual match"))).toBe(true);
    expect((await textsTo(m1)).some((t) => t.includes("No mutual match this time"))).toBe(true);
  });

  it("sends rating reminders only to guests who came and have someone left to rate", async () => {
    const e = await night(1, 2);
    const [m0] = e.m as [Person];
    const [f0, f1] = e.f as [Person, Person];
    checkIn(m0, f0);
    expect((await endEvent(e.id)).status).toBe(200);
    const event = server.deps.db.select().from(events).where(eq(events.id, e.id)).get()!;
    // Due just past the quiet hour after the end, well before the results time.
    const at = (event.endedAt ?? 0) + HOUR + 60_000;
    queueRatingReminders({ db: server.deps.db, env: { ...server.deps.env, RATING_REMINDER_HOURS: 48 } }, at);
    const reminded = (p: Person) =>
      server.deps.db
        .select()
        .from(outboxMessages)
        .where(eq(outboxMessages.dedupeKey, `rating-reminder:${e.id}:${p.userId}`))
        .get() !== undefined;
    expect(reminded(m0)).toBe(true);
    expect(reminded(f0)).toBe(true);
    expect(reminded(f1)).toBe(false);
  });
});

describe("the rating page after the release", () => {
  it("lists each partner with the caller's saved choice, and once released when ratings closed and the report link", async () => {
    const e = await night(2, 1);
    const [m0, m1] = e.m as [Person, Person];
    const [f0] = e.f as [Person];
    await tap(e.id, f0, m0, "dislike");
    const list = async () =>
      reply(
        await anon.postJson("/api/get-participants", {
          eventID: e.id,
          userID: f0.userId,
          token: feedbackToken(server.deps.env, "start", f0.userId, e.id),
        }),
      );
    const open = await list();
    expect(open.body).toMatchObject({ ratingsClosedAt: null, reportPath: null, timeZone: "Australia/Sydney" });
    expect(open.body.participants).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: m0.userId, myChoice: "dislike" }),
        expect.objectContaining({ id: m1.userId, myChoice: null }),
      ]),
    );

    await endEvent(e.id);
    await release(e.id);
    // A late Like is refused, and the Dislike stands.
    expect(await tap(e.id, f0, m0, "like")).toMatchObject({ status: 409, body: { code: "ratings_closed" } });
    const closed = await list();
    expect(closed.body.ratingsClosedAt).toEqual(expect.any(String));
    expect(closed.body.reportPath).toBe(
      `/EventFeedback?par1=${e.id}&par2=${f0.userId}&t=${feedbackToken(server.deps.env, "report", f0.userId, e.id)}`,
    );
    expect(closed.body.participants).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: m0.userId, myChoice: "dislike" })]),
    );
  });
});
