import { nationalPhone } from "../../common/national-phone.ts";
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
 * OWASP): such cells get a leading `'`, the spreadsheet convention for "this is text". The test is
 * made on the text as a spreadsheet may read it: compatibility forms folded (NFKC turns the
 * full-width `＝` and the small `﹦` into `=`) and leading spaces and invisible format characters
 * (zero-width space, word joiner, U+180E) dropped. Then the RFC 4180 quoting for commas, quotes and
 * line breaks.
 */
export function csvCell(value: string): string {
  const read = value.normalize("NFKC").replace(/^[\s\p{Cf}]+/u, "");
  const safe = /^[=+\-@\t\r]/.test(read) || /^[\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
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
