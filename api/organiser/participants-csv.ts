import { eq } from "drizzle-orm";
import { nationalPhone } from "../../common/national-phone.ts";
import { utcToWallClock } from "../../common/time-zone.ts";
import type { Db } from "../../db/client.ts";
import { events } from "../../db/schema.ts";
import { listWaitlist } from "../booking/waitlist.ts";
import { NotFound } from "../lib/errors.ts";
import { listEventParticipants } from "./participants.ts";

const WAITLIST_CSV_STATUS: Record<string, string> = {
  waiting: "waiting",
  offered: "offered a seat",
  closed: "closed at the start",
};

/** The header row: the two times carry the zone they are written in, `booked_at (Australia/Sydney)`. */
export const participantsCsvHeader = (zone: string) =>
  [
    "name",
    "email",
    "phone",
    "gender",
    "age",
    "status",
    "amount",
    "discount",
    "code",
    "payment_intent_id",
    "invoice_number",
    `booked_at (${zone})`,
    `checked_in_at (${zone})`,
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

const pad = (n: number) => String(n).padStart(2, "0");

/** `2026-11-29 19:05`: the venue's wall clock, in the form every spreadsheet reads as a date and time. */
function atVenue(iso: string | null, zone: string): string {
  if (iso === null) return "";
  const { date, hour, minute } = utcToWallClock(Date.parse(iso), zone);
  return `${date} ${pad(hour)}:${pad(minute)}`;
}

/**
 * `Harbour Lights: Mixer & Café!` as `harbour-lights-mixer-cafe`: lower-case ASCII letters, digits
 * and single hyphens, safe in a Content-Disposition header and on every file system. Accents are
 * dropped rather than the letter; a name cut to length ends at a whole word where it can.
 */
export function fileSlug(text: string, max = 60): string {
  const slug = text
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (slug.length <= max) return slug;
  const cut = slug.slice(0, max + 1);
  const lastHyphen = cut.lastIndexOf("-");
  return (lastHyphen > 0 ? cut.slice(0, lastHyphen) : cut.slice(0, max)).replace(/-+$/, "");
}

/**
 * The event's bookings (paid and refunded), one row each, oldest first, with booked and checked-in
 * times on the venue's clock; and the file's name, `harbour-lights-mixer-2026-12-01-participants.csv`
 * (the event's date at the venue; `event-{id}` when its name has no letter or digit to keep).
 */
export function participantsCsv(db: Db, eventId: number): { fileName: string; csv: string } {
  const event = db
    .select({ name: events.name, startsAt: events.startsAt, zone: events.timeZone })
    .from(events)
    .where(eq(events.id, eventId))
    .get();
  if (!event) throw NotFound("no such event");
  const fileName = `${fileSlug(event.name) || `event-${eventId}`}-${utcToWallClock(event.startsAt, event.zone).date}-participants.csv`;
  const rows = listEventParticipants(db, eventId).map((p) => [
    p.username,
    p.email,
    nationalPhone(p.phone),
    // Nothing where the format asked none (One group); never whom they would like to meet.
    p.gender === "unasked" ? "" : p.gender,
    p.age === null ? "" : String(p.age),
    p.status,
    p.booking_amount.toFixed(2),
    p.discount.toFixed(2),
    p.code ?? "",
    p.payment_intent_id ?? "",
    p.invoiceNumber ?? "",
    atVenue(p.bookedAt, event.zone),
    atVenue(p.checkedInAt, event.zone),
  ]);
  // The waitlist after the bookings, in the same columns, its status saying so: whoever was still in
  // line when sales closed is kept as `waitlist (closed at the start)`.
  const full = db.select().from(events).where(eq(events.id, eventId)).get();
  const waitlist = full
    ? listWaitlist(db, full).map((w) => [
        w.name,
        "",
        nationalPhone(w.phone),
        w.gender === "unasked" ? "" : w.gender,
        "",
        `waitlist (${WAITLIST_CSV_STATUS[w.status] ?? w.status})`,
        "",
        "",
        "",
        "",
        "",
        atVenue(w.joinedAt, event.zone),
        "",
      ])
    : [];
  // Lines end in "\n": every spreadsheet reads it, and a line read back is the row, with no stray "\r".
  const lines = [participantsCsvHeader(event.zone), ...rows, ...waitlist].map((cells) => cells.map(csvCell).join(","));
  return { fileName, csv: `${lines.join("\n")}\n` };
}
