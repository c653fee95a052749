import { describe, expect, it } from "vitest";
import type { RosterAttendee } from "../../../api/night/roster.ts";
import { pinClock } from "../../../test/clock.ts";
import type { KeptDoorEvent, QueuedCheckIn } from "../../lib/offline-db.ts";
import { arrivalTime, countArrivals, defaultEventId, eventLabel, matchesQuery, withPending } from "./roster-view.ts";

// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(Date.UTC(2026, 11, 2));

const person = (userID: number, name: string, gender: "male" | "female", extra: Partial<RosterAttendee> = {}) => ({
  userID,
  name,
  gender,
  thumbName: "t.jpg",
  phoneLast4: "5678",
  checkedInAt: null,
  age: 30,
  ...extra,
});
const entry = (userID: number, action: "check-in" | "undo", clientTs: number): QueuedCheckIn => ({
  key: `1:${userID}`,
  eventID: 1,
  userID,
  action,
  clientTs,
  attempts: 0,
  nextAttemptAt: clientTs,
});

describe("the door's list", () => {
  it("shows this phone's waiting taps over the server's roster, the earliest check-in winning", () => {
    const roster = [
      person(1, "Asha", "female"),
      person(2, "Dev", "male", { checkedInAt: "2026-11-29T08:00:00.000Z" }),
      person(3, "Kiran", "male", { checkedInAt: "2026-11-29T08:10:00.000Z" }),
      person(4, "Meera", "female", { checkedInAt: "2026-11-29T08:20:00.000Z" }),
    ];
    const shown = withPending(roster, [
      entry(1, "check-in", Date.parse("2026-11-29T08:05:00.000Z")),
      entry(2, "undo", Date.parse("2026-11-29T08:06:00.000Z")),
      entry(3, "check-in", Date.parse("2026-11-29T08:15:00.000Z")),
      entry(4, "check-in", Date.parse("2026-11-29T08:12:00.000Z")),
    ]);
    expect(shown.map((a) => [a.name, a.checkedInAt, a.waiting])).toEqual([
      ["Asha", "2026-11-29T08:05:00.000Z", true],
      ["Dev", null, true],
      ["Kiran", "2026-11-29T08:10:00.000Z", true],
      ["Meera", "2026-11-29T08:12:00.000Z", true],
    ]);
    expect(withPending(roster, [])[1]).toMatchObject({ checkedInAt: "2026-11-29T08:00:00.000Z", waiting: false });
  });

  it("counts arrivals in all and by gender", () => {
    const at = "2026-11-29T08:00:00.000Z";
    expect(
      countArrivals([
        person(1, "A", "female", { checkedInAt: at }),
        person(2, "B", "female"),
        person(3, "C", "male", { checkedInAt: at }),
        person(4, "D", "male", { checkedInAt: at }),
        person(5, "E", "male"),
      ]),
    ).toEqual({ arrived: 3, total: 5, women: { arrived: 1, total: 2 }, men: { arrived: 2, total: 3 } });
    expect(countArrivals([])).toEqual({
      arrived: 0,
      total: 0,
      women: { arrived: 0, total: 0 },
      men: { arrived: 0, total: 0 },
    });
  });

  it("finds an attendee by any part of their name, or by the end of their phone number", () => {
    const priya = person(1, "Priya Sharma", "female", { phoneLast4: "5678" });
    const zoe = person(2, "Zoë Kapoor", "female", { phoneLast4: "0042" });
    for (const q of ["", "  ", "priya", "SHAR", "pri sha", "sharma priya"]) expect(matchesQuery(priya, q)).toBe(true);
    for (const q of ["zoe", "Zoë", "kap"]) expect(matchesQuery(zoe, q)).toBe(true);
    for (const q of ["678", "5678", "345678", "0412 345 678"]) expect(matchesQuery(priya, q)).toBe(true);
    for (const q of ["priyanka", "567", "1234", "kabir"]) expect(matchesQuery(priya, q)).toBe(false);
  });
});

describe("the event the door opens on", () => {
  const DAY = 86_400_000;
  const now = Date.parse("2026-11-29T02:00:00.000Z"); // 1 pm in Sydney
  const event = (id: number, at: number, status = "upcoming", timeZone = "Australia/Sydney"): KeptDoorEvent => ({
    id,
    name: `Event ${id}`,
    startsAt: new Date(at).toISOString(),
    status: status,
    timeZone,
  });

  it("prefers an event that has started", () => {
    expect(defaultEventId([event(1, now + 5 * 3600_000), event(2, now - 3600_000, "started")], now)).toBe(2);
  });

  it("otherwise takes tonight's, then the next one, never one already over", () => {
    // 7 pm tonight in Sydney, and one next week.
    const tonight = Date.parse("2026-11-29T08:00:00.000Z");
    expect(defaultEventId([event(3, tonight + 7 * DAY), event(4, tonight), event(5, now - DAY)], now)).toBe(4);
    // Earlier today on the venue's clock (its start has passed, not yet started by the organiser): still today's.
    const thisMorning = Date.parse("2026-11-28T22:00:00.000Z");
    expect(defaultEventId([event(6, thisMorning), event(3, tonight + 7 * DAY)], now)).toBe(6);
    expect(defaultEventId([event(7, now - 3600_000, "ended"), event(3, tonight + 7 * DAY)], now)).toBe(3);
    expect(defaultEventId([event(5, now - DAY)], now)).toBeNull();
  });

  it("never opens on a cancelled event, even tonight's", () => {
    const tonight = Date.parse("2026-11-29T08:00:00.000Z");
    expect(defaultEventId([event(8, tonight, "cancelled"), event(3, tonight + 7 * DAY)], now)).toBe(3);
  });

  it("labels events and arrivals on the venue's clock", () => {
    expect(eventLabel(event(1, Date.parse("2026-11-29T08:00:00.000Z"), "started"))).toBe(
      "Event 1 · 2026-11-29 07:00 PM AEDT · started",
    );
    expect(arrivalTime("2026-11-29T08:42:00.000Z", "Australia/Perth")).toBe("04:42 PM AWST");
  });
});
