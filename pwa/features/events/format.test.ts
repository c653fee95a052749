import { describe, expect, it } from "vitest";
import { pinClock } from "../../../test/clock.ts";
import {
  canBook,
  canJoinWaitlist,
  cardLabel,
  formatEventDateTime,
  genderSeatLines,
  isListed,
  seatLines,
  seatsLabel,
  venueDateTime,
} from "./format.ts";

// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(Date.UTC(2026, 11, 2));

describe("formatEventDateTime", () => {
  it.each([
    ["2026-12-05T19:30:00.000Z", "2026-12-05 07:30 PM"],
    ["2026-01-09T00:05:00.000Z", "2026-01-09 12:05 AM"],
    ["2026-07-01T12:00:00.000Z", "2026-07-01 12:00 PM"],
    ["2026-03-15T09:45:00.000Z", "2026-03-15 09:45 AM"],
  ])("shows %s in UTC as %s", (iso, shown) => {
    expect(formatEventDateTime(iso)).toBe(shown);
  });

  it("shows nothing rather than NaN for a broken date", () => {
    expect(formatEventDateTime("not a date")).toBe("");
  });
});

describe("seatsLabel", () => {
  it("warns at 40% and below, says Sold Out at 0, and stays quiet above 40%", () => {
    expect(seatsLabel(41)).toBeNull();
    expect(seatsLabel(40)).toBe("Only 40% seats left!");
    expect(seatsLabel(1)).toBe("Only 1% seats left!");
    expect(seatsLabel(0)).toBe("Sold Out");
  });
});

const now = Date.parse("2026-11-29T07:00:00.000Z");
const HOUR = 3_600_000;
const at = (ms: number) => new Date(ms).toISOString();

describe("canBook", () => {
  const future = at(now + HOUR);
  it("allows only upcoming events with seats left", () => {
    expect(canBook({ status: "upcoming", SeatAvailabilityPer: 5, startsAt: future }, now)).toBe(true);
    expect(canBook({ status: "upcoming", SeatAvailabilityPer: 0, startsAt: future }, now)).toBe(false);
    expect(canBook({ status: "started", SeatAvailabilityPer: 50, startsAt: future }, now)).toBe(false);
    expect(canBook({ status: "ended", SeatAvailabilityPer: 50, startsAt: future }, now)).toBe(false);
  });

  it("closes booking at the start time even when nobody pressed Start", () => {
    expect(canBook({ status: "upcoming", SeatAvailabilityPer: 50, startsAt: at(now) }, now)).toBe(false);
    expect(canBook({ status: "upcoming", SeatAvailabilityPer: 50, startsAt: at(now + 1) }, now)).toBe(true);
  });
});

describe("venueDateTime", () => {
  it("shows the venue's clock with its zone first and the UTC form second", () => {
    expect(venueDateTime("2026-11-29T08:00:00.000Z", "Australia/Sydney")).toEqual({
      local: "2026-11-29 07:00 PM AEDT",
      utc: "2026-11-29 08:00 AM UTC",
    });
    expect(venueDateTime("2026-11-29T08:00:00.000Z", "Australia/Perth")?.local).toBe("2026-11-29 04:00 PM AWST");
  });

  it("starts with the weekday on the venue's clock when asked, and leaves the UTC line as it was", () => {
    expect(venueDateTime("2026-12-01T08:00:00.000Z", "Australia/Sydney", { weekday: true })).toEqual({
      local: "Tue 2026-12-01 07:00 PM AEDT",
      utc: "2026-12-01 08:00 AM UTC",
    });
    // 23:30 UTC on a Monday is already Tuesday morning in Sydney: the venue's day is the one shown.
    expect(venueDateTime("2026-11-30T23:30:00.000Z", "Australia/Sydney", { weekday: true })?.local).toBe(
      "Tue 2026-12-01 10:30 AM AEDT",
    );
    expect(venueDateTime("2026-11-30T23:30:00.000Z", "Australia/Sydney", { weekday: true })?.utc).toBe(
      "2026-11-30 11:30 PM UTC",
    );
  });
});

describe("seatLines", () => {
  it("gives an event with one pool of seats its count once few remain, as a balanced one has per gender", () => {
    expect(seatLines({ SeatAvailabilityPer: 15, SeatsLeft: null, seatsLeftTotal: 3 })).toEqual(["3 seats left"]);
    expect(seatLines({ SeatAvailabilityPer: 5, SeatsLeft: null, seatsLeftTotal: 1 })).toEqual(["1 seat left"]);
    expect(seatLines({ SeatAvailabilityPer: 40, SeatsLeft: null, seatsLeftTotal: 8 })).toEqual(["8 seats left"]);
    expect(seatLines({ SeatAvailabilityPer: 30, SeatsLeft: { male: 0, female: 3 }, seatsLeftTotal: 3 })).toEqual([
      "Women: 3 seats left",
      "Men: sold out",
    ]);
  });

  it("says nothing while plenty are left, when sold out (the label says so), or without a count", () => {
    expect(seatLines({ SeatAvailabilityPer: 41, SeatsLeft: null, seatsLeftTotal: 41 })).toEqual([]);
    expect(seatLines({ SeatAvailabilityPer: 0, SeatsLeft: null, seatsLeftTotal: 0 })).toEqual([]);
    expect(seatLines({ SeatAvailabilityPer: 10, SeatsLeft: null })).toEqual([]);
  });
});

describe("isListed", () => {
  const event = (status: "upcoming" | "started" | "ended" | "cancelled", startsIn: number, hours = 2) => ({
    event_status: status,
    EventDateTime: at(now + startsIn),
    event_duration: hours,
  });

  it("lists upcoming and started events and never ended ones", () => {
    expect(isListed(event("upcoming", HOUR), now)).toBe(true);
    expect(isListed(event("started", -HOUR), now)).toBe(true);
    expect(isListed(event("ended", HOUR), now)).toBe(false);
  });

  it("never lists a cancelled event, however far off its date", () => {
    expect(isListed(event("cancelled", 30 * 24 * HOUR), now)).toBe(false);
  });

  it("drops an event 12 hours after its planned end, even if nobody pressed End", () => {
    // Started 14 hours ago and ran 2 hours: its end was exactly 12 hours ago.
    expect(isListed(event("started", -14 * HOUR + 1), now)).toBe(true);
    expect(isListed(event("started", -14 * HOUR), now)).toBe(false);
    expect(isListed(event("upcoming", -20 * HOUR), now)).toBe(false);
  });
});

describe("cardLabel", () => {
  const future = at(now + HOUR);
  it("says Cancelled on a cancelled event before anything else, and no booking is possible", () => {
    const cancelled = { status: "cancelled" as const, SeatAvailabilityPer: 0, startsAt: at(now - HOUR) };
    expect(cardLabel(cancelled, now)).toEqual({ text: "Cancelled", kind: "cancelled" });
    expect(canBook({ ...cancelled, SeatAvailabilityPer: 80, startsAt: future }, now)).toBe(false);
  });

  it("otherwise says Booking closed at the start, then the seats label", () => {
    expect(cardLabel({ status: "upcoming", SeatAvailabilityPer: 80, startsAt: at(now) }, now)).toEqual({
      text: "Booking closed",
      kind: "closed",
    });
    expect(cardLabel({ status: "upcoming", SeatAvailabilityPer: 0, startsAt: future }, now)).toEqual({
      text: "Sold Out",
      kind: "sold-out",
    });
    expect(cardLabel({ status: "upcoming", SeatAvailabilityPer: 30, startsAt: future }, now)).toEqual({
      text: "Only 30% seats left!",
      kind: "low",
    });
    expect(cardLabel({ status: "upcoming", SeatAvailabilityPer: 80, startsAt: future }, now)).toBeNull();
  });
});

describe("balanced events", () => {
  const future = at(now + HOUR);
  const balanced = (male: number, female: number, per = 50) => ({
    status: "upcoming" as const,
    SeatAvailabilityPer: per,
    startsAt: future,
    SeatsLeft: { male, female },
  });

  it("shows a line per gender, women first, and none for an event with one pool of seats", () => {
    expect(genderSeatLines(balanced(0, 3))).toEqual(["Women: 3 seats left", "Men: sold out"]);
    expect(genderSeatLines(balanced(1, 0))).toEqual(["Women: sold out", "Men: 1 seat left"]);
    expect(genderSeatLines({ SeatAvailabilityPer: 0, SeatsLeft: null })).toEqual([]);
    expect(genderSeatLines({ SeatAvailabilityPer: 0 })).toEqual([]);
  });

  it("keeps Book Tickets enabled while either gender has a seat", () => {
    expect(canBook(balanced(0, 3), now)).toBe(true);
    expect(canBook(balanced(2, 0), now)).toBe(true);
    expect(canBook(balanced(0, 0, 0), now)).toBe(false);
    expect(canBook({ ...balanced(0, 3), startsAt: at(now) }, now)).toBe(false);
  });

  it("is not sold out while a seat is left, even when the percentage rounds to 0", () => {
    expect(cardLabel(balanced(0, 1, 0), now)).toEqual({ text: "Only 1% seats left!", kind: "low" });
    expect(cardLabel(balanced(0, 0, 0), now)).toEqual({ text: "Sold Out", kind: "sold-out" });
  });
});

describe("canJoinWaitlist", () => {
  const future = at(now + HOUR);
  it("offers the waitlist only for a full event that is still taking bookings", () => {
    const full = { status: "upcoming" as const, SeatAvailabilityPer: 0, startsAt: future };
    expect(canJoinWaitlist(full, now)).toBe(true);
    expect(canJoinWaitlist({ ...full, SeatsLeft: { male: 0, female: 0 } }, now)).toBe(true);
    expect(canJoinWaitlist({ ...full, SeatAvailabilityPer: 10 }, now)).toBe(false);
    // One gender full: Book Tickets stays, and the details form offers the waitlist to that gender.
    expect(canJoinWaitlist({ ...full, SeatAvailabilityPer: 10, SeatsLeft: { male: 0, female: 2 } }, now)).toBe(false);
    expect(canJoinWaitlist({ ...full, startsAt: at(now) }, now)).toBe(false);
    expect(canJoinWaitlist({ ...full, status: "cancelled" }, now)).toBe(false);
    expect(canJoinWaitlist({ ...full, status: "started" }, now)).toBe(false);
  });
});
