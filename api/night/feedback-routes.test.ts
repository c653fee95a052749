import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { defaultResultsAt } from "../../common/results-time.ts";
import { bookings, events, users } from "../../db/schema.ts";
import { suiteTestServer } from "../../test/api-harness.ts";
import { insertEvent, insertPaidBookings } from "../../test/fixtures.ts";
import { feedbackToken } from "../lib/capability.ts";

const server = suiteTestServer();

const request = (path: string, body: unknown) =>
  fetch(`${server.url}/api/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
const post = async (path: string, body: unknown) => {
  const response = await request(path, body);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};
/** The start link's token (partners page and saving). */
const token = (userId: number, eventId: number) => feedbackToken(server.deps.env, "start", userId, eventId);
/** The end link's token (the report). */
const reportToken = (userId: number, eventId: number) => feedbackToken(server.deps.env, "report", userId, eventId);
const setStatus = (e: { eventId: number }, status: "upcoming" | "started" | "ended") =>
  server.deps.db.update(events).set({ status }).where(eq(events.id, e.eventId)).run();
/** Ends the night and releases its results, as Release results does (its texts are tested in results.test.ts). */
const release = (e: { eventId: number }) =>
  server.deps.db
    .update(events)
    .set({ status: "ended", resultsReleasedAt: server.deps.now() })
    .where(eq(events.id, e.eventId))
    .run();

type Person = { userId: number; phone: string };

/** A started event with two men (Arjun, Vikram) and two women (Priya, Anika), paid. */
async function scriptedEvent(status: "upcoming" | "started" | "ended" | "cancelled" = "started") {
  const { db, env } = server.deps;
  const event = await insertEvent(db, env.UPLOADS_DIR);
  db.update(events).set({ status }).where(eq(events.id, event.id)).run();
  const one = (name: string, gender: "male" | "female"): Person => {
    const [p] = insertPaidBookings(db, event.id, 1, { name, gender });
    db.update(users)
      .set({ thumbName: `${name.toLowerCase().padEnd(32, "0").slice(0, 32)}-thumb.jpg` })
      .where(eq(users.id, p!.userId))
      .run();
    return p!;
  };
  return {
    eventId: event.id,
    vikram: one("Vikram", "male"),
    arjun: one("Arjun", "male"),
    priya: one("Priya", "female"),
    anika: one("Anika", "female"),
  };
}

const save = (
  e: { eventId: number },
  from: Person,
  to: Person,
  feedback: "like" | "dislike",
  clientTs?: number,
  t = token(from.userId, e.eventId),
) =>
  post("save-feedback", {
    fromUserID: from.userId,
    toUserID: to.userId,
    eventID: e.eventId,
    feedback,
    token: t,
    ...(clientTs === undefined ? {} : { clientTs }),
  });

describe("capability tokens", () => {
  it("refuses every call without the token that matches the user and the event", async () => {
    const e = await scriptedEvent();
    const other = await scriptedEvent();
    const { vikram, priya } = e;
    const tokensFor = (page: typeof token) => ({
      missing: undefined,
      "of another user": page(priya.userId, e.eventId),
      "of another event": page(vikram.userId, other.eventId),
      forged: "x".repeat(43),
      "not a string": 12345,
    });
    const start = Object.entries(tokensFor(token));
    const report = Object.values(tokensFor(reportToken));
    for (const [i, [label, t]] of start.entries()) {
      const calls = [
        post("get-participants", { userID: vikram.userId, eventID: e.eventId, token: t }),
        post("get-feedback", { userID: vikram.userId, eventID: e.eventId, token: report[i] }),
        post("save-feedback", {
          fromUserID: vikram.userId,
          toUserID: priya.userId,
          eventID: e.eventId,
          feedback: "like",
          token: t,
        }),
      ];
      for (const reply of await Promise.all(calls)) {
        expect(reply, `token ${label}`).toEqual({
          status: 403,
          body: { success: false, error: "this feedback link is not valid", code: "invalid_link" },
        });
      }
    }
  });

  it("opens the report only with the end link's token, not the start link's, even after the release", async () => {
    const e = await scriptedEvent("ended");
    release(e);
    const refused = await post("get-feedback", {
      userID: e.vikram.userId,
      eventID: e.eventId,
      token: token(e.vikram.userId, e.eventId),
    });
    expect(refused).toEqual({
      status: 403,
      body: { success: false, error: "this feedback link is not valid", code: "invalid_link" },
    });
    const opened = await post("get-feedback", {
      userID: e.vikram.userId,
      eventID: e.eventId,
      token: reportToken(e.vikram.userId, e.eventId),
    });
    expect(opened.status).toBe(200);
  });

  it("does not let the end link's token list partners or save a tap", async () => {
    const e = await scriptedEvent("ended");
    const t = reportToken(e.vikram.userId, e.eventId);
    const refused = {
      status: 403,
      body: { success: false, error: "this feedback link is not valid", code: "invalid_link" },
    };
    expect(await post("get-participants", { userID: e.vikram.userId, eventID: e.eventId, token: t })).toEqual(refused);
    expect(await save(e, e.vikram, e.priya, "like", 1_000, t)).toEqual(refused);
    // Nothing was stored: once the results are out, Priya's report shows no like from Vikram.
    release(e);
    const hers = await post("get-feedback", {
      userID: e.priya.userId,
      eventID: e.eventId,
      token: reportToken(e.priya.userId, e.eventId),
    });
    expect(hers.body).toEqual({ mutual: [], friends: [], likedme: [], iliked: [], offersFriend: false });
  });

  it("refuses the start link with par1 and par2 swapped, as the report page would send it", async () => {
    const e = await scriptedEvent("started");
    await save(e, e.priya, e.vikram, "like");
    const startLink = new URLSearchParams({
      par1: String(e.vikram.userId),
      par2: String(e.eventId),
      t: token(e.vikram.userId, e.eventId),
    });
    // /EventFeedback reads par1 as the event and par2 as the user.
    const swapped = { eventID: startLink.get("par1"), userID: startLink.get("par2"), token: startLink.get("t") };
    // …and a hand-edited link that puts them back in the report's order.
    const reordered = { eventID: startLink.get("par2"), userID: startLink.get("par1"), token: startLink.get("t") };
    for (const body of [swapped, reordered]) {
      expect(await post("get-feedback", body)).toEqual({
        status: 403,
        body: { success: false, error: "this feedback link is not valid", code: "invalid_link" },
      });
    }
  });

  it("answers 400 for malformed ids and bodies, before looking at anything", async () => {
    for (const body of [
      { userID: "abc", eventID: 1, token: "t" },
      { userID: 0, eventID: 1, token: "t" },
      { userID: 1.5, eventID: 1, token: "t" },
      { eventID: 1, token: "t" },
    ]) {
      const reply = await post("get-participants", body);
      expect(reply.status).toBe(400);
      expect(reply.body.success).toBe(false);
    }
    const e = await scriptedEvent();
    const reply = await post("save-feedback", {
      fromUserID: e.vikram.userId,
      toUserID: e.priya.userId,
      eventID: e.eventId,
      feedback: "love",
      token: token(e.vikram.userId, e.eventId),
    });
    expect(reply.status).toBe(400);
    expect(String(reply.body.error)).toBe('The choice must be one of "like", "friend", "dislike".');
  });
});

describe("POST /api/get-participants", () => {
  it("lists the paid participants of the other gender by name, with thumbnails", async () => {
    const e = await scriptedEvent();
    const reply = await post("get-participants", {
      userID: e.vikram.userId,
      eventID: e.eventId,
      token: token(e.vikram.userId, e.eventId),
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      participants: [
        { id: e.anika.userId, username: "Anika", image_name: `anika${"0".repeat(27)}-thumb.jpg`, myChoice: null },
        { id: e.priya.userId, username: "Priya", image_name: `priya${"0".repeat(27)}-thumb.jpg`, myChoice: null },
      ],
      offersFriend: false,
      ratingsClosedAt: null,
      timeZone: "Australia/Sydney",
      reportPath: null,
    });

    // Ids as text, the way the link carries them, work too.
    const women = await post("get-participants", {
      userID: String(e.priya.userId),
      eventID: String(e.eventId),
      token: token(e.priya.userId, e.eventId),
    });
    expect((women.body.participants as { username: string }[]).map((p) => p.username)).toEqual(["Arjun", "Vikram"]);
  });

  it("leaves out refunded and unpaid attendees, and refuses a caller who was refunded", async () => {
    const e = await scriptedEvent();
    const { db } = server.deps;
    db.update(bookings).set({ status: "refunded" }).where(eq(bookings.userId, e.anika.userId)).run();
    const [held] = insertPaidBookings(db, e.eventId, 1, { gender: "female", name: "Zara" });
    db.update(bookings).set({ status: "held" }).where(eq(bookings.userId, held!.userId)).run();

    const reply = await post("get-participants", {
      userID: e.vikram.userId,
      eventID: e.eventId,
      token: token(e.vikram.userId, e.eventId),
    });
    expect((reply.body.participants as { username: string }[]).map((p) => p.username)).toEqual(["Priya"]);

    const refunded = await post("get-participants", {
      userID: e.anika.userId,
      eventID: e.eventId,
      token: token(e.anika.userId, e.eventId),
    });
    expect(refunded).toEqual({
      status: 403,
      body: { success: false, error: "you are not a participant of this event", code: "not_a_participant" },
    });
  });

  it("stays closed for a cancelled event, even to a paid seat not yet refunded", async () => {
    const e = await scriptedEvent("cancelled");
    const reply = await post("get-participants", {
      userID: e.vikram.userId,
      eventID: e.eventId,
      token: token(e.vikram.userId, e.eventId),
    });
    expect(reply).toEqual({
      status: 409,
      body: { success: false, error: "this event was cancelled", code: "event_cancelled" },
    });
  });

  it("is closed until the event starts", async () => {
    const e = await scriptedEvent("upcoming");
    const reply = await post("get-participants", {
      userID: e.vikram.userId,
      eventID: e.eventId,
      token: token(e.vikram.userId, e.eventId),
    });
    expect(reply).toEqual({
      status: 409,
      body: { success: false, error: "feedback opens when the event starts", code: "feedback_not_open" },
    });
  });
});

describe("POST /api/save-feedback", () => {
  it("saves a like and answers with what is stored", async () => {
    const e = await scriptedEvent();
    const reply = await save(e, e.vikram, e.priya, "like", 1_000);
    expect(reply).toEqual({ status: 200, body: { success: true, feedback: "like", clientTs: 1_000 } });
  });

  it("takes the server's time when no clientTs is given", async () => {
    const e = await scriptedEvent();
    const before = Date.now();
    const reply = await save(e, e.vikram, e.priya, "dislike");
    expect(reply.body.feedback).toBe("dislike");
    expect(reply.body.clientTs).toBeGreaterThanOrEqual(before);
  });

  it("refuses feedback about oneself", async () => {
    const e = await scriptedEvent();
    const reply = await save(e, e.vikram, e.vikram, "like");
    expect(reply).toEqual({
      status: 400,
      body: { success: false, error: "you cannot rate yourself", code: "invalid_request" },
    });
  });

  it("refuses partners who are not participants of the other gender at this event", async () => {
    const e = await scriptedEvent();
    const elsewhere = await scriptedEvent();
    server.deps.db.update(bookings).set({ status: "refunded" }).where(eq(bookings.userId, e.anika.userId)).run();
    for (const to of [e.arjun, e.anika, elsewhere.priya, { userId: 987_654, phone: "" }]) {
      const reply = await save(e, e.vikram, to, "like");
      expect(reply).toEqual({
        status: 404,
        body: { success: false, error: "no such partner at this event", code: "not_found" },
      });
    }
  });

  it("refuses a refunded rater and an event that has not started", async () => {
    const e = await scriptedEvent();
    server.deps.db.update(bookings).set({ status: "refunded" }).where(eq(bookings.userId, e.vikram.userId)).run();
    expect((await save(e, e.vikram, e.priya, "like")).status).toBe(403);

    const upcoming = await scriptedEvent("upcoming");
    expect(await save(upcoming, upcoming.vikram, upcoming.priya, "like")).toEqual({
      status: 409,
      body: { success: false, error: "feedback opens when the event starts", code: "feedback_not_open" },
    });
    const ended = await scriptedEvent("ended");
    expect((await save(ended, ended.vikram, ended.priya, "like")).status).toBe(200);
  });

  it("lets the newest tap win, whatever order the taps arrive in, and ignores replays", async () => {
    const e = await scriptedEvent();
    expect((await save(e, e.vikram, e.priya, "like", 2_000)).body).toMatchObject({ feedback: "like", clientTs: 2_000 });
    // The older tap arrives late: nothing changes, and the reply says what is kept.
    expect((await save(e, e.vikram, e.priya, "dislike", 1_000)).body).toMatchObject({
      feedback: "like",
      clientTs: 2_000,
    });
    // The same tap replayed, even with another value, changes nothing either.
    expect((await save(e, e.vikram, e.priya, "dislike", 2_000)).body).toMatchObject({
      feedback: "like",
      clientTs: 2_000,
    });
    expect((await save(e, e.vikram, e.priya, "dislike", 3_000)).body).toMatchObject({
      feedback: "dislike",
      clientTs: 3_000,
    });
    const replays = await Promise.all([1, 2, 3, 4, 5].map(() => save(e, e.vikram, e.priya, "dislike", 3_000)));
    expect(replays.every((r) => r.status === 200)).toBe(true);

    release(e);
    const report = await post("get-feedback", {
      userID: e.priya.userId,
      eventID: e.eventId,
      token: reportToken(e.priya.userId, e.eventId),
    });
    expect(report.body).toEqual({ mutual: [], friends: [], likedme: [], iliked: [], offersFriend: false });
  });

  it("refuses a clientTs far ahead of the server's clock", async () => {
    const e = await scriptedEvent();
    const reply = await save(e, e.vikram, e.priya, "like", Date.now() + 2 * 86_400_000);
    expect(reply.status).toBe(400);
  });
});

describe("POST /api/get-feedback", () => {
  it("answers 409 with the results time until the results are released, then the report", async () => {
    const e = await scriptedEvent("upcoming");
    await save(e, e.vikram, e.priya, "like");
    const ask = () =>
      post("get-feedback", {
        userID: e.priya.userId,
        eventID: e.eventId,
        token: reportToken(e.priya.userId, e.eventId),
      });
    const event = server.deps.db.select().from(events).where(eq(events.id, e.eventId)).get()!;
    const notYet = {
      status: 409,
      body: {
        success: false,
        error: "the results are not out yet",
        code: "results_not_yet",
        resultsAt: new Date(defaultResultsAt(event)).toISOString(),
        timeZone: event.timeZone,
      },
    };
    expect(await ask()).toEqual(notYet);

    setStatus(e, "started");
    expect((await save(e, e.vikram, e.priya, "like")).status).toBe(200);
    // Mid-event the likes already given stay hidden, phone numbers included.
    expect(await ask()).toEqual(notYet);
    // After the end too: others are still rating until the results time.
    setStatus(e, "ended");
    expect(await ask()).toEqual(notYet);

    release(e);
    const report = await ask();
    expect(report.status).toBe(200);
    expect(report.body).toMatchObject({ likedme: [{ id: e.vikram.userId, phone: e.vikram.phone }] });
  });

  it("splits the partners into mutual, liked me and I liked, with phones only where they liked me and were not told No", async () => {
    const e = await scriptedEvent("ended");
    const { vikram, arjun, priya, anika } = e;
    await save(e, vikram, priya, "like"); // mutual
    await save(e, priya, vikram, "like");
    await save(e, anika, vikram, "like"); // Anika likes Vikram, who said no
    await save(e, vikram, anika, "dislike");
    await save(e, arjun, priya, "like"); // Arjun likes Priya, who said nothing
    await save(e, arjun, anika, "dislike");
    await save(e, anika, arjun, "like"); // Anika likes Arjun, who said no
    release(e);

    const report = async (p: Person) =>
      (await post("get-feedback", { userID: p.userId, eventID: e.eventId, token: reportToken(p.userId, e.eventId) }))
        .body;
    const entry = (p: Person, name: string, withPhone: boolean) => ({
      id: p.userId,
      username: name,
      image_name: `${name.toLowerCase().padEnd(32, "0")}-thumb.jpg`,
      ...(withPhone ? { phone: p.phone } : {}),
    });
    // A match also says what this guest lets the other see: Mobile until they choose (issue 37).
    const match = (p: Person, name: string) => ({ ...entry(p, name, true), myShare: "mobile", myInstagram: null });
    const groups = { friends: [], offersFriend: false };

    // Issue 37: someone who said No to a person sees none of that person's contact details in any
    // group. Vikram said No to Anika and Arjun said No to her: both see that she liked them, without
    // her number. (Before, a No still showed the other's phone under "They liked you".)
    expect(await report(vikram)).toEqual({
      ...groups,
      mutual: [match(priya, "Priya")],
      likedme: [entry(anika, "Anika", false)],
      iliked: [],
    });
    expect(await report(priya)).toEqual({
      ...groups,
      mutual: [match(vikram, "Vikram")],
      likedme: [entry(arjun, "Arjun", true)],
      iliked: [],
    });
    expect(await report(anika)).toEqual({
      ...groups,
      mutual: [],
      likedme: [],
      iliked: [entry(arjun, "Arjun", false), entry(vikram, "Vikram", false)],
    });
    expect(await report(arjun)).toEqual({
      ...groups,
      mutual: [],
      likedme: [entry(anika, "Anika", false)],
      iliked: [entry(priya, "Priya", false)],
    });

    // Once Priya is refunded she leaves everyone's report.
    server.deps.db.update(bookings).set({ status: "refunded" }).where(eq(bookings.userId, priya.userId)).run();
    expect(await report(vikram)).toMatchObject({ mutual: [], likedme: [entry(anika, "Anika", false)] });
    expect((await report(arjun)).iliked).toEqual([]);
  });
});

describe("caching", () => {
  it("marks every feedback answer no-store, refusals included", async () => {
    const e = await scriptedEvent("ended");
    const { vikram, priya } = e;
    const replies = [
      await request("save-feedback", {
        fromUserID: vikram.userId,
        toUserID: priya.userId,
        eventID: e.eventId,
        feedback: "like",
        token: token(vikram.userId, e.eventId),
      }),
    ];
    release(e);
    replies.push(
      await request("get-participants", {
        userID: vikram.userId,
        eventID: e.eventId,
        token: token(vikram.userId, e.eventId),
      }),
      await request("get-feedback", {
        userID: vikram.userId,
        eventID: e.eventId,
        token: reportToken(vikram.userId, e.eventId),
      }),
      await request("get-feedback", { userID: vikram.userId, eventID: e.eventId, token: "wrong" }),
      // A tap after the release is refused, and not cached either.
      await request("save-feedback", {
        fromUserID: vikram.userId,
        toUserID: priya.userId,
        eventID: e.eventId,
        feedback: "dislike",
        token: token(vikram.userId, e.eventId),
      }),
    );
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 403, 409]);
    for (const reply of replies) {
      await reply.body?.cancel();
      expect(reply.headers.get("cache-control")).toBe("no-store");
    }
  });
});
