// A ticket's calendar entry, RFC 5545: built on the phone from the saved ticket ("Add to calendar",
// so it works with no network at all) and by the server for the emails' `.ics` attachment, from the
// same function so both give the same entry. Times are written in UTC (the `Z` form), which every
// calendar app converts to its own zone without needing a VTIMEZONE block.

export type CalendarTicket = {
  eventID: number;
  userID: number;
  eventName: string;
  /** ISO 8601 UTC, when known. */
  eventDateTime?: string;
  eventLocation?: string;
  durationHours?: number;
};

// Events last a few hours; a ticket saved before durations were kept assumes two.
const FALLBACK_HOURS = 2;

const stamp = (ms: number) =>
  new Date(ms)
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

/** TEXT values escape backslash, semicolon, comma and newlines (RFC 5545 section 3.3.11). */
const text = (value: string) =>
  value.replace(/\\/g, "\\\\").replace(/;/g, "\\;").replace(/,/g, "\\,").replace(/\r?\n/g, "\\n");

/** Lines longer than 75 octets are folded: CRLF and a space, never splitting a UTF-8 character. */
function fold(line: string): string {
  const encoder = new TextEncoder();
  const parts: string[] = [];
  let current = "";
  let size = 0;
  for (const char of line) {
    const bytes = encoder.encode(char).length;
    if (size + bytes > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = "";
      size = 0;
    }
    current += char;
    size += bytes;
  }
  parts.push(current);
  return parts.join("\r\n ");
}

/**
 * The `.ics` file's text, or null when the ticket does not know its event's time. A calendar syncs to
 * other devices and services, so the entry holds the event, its time, the venue and a plain link to
 * My tickets (`/me`, where the guest signs in with their mobile): never the ticket code or the ticket
 * link's token, which would let whoever reads the calendar in.
 */
export function ticketCalendar(ticket: CalendarTicket, origin: string, now = Date.now()): string | null {
  const start = ticket.eventDateTime ? Date.parse(ticket.eventDateTime) : Number.NaN;
  if (Number.isNaN(start)) return null;
  const end = start + (ticket.durationHours ?? FALLBACK_HOURS) * 3_600_000;
  const host = new URL(origin).host;
  const myTickets = `${origin.replace(/\/$/, "")}/me`;
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Saathi Speed Dating//Tickets//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    "BEGIN:VEVENT",
    // Stable per booking: adding the same ticket twice updates the one calendar entry.
    `UID:ticket-${ticket.eventID}-${ticket.userID}@${host}`,
    `DTSTAMP:${stamp(now)}`,
    `DTSTART:${stamp(start)}`,
    `DTEND:${stamp(end)}`,
    `SUMMARY:${text(ticket.eventName)}`,
    ...(ticket.eventLocation ? [`LOCATION:${text(ticket.eventLocation)}`] : []),
    `DESCRIPTION:${text(`My tickets: ${myTickets}`)}`,
    `URL:${myTickets}`,
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return `${lines.map(fold).join("\r\n")}\r\n`;
}

export const calendarFileName = (ticket: Pick<CalendarTicket, "eventName">) =>
  `${ticket.eventName.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "") || "event"}.ics`;
