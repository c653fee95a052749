import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { events, users } from "../../db/schema.ts";
import { browserClient, suiteTestServer } from "../../test/api-harness.ts";
import { insertEvent, insertPaidBookings } from "../../test/fixtures.ts";
import { feedbackToken } from "../lib/capability.ts";

// Issue 37, parts 2 and 3 over real HTTP: Friend as a third choice (Date + Date a mutual match, Date
// or Friend both ways a friend match, anything with No none), and each side of a match choosing what
// the other sees (Mobile by default, Email, Instagram, Nothing). Someone who said No to a person sees
// none of that person's details, in any group.

const server = suiteTestServer();
let anon: ReturnType<typeof browserClient>;
beforeAll(() => {
  anon = browserClient(server.url);
});
const HOUR = 3_600_000;

type Person = { userId: number; phone: string };
type Entry = {
  id: number;
  username: string;
  phone?: string;
  email?: string;
  instagram?: string;
  sharedNothing?: true;
  myShare?: string;
  myInstagram?: string | null;
};
type Report = { mutual: Entry[]; friends: Entry[]; likedme: Entry[]; iliked: Entry[]; offersFriend: boolean };

async function night(offersFriend: boolean, men = 2, women = 2) {
  const { db, env } = server.deps;
  const event = await insertEvent(db, env.UPLOADS_DIR, {
    status: "started",
    startsAt: Date.now() - 4 * HOUR,
    offersFriend,
  });
  const m: Person[] = insertPaidBookings(db, event.id, men, { gender: "male" });
  const f: Person[] = insertPaidBookings(db, event.id, women, { gender: "female" });
  return { id: event.id, m, f };
}

const tap = async (eventId: number, from: Person, to: Person, feedback: string) => {
  const response = await anon.postJson("/api/save-feedback", {
    eventID: eventId,
    fromUserID: from.userId,
    toUserID: to.userId,
    feedback,
    token: feedbackToken(server.deps.env, "start", from.userId, eventId),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

const release = (eventId: number) =>
  server.deps.db
    .update(events)
    .set({ status: "ended", resultsReleasedAt: Date.now() })
    .where(eq(events.id, eventId))
    .run();

async function report(eventId: number, p: Person): Promise<Report> {
  const response = await anon.postJson("/api/get-feedback", {
    eventID: eventId,
    userID: p.userId,
    token: feedbackToken(server.deps.env, "report", p.userId, eventId),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Report;
}

const share = async (eventId: number, p: Person, partner: Person, choice: string, instagram?: string) => {
  const response = await anon.postJson("/api/share-contact", {
    eventID: eventId,
    userID: p.userId,
    token: feedbackToken(server.deps.env, "report", p.userId, eventId),
    partnerID: partner.userId,
    share: choice,
    ...(instagram === undefined ? {} : { instagram }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

const emailOf = (p: Person) =>
  server.deps.db.select({ email: users.email }).from(users).where(eq(users.id, p.userId)).get()!.email;

describe("Friend as a third choice", () => {
  it("is refused with a 400 at a two-choice night, and like and dislike keep their meaning there", async () => {
    const e = await night(false);
    const [m1] = e.m;
    const [f1] = e.f;
    const refused = await tap(e.id, m1!, f1!, "friend");
    expect(refused.status).toBe(400);
    expect(String(refused.body.error)).toMatch(/Friend/);
    expect((await tap(e.id, m1!, f1!, "like")).status).toBe(200);
    expect((await tap(e.id, f1!, m1!, "like")).status).toBe(200);
    release(e.id);
    const r = await report(e.id, m1!);
    expect(r.offersFriend).toBe(false);
    expect(r.mutual.map((p) => p.id)).toEqual([f1!.userId]);
    expect(r.friends).toEqual([]);
    // Mobile by default: today's behaviour until someone chooses otherwise.
    expect(r.mutual[0]!.phone).toBe(f1!.phone);
  });

  it("makes Date + Date a mutual match, Date + Friend and Friend + Friend friend matches, and anything with No none", async () => {
    const e = await night(true, 3, 3);
    const [m1, m2, m3] = e.m as [Person, Person, Person];
    const [f1, f2, f3] = e.f as [Person, Person, Person];
    const participants = await anon.postJson("/api/get-participants", {
      userID: m1.userId,
      eventID: e.id,
      token: feedbackToken(server.deps.env, "start", m1.userId, e.id),
    });
    expect(await participants.json()).toMatchObject({ offersFriend: true });
    // m1: Date f1 (Date back), Friend f2 (Date back), Date f3 (No back).
    for (const [from, to, value] of [
      [m1, f1, "like"],
      [f1, m1, "like"],
      [m1, f2, "friend"],
      [f2, m1, "like"],
      [m1, f3, "like"],
      [f3, m1, "dislike"],
      [m2, f1, "friend"],
      [f1, m2, "friend"],
      [m3, f2, "dislike"],
      [f2, m3, "friend"],
    ] as const) {
      expect((await tap(e.id, from, to, value)).status).toBe(200);
    }
    release(e.id);
    const r1 = await report(e.id, m1);
    expect(r1.mutual.map((p) => p.id)).toEqual([f1.userId]);
    expect(r1.friends.map((p) => p.id)).toEqual([f2.userId]);
    expect(r1.likedme).toEqual([]);
    expect(r1.iliked.map((p) => p.id)).toEqual([f3.userId]);
    // f3 said No: m1 sees nothing of her.
    expect(r1.iliked[0]).not.toHaveProperty("phone");

    const r2 = await report(e.id, m2);
    expect(r2.friends.map((p) => p.id)).toEqual([f1.userId]);
    expect(r2.mutual).toEqual([]);

    // m3 said No to f2, who chose Friend for him: she is under "They liked you", without her number.
    const r3 = await report(e.id, m3);
    expect(r3.likedme.map((p) => p.id)).toEqual([f2.userId]);
    expect(r3.likedme[0]).not.toHaveProperty("phone");
    expect(r3.likedme[0]).not.toHaveProperty("email");
    expect(JSON.stringify(r3)).not.toContain(f2.phone);
  });

  it("counts friend matches in the results text", async () => {
    const { resultsText } = await import("./results.ts");
    const event = server.deps.db.select().from(events).limit(1).get()!;
    expect(resultsText(server.deps.env, event, 1, 1, 2)).toContain("1 mutual match and 2 friend matches");
    expect(resultsText(server.deps.env, event, 1, 0, 1)).toContain("1 friend match!");
    expect(resultsText(server.deps.env, event, 1, 0, 0)).toContain("No mutual match this time");
  });
});

describe("choosing what a match sees", () => {
  it("shows only what each side chose for the other, at once, and the sentence for Nothing", async () => {
    const e = await night(true);
    const [m1] = e.m as [Person];
    const [f1] = e.f as [Person];
    await tap(e.id, m1, f1, "like");
    await tap(e.id, f1, m1, "friend");
    release(e.id);

    // Before anyone chooses: Mobile both ways, and each side's own choice shows as Mobile.
    let seenByM = (await report(e.id, m1)).friends[0]!;
    expect(seenByM).toMatchObject({ id: f1.userId, phone: f1.phone, myShare: "mobile" });

    expect((await share(e.id, f1, m1, "email")).body).toEqual({ share: "email", instagram: null });
    seenByM = (await report(e.id, m1)).friends[0]!;
    expect(seenByM.email).toBe(emailOf(f1));
    expect(seenByM).not.toHaveProperty("phone");

    expect((await share(e.id, f1, m1, "instagram", "@priya.s_92")).body).toEqual({
      share: "instagram",
      instagram: "priya.s_92",
    });
    seenByM = (await report(e.id, m1)).friends[0]!;
    expect(seenByM.instagram).toBe("priya.s_92");
    expect(seenByM).not.toHaveProperty("phone");
    expect(seenByM).not.toHaveProperty("email");

    expect((await share(e.id, f1, m1, "nothing")).status).toBe(200);
    const r = await report(e.id, m1);
    expect(r.friends[0]).toMatchObject({ id: f1.userId, sharedNothing: true });
    const text = JSON.stringify(r);
    expect(text).not.toContain(f1.phone);
    expect(text).not.toContain(emailOf(f1));
    expect(text).not.toContain("priya");

    // Her own report remembers her choice for him; his details still show for her (Mobile by default).
    const hers = (await report(e.id, f1)).friends[0]!;
    expect(hers).toMatchObject({ id: m1.userId, phone: m1.phone, myShare: "nothing" });
  });

  it("makes a guest's last choice the default for their next match, at a later night too", async () => {
    const first = await night(false, 1, 1);
    const [m1] = first.m as [Person];
    const [f1] = first.f as [Person];
    await tap(first.id, m1, f1, "like");
    await tap(first.id, f1, m1, "like");
    release(first.id);
    expect((await share(first.id, m1, f1, "email")).status).toBe(200);

    // The same man (same number) at another night, matched again.
    const { db, env } = server.deps;
    const second = await insertEvent(db, env.UPLOADS_DIR, { status: "started", startsAt: Date.now() - 4 * HOUR });
    const women: Person[] = insertPaidBookings(db, second.id, 1, { gender: "female" });
    const men: Person[] = insertPaidBookings(db, second.id, 1, { gender: "male" });
    const [f2] = women as [Person];
    const [m1again] = men as [Person];
    db.update(users).set({ phone: m1.phone }).where(eq(users.id, m1again.userId)).run();
    const me = { ...m1again, phone: m1.phone };
    await tap(second.id, me, f2, "like");
    await tap(second.id, f2, me, "like");
    release(second.id);
    expect((await report(second.id, me)).mutual[0]).toMatchObject({ myShare: "email" });
    const seenByHer = (await report(second.id, f2)).mutual[0]!;
    expect(seenByHer).toHaveProperty("email");
    expect(seenByHer).not.toHaveProperty("phone");
  });

  // Issue 46, item 4 (docs/decisions/040-sharing-defaults-and-stream-rights.md): a match's default is
  // set once, when the results are released, from the guest's last choice before that night, or Mobile.
  it("Ananya's walk: Email for Rohan and Nothing for Sanjay leave Vikram on Mobile, and the next night starts from her last choice", async () => {
    const { db, env } = server.deps;
    const first = await night(false, 3, 1);
    const [rohan, sanjay, vikram] = first.m as [Person, Person, Person];
    const [ananya] = first.f as [Person];
    db.update(users).set({ name: "Ananya Sharma" }).where(eq(users.id, ananya.userId)).run();
    for (const man of [rohan, sanjay, vikram]) {
      await tap(first.id, ananya, man, "like");
      await tap(first.id, man, ananya, "like");
    }
    const { releaseResults } = await import("./results.ts");
    const released = async (eventId: number) => {
      db.update(events).set({ status: "ended" }).where(eq(events.id, eventId)).run();
      expect((await releaseResults(server.deps, eventId)).releasedNow).toBe(true);
    };
    await released(first.id);
    expect((await share(first.id, ananya, rohan, "email")).status).toBe(200);
    expect((await share(first.id, ananya, sanjay, "nothing")).status).toBe(200);

    // Vikram, whom she left alone, still gets her number: no "chose not to share".
    const herForVikram = (await report(first.id, vikram)).mutual.find((p) => p.id === ananya.userId)!;
    expect(herForVikram).toMatchObject({ phone: ananya.phone });
    expect(herForVikram).not.toHaveProperty("sharedNothing");
    expect((await report(first.id, rohan)).mutual[0]).toMatchObject({ email: emailOf(ananya) });
    expect((await report(first.id, sanjay)).mutual[0]).toMatchObject({ sharedNothing: true });
    // Her own page: Mobile (the default) for Vikram, each other match as she chose.
    const mine = Object.fromEntries((await report(first.id, ananya)).mutual.map((p) => [p.id, p.myShare]));
    expect(mine).toEqual({ [rohan.userId]: "email", [sanjay.userId]: "nothing", [vikram.userId]: "mobile" });

    // Her next night (same number): its default is her last choice made before it, Nothing (for Sanjay).
    const second = await insertEvent(db, env.UPLOADS_DIR, { status: "started", startsAt: Date.now() - 2 * HOUR });
    const men: Person[] = insertPaidBookings(db, second.id, 1, { gender: "male" });
    const women: Person[] = insertPaidBookings(db, second.id, 1, { gender: "female" });
    const [arjun] = men as [Person];
    const [again] = women as [Person];
    db.update(users).set({ phone: ananya.phone }).where(eq(users.id, again.userId)).run();
    const her = { ...again, phone: ananya.phone };
    await tap(second.id, her, arjun, "like");
    await tap(second.id, arjun, her, "like");
    await released(second.id);
    expect((await report(second.id, her)).mutual[0]).toMatchObject({ id: arjun.userId, myShare: "nothing" });
    expect((await report(second.id, arjun)).mutual[0]).toMatchObject({ sharedNothing: true });
    // Set once, at the release: a choice she changes afterwards on the first night does not reach it.
    expect((await share(first.id, ananya, sanjay, "mobile")).status).toBe(200);
    expect((await report(second.id, arjun)).mutual[0]).toMatchObject({ sharedNothing: true });
    expect((await report(second.id, her)).mutual[0]).toMatchObject({ myShare: "nothing" });
  });

  it("refuses a choice for someone who is not a match, a bad handle, or another guest's link, changing nothing", async () => {
    const e = await night(true);
    const [m1, m2] = e.m as [Person, Person];
    const [f1] = e.f as [Person];
    await tap(e.id, m1, f1, "like");
    await tap(e.id, f1, m1, "dislike");
    await tap(e.id, m2, f1, "like");
    await tap(e.id, f1, m2, "like");
    // Before the results: the report link is early.
    expect((await share(e.id, m2, f1, "nothing")).status).toBe(409);
    release(e.id);
    // She said No to m1: not a match, so m1 has nothing to choose.
    expect((await share(e.id, m1, f1, "nothing")).status).toBe(404);
    const badHandle = await share(e.id, m2, f1, "instagram", "no spaces allowed");
    expect(badHandle.status).toBe(400);
    expect(String(badHandle.body.error)).toMatch(/Instagram handle/);
    expect((await share(e.id, m2, f1, "instagram")).status).toBe(400);
    expect((await share(e.id, m2, f1, "everything")).status).toBe(400);
    // m1's report token cannot speak for m2.
    const forged = await anon.postJson("/api/share-contact", {
      eventID: e.id,
      userID: m2.userId,
      token: feedbackToken(server.deps.env, "report", m1.userId, e.id),
      partnerID: f1.userId,
      share: "nothing",
    });
    expect(forged.status).toBe(403);
    // The start link (the partners page) is not the report's.
    const startLink = await anon.postJson("/api/share-contact", {
      eventID: e.id,
      userID: m2.userId,
      token: feedbackToken(server.deps.env, "start", m2.userId, e.id),
      partnerID: f1.userId,
      share: "nothing",
    });
    expect(startLink.status).toBe(403);
    // Nothing changed: she still sees m2's number.
    expect((await report(e.id, f1)).mutual[0]).toMatchObject({ id: m2.userId, phone: m2.phone });
  });
});

describe("offering Friend on the event", () => {
  it("is set on Edit before the night, shows on the event, and is 409 format_locked once the night has started", async () => {
    const admin = browserClient(server.url);
    expect((await admin.postJson("/api/admin-login", { password: "correct horse battery staple" })).status).toBe(200);
    const { db, env } = server.deps;
    const event = await insertEvent(db, env.UPLOADS_DIR, { startsAt: Date.now() + 10 * 24 * HOUR });
    const date = new Date(event.startsAt).toISOString().slice(0, 10);
    const edit = (offersFriend: boolean) =>
      admin.postJson("/api/update-event", {
        eventid: event.id,
        eventName: event.name,
        eventDate: date,
        totalSeats: 10,
        offersFriend,
      });
    expect((await edit(true)).status).toBe(200);
    const shown = (await (await anon.get(`/api/get-event/${event.id}`)).json()) as { offersFriend: boolean };
    expect(shown.offersFriend).toBe(true);

    db.update(events).set({ status: "started" }).where(eq(events.id, event.id)).run();
    const locked = await edit(false);
    expect(locked.status).toBe(409);
    expect(await locked.json()).toMatchObject({ code: "format_locked" });
    expect(db.select().from(events).where(eq(events.id, event.id)).get()!.offersFriend).toBe(true);
    // Leaving it as it is still saves the rest.
    expect((await edit(true)).status).toBe(200);
  });
});
