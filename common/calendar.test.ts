import { describe, expect, it } from "vitest";
import { pinClock } from "../test/clock.ts";
import { calendarFileName, ticketCalendar } from "./calendar.ts";

// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(Date.UTC(2026, 11, 2));

const ticket = {
  eventID: 7,
  userID: 42,
  eventName: "Sydney Harbour Mixer, Level 2; Rooftop",
  eventDateTime: "2026-11-29T08:00:00.000Z",
  eventLocation: "Level 2, 10 Circular Quay W, The Rocks NSW 2000",
  durationHours: 2.5,
  uniqueCode: "ABCDEFGH23",
};

/** A small RFC 5545 reader: unfold, split into properties, unescape TEXT values. */
function parse(ics: string) {
  expect(ics.endsWith("\r\n")).toBe(true);
  const lines = ics.replace(/\r\n /g, "").split("\r\n").filter(Boolean);
  for (const line of ics.split("\r\n")) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
  const props = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(":");
    props.set(
      line.slice(0, colon),
      line
        .slice(colon + 1)
        .replace(/\\n/g, "\n")
        .replace(/\\([,;\\])/g, "$1"),
    );
  }
  return { lines, props };
}

describe("Add to calendar", () => {
  it("writes one event with UTC start and end, place, and the ticket link", () => {
    const now = Date.parse("2026-11-22T01:02:03.000Z");
    const ics = ticketCalendar(ticket, "https://tickets.example.com", now);
    if (!ics) throw new Error("no calendar");
    const { lines, props } = parse(ics);
    expect(lines[0]).toBe("BEGIN:VCALENDAR");
    expect(lines.at(-1)).toBe("END:VCALENDAR");
    expect(lines.filter((l) => l === "BEGIN:VEVENT")).toHaveLength(1);
    expect(props.get("VERSION")).toBe("2.0");
    expect(props.get("UID")).toBe("ticket-7-42@tickets.example.com");
    expect(props.get("DTSTAMP")).toBe("20261122T010203Z");
    expect(props.get("DTSTART")).toBe("20261129T080000Z");
    expect(props.get("DTEND")).toBe("20261129T103000Z");
    expect(props.get("SUMMARY")).toBe(ticket.eventName);
    expect(props.get("LOCATION")).toBe(ticket.eventLocation);
    expect(props.get("DESCRIPTION")).toBe("My tickets: https://tickets.example.com/me");
    expect(props.get("URL")).toBe("https://tickets.example.com/me");
  });

  it("carries no ticket code and no token into a calendar that syncs anywhere", () => {
    const ics = ticketCalendar(ticket, "https://tickets.example.com", 0);
    if (!ics) throw new Error("no calendar");
    const unfolded = ics.replace(/\r\n /g, "");
    expect(unfolded).not.toContain("ABCDEFGH23");
    expect(unfolded).not.toMatch(/[?&]t=|token|ticket code/i);
    // Only the event, its time, the venue and the plain link to My tickets.
    const { props } = parse(ics);
    expect(
      [...props.keys()].filter((k) => !/^(BEGIN|END|VERSION|PRODID|CALSCALE|METHOD|UID|DTSTAMP)$/.test(k)),
    ).toEqual(["DTSTART", "DTEND", "SUMMARY", "LOCATION", "DESCRIPTION", "URL"]);
  });

  it("folds long lines without breaking a character, and assumes two hours when the length is unknown", () => {
    const long = { ...ticket, durationHours: undefined, eventLocation: `Café 🎉 ${"Ünïcödé street ".repeat(12)}` };
    const ics = ticketCalendar(long, "http://localhost:3000", 0);
    if (!ics) throw new Error("no calendar");
    const { props } = parse(ics);
    expect(props.get("LOCATION")).toBe(long.eventLocation);
    expect(props.get("DTEND")).toBe("20261129T100000Z");
  });

  it("makes no file for a ticket without its event's time", () => {
    expect(ticketCalendar({ ...ticket, eventDateTime: undefined }, "http://localhost:3000")).toBeNull();
    expect(calendarFileName(ticket)).toBe("Sydney-Harbour-Mixer-Level-2-Rooftop.ics");
  });
});
