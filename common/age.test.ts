import { describe, expect, it } from "vitest";
import { pinClock } from "../test/clock.ts";
import { ageAllowed, ageOn, ageRangeFor, ageRangeMessage, eventDate } from "./age.ts";

// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(Date.UTC(2026, 11, 2));

const rules = { fromAge: 25, toAge: 35, fromAgeMale: null, toAgeMale: null, fromAgeFemale: null, toAgeFemale: null };

describe("age on the event's date", () => {
  it("counts a year only once the birthday has come", () => {
    expect(ageOn("2000-06-15", "2025-06-14")).toBe(24);
    expect(ageOn("2000-06-15", "2025-06-15")).toBe(25);
    expect(ageOn("2000-06-15", "2025-06-16")).toBe(25);
    expect(ageOn("2000-12-31", "2026-01-01")).toBe(25);
    expect(ageOn("2000-01-01", "2025-12-31")).toBe(25);
  });

  it("gives someone born on 29 February their birthday on 1 March in other years", () => {
    expect(ageOn("2000-02-29", "2025-02-28")).toBe(24);
    expect(ageOn("2000-02-29", "2025-03-01")).toBe(25);
    expect(ageOn("2000-02-29", "2024-02-28")).toBe(23);
    expect(ageOn("2000-02-29", "2024-02-29")).toBe(24);
  });

  it("takes the date on the venue's clock, not in UTC", () => {
    // 1 am on 15 June in Sydney is still 14 June in UTC.
    const startsAt = Date.parse("2025-06-14T15:00:00.000Z");
    expect(eventDate(startsAt, "Australia/Sydney")).toBe("2025-06-15");
    expect(eventDate(startsAt, "Australia/Perth")).toBe("2025-06-14");
    const event = { ...rules, startsAt, timeZone: "Australia/Sydney" };
    expect(ageAllowed(event, "female", "2000-06-15")).toMatchObject({ ok: true, age: 25 });
    expect(ageAllowed({ ...event, timeZone: "Australia/Perth" }, "female", "2000-06-15")).toMatchObject({
      ok: false,
      age: 24,
    });
  });

  it("refuses above the range as below it, and takes a gender's own bounds where set", () => {
    const event = { ...rules, fromAgeMale: 28, toAgeMale: 40, startsAt: Date.parse("2026-01-10T08:00:00Z") };
    const at = { ...event, timeZone: "Australia/Sydney" };
    expect(ageAllowed(at, "female", "1989-01-10")).toMatchObject({ ok: false, age: 37 });
    expect(ageAllowed(at, "male", "1989-01-10")).toMatchObject({ ok: true, age: 37 });
    expect(ageAllowed(at, "male", "1999-01-10")).toMatchObject({ ok: false, age: 27 });
    expect(ageRangeMessage(ageRangeFor(event, "male"))).toBe("This event is for ages 28–40");
    expect(ageRangeMessage(ageRangeFor(event, "female"))).toBe("This event is for ages 25–35");
  });
});
