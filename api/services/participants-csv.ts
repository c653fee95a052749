import type { Db } from "../../db/client.ts";
import { listEventParticipants } from "./participants.ts";

export const PARTICIPANTS_CSV_HEADER = [
  "name",
  "email",
  "phone",
  "gender",
  "status",
  "amount",
  "payment_intent_id",
  "booked_at",
  "checked_in_at",
] as const;

/**
 * A cell as a spreadsheet should read it. Text an attendee typed can start with `=`, `+`, `-`, `@`,
 * a tab or a carriage return, which Excel, Numbers and Sheets would run as a formula (CSV injection,
 * OWASP): such cells get a leading `'`, the spreadsheet convention for "this is text". Then the
 * RFC 4180 quoting for commas, quotes and line breaks.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * `+61412345678` as `0412 345 678`: how the organiser dials it, and text (not a number that loses
 * its leading 0, nor a `+` cell that needs escaping) when a spreadsheet opens the file.
 */
export function nationalPhone(e164: string): string {
  const mobile = /^\+614(\d{2})(\d{3})(\d{3})$/.exec(e164);
  if (mobile) return `04${mobile[1]} ${mobile[2]} ${mobile[3]}`;
  const landline = /^\+61([2378])(\d{4})(\d{4})$/.exec(e164);
  return landline ? `0${landline[1]} ${landline[2]} ${landline[3]}` : e164;
}

/** The event's bookings (paid and refunded), one row each, oldest first; times ISO 8601 UTC. */
export function participantsCsv(db: Db, eventId: number): string {
  const rows = listEventParticipants(db, eventId).map((p) => [
    p.username,
    p.email,
    nationalPhone(p.phone),
    p.gender,
    p.status,
    p.booking_amount.toFixed(2),
    p.payment_intent_id ?? "",
    p.bookedAt,
    p.checkedInAt ?? "",
  ]);
  // Lines end in "\n": every spreadsheet reads it, and a line read back is the row, with no stray "\r".
  return `${[PARTICIPANTS_CSV_HEADER, ...rows].map((cells) => cells.map(csvCell).join(",")).join("\n")}\n`;
}
