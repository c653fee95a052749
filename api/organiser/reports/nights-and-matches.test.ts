import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { wallClockToUtc } from "../../../common/venue-time-input.ts";
import { bookings, events, feedback } from "../../../db/schema.ts";
import { suiteTestServer } from "../../../test/api-harness.ts";
import { insertEvent, insertPaidBookings } from "../../../test/fixtures.ts";
import { sessionBrowser } from "../../../test/suites/team.ts";
import { recordMissingAttendance } from "../../night/attendance.ts";

// The nights and matches reports (issue 51): who came is written down when a night ends (End Event
// here, through the API), by the rule the desk uses, and the report's numbers for a night equal its
// Overview's. Nights in a past year, answers counted by hand.

const server = suiteTestServer({ env: { EVENT_TIME_ZONE: "Australia/Sydney" } });
const sydney = (date: string, hour = 19) => wallClockToUtc({ date, hour, minute: 0 }, "Australia/Sydney");

/** A started night of 10 paid (5 women, 5 men), 7 checked in (4 women, 3 men), one of whom left early. */
async function startedNight(name: string, startsAt: number, format: "women_men" | "one_group" | "mixed" = "women_men") {
  const { db, env } = server.deps;
  const event = await insertEvent(db, env.UPLOADS_DIR, {
    name,
    startsAt,
    format,
    totalSeats: 10,
    status: "started",
    startedAt: startsAt,
  });
  const women = insertPaidBookings(db, event.id, 5, { gender: "female" });
  const men = insertPaidBookings(db, event.id, 5, { gender: "male" });
  const checkIn = (ids: number[]) =>
    db.update(bookings).set({ checkedInAt: startsAt }).where(inArray(bookings.id, ids)).run();
  checkIn([...women.slice(0, 4), ...men.slice(0, 3)].map((b) => b.bookingId));
  db.update(bookings)
    .set({ leftAt: startsAt + 3_600_000 })
    .where(eq(bookings.id, men[0]!.bookingId))
    .run();
  return { event, women, men };
}

/** `a` chose `v` for `b` and the other way round. */
function rate(
  eventId: number,
  a: number,
  b: number,
  va: "like" | "friend" | "dislike",
  vb: "like" | "friend" | "dislike",
) {
  const at = Date.now();
  server.deps.db
    .insert(feedback)
    .values([
      { eventId, fromUserId: a, toUserId: b, value: va, clientTs: at, updatedAt: at },
      { eventId, fromUserId: b, toUserId: a, value: vb, clientTs: at, updatedAt: at },
    ])
    .run();
}

let seeded: Promise<{ night: Awaited<ReturnType<typeof startedNight>> }> | undefined;
function seed() {
  seeded ??= (async () => {
    const night = await startedNight("September Night", sydney("2025-09-05"));
    const [w1, w2, w3] = night.women;
    const [m1, m2, m3] = night.men;
    // Two mutual matches, one friend match (Friend and Date), one one-sided like.
    rate(night.event.id, w1!.userId, m1!.userId, "like", "like");
    rate(night.event.id, w2!.userId, m2!.userId, "like", "like");
    rate(night.event.id, w3!.userId, m3!.userId, "friend", "like");
    rate(night.event.id, w1!.userId, m2!.userId, "like", "dislike");
    const admin = sessionBrowser(server, null);
    expect((await admin.postJson("/api/end-event", { eventId: night.event.id })).status).toBe(200);
    return { night };
  })();
  return seeded;
}

const rowsOf = async (name: string, query: string) => {
  await seed();
  const response = await sessionBrowser(server, null).get(`/api/reports/${name}?${query}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { rows: Record<string, unknown>[] }).rows;
};

describe("the nights report", () => {
  it("gives each ended night its paid, came, no-shows, early leavers and show-up rate, as its Overview counts them", async () => {
    const { night } = await seed();
    const [row] = await rowsOf("nights", "from=2025-09&to=2025-09");
    expect(row).toMatchObject({
      eventName: "September Night",
      paid: 10,
      came: 7,
      noShows: 3,
      leftEarly: "fewer than 3",
      showUpPercent: 70,
      averageDates: null,
    });
    const summary = (await (
      await sessionBrowser(server, null).get(`/api/admin-event-summary/${night.event.id}`)
    ).json()) as {
      paid: { total: number };
      came: number;
      noShows: number;
      matches: number | null;
    };
    expect([row?.paid, row?.came, row?.noShows]).toEqual([summary.paid.total, summary.came, summary.noShows]);
  });

  it("writes down who came for a night that ended before it was recorded, by the same rule", async () => {
    await seed();
    const { db } = server.deps;
    const older = await startedNight("August Night", sydney("2025-08-22"));
    db.update(events)
      .set({ status: "ended", endedAt: sydney("2025-08-22", 23) })
      .where(eq(events.id, older.event.id))
      .run();
    expect(await rowsOf("nights", "from=2025-08&to=2025-08")).toMatchObject([{ paid: 10, came: 0 }]);
    expect(recordMissingAttendance(db, server.deps.now())).toBe(1);
    expect(await rowsOf("nights", "from=2025-08&to=2025-08")).toMatchObject([{ paid: 10, came: 7, noShows: 3 }]);
    // Done once: the next run finds nothing to write.
    expect(recordMissingAttendance(db, server.deps.now())).toBe(0);
  });
});

describe("the matches report", () => {
  it("gives mutual and friend matches per guest who came, by format", async () => {
    expect(await rowsOf("matches", "from=2025-09&to=2025-09")).toEqual([
      {
        format: "women_men",
        nights: 1,
        guestsCame: 7,
        mutualMatches: 2,
        friendMatches: 1,
        // 4 halves of mutual matches among 7 guests who came; 2 of friend matches.
        mutualPerGuest: 0.6,
        friendPerGuest: 0.3,
        withMutualPercent: 57,
        withFriendPercent: 29,
      },
    ]);
  });
});

describe("a Mixed night and a cancelled one", () => {
  it("count a Mixed night under its own format, and leave a cancelled night out of nights and matches", async () => {
    await seed();
    const { db, env } = server.deps;
    const mixed = await startedNight("Mixed Night", sydney("2025-06-14"), "mixed");
    // One mutual match between two women who came (a Mixed night pairs whoever would like to meet).
    rate(mixed.event.id, mixed.women[0]!.userId, mixed.women[1]!.userId, "like", "like");
    expect((await sessionBrowser(server, null).postJson("/api/end-event", { eventId: mixed.event.id })).status).toBe(
      200,
    );
    const cancelled = await insertEvent(db, env.UPLOADS_DIR, {
      name: "Cancelled Night",
      startsAt: sydney("2025-06-20"),
      status: "cancelled",
    });
    insertPaidBookings(db, cancelled.id, 4);

    expect((await rowsOf("nights", "from=2025-06&to=2025-06")).map((r) => [r.eventName, r.format, r.came])).toEqual([
      ["Mixed Night", "mixed", 7],
    ]);
    expect(await rowsOf("matches", "from=2025-06&to=2025-06")).toEqual([
      {
        format: "mixed",
        nights: 1,
        guestsCame: 7,
        mutualMatches: 1,
        friendMatches: 0,
        mutualPerGuest: 0.3,
        friendPerGuest: 0,
        withMutualPercent: 29,
        withFriendPercent: 0,
      },
    ]);
    // The seats report lists the cancelled night, as cancelled, with what it had sold.
    const seats = await rowsOf("seats", "from=2025-06&to=2025-06");
    expect(seats.map((r) => [r.eventName, r.status, r.seatsSold])).toEqual([
      ["Mixed Night", "ended", 10],
      ["Cancelled Night", "cancelled", 4],
    ]);
  });
});
