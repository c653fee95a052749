import { createHmac } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import type { z } from "zod";
import { ageAtEvent } from "../../common/age.ts";
import { doorsOpenAtOf } from "../../common/doors-open.ts";
import type { EventFormat } from "../../common/formats.ts";
import { normaliseTicketCode } from "../../common/ticket-code.ts";
import type { Db } from "../../db/client.ts";
import { bookings, events, type PersonGender, users } from "../../db/schema.ts";
import { NotFound } from "../lib/errors.ts";
import type { roster } from "./night-schemas.ts";

/** One paid, unrefunded attendee as the door view shows them. */
export type RosterAttendee = {
  userID: number;
  name: string;
  /** Left out of a host's copy at One group and Mixed (api/night/host-gender.ts). */
  gender?: PersonGender;
  /** The 320 px thumbnail's stored name, served from /api/images/{name}. */
  thumbName: string;
  /**
   * The last four digits of the phone, for "what are the last digits of your number?" at the door.
   * The door view is kept on a phone for offline use, so it carries no more of the number than that.
   */
  phoneLast4: string;
  /** ISO 8601 UTC, or null while the attendee has not arrived. */
  checkedInAt: string | null;
  /** Age on the event's date (never the date of birth); null for bookings made before it was asked. */
  age: number | null;
  /**
   * The ticket code's HMAC-SHA-256 (hex) under the roster's `codeKey`, so a typed code finds its
   * attendee offline (common/ticket-code.ts); null while the booking has no code yet. Never the code.
   * Optional in the type because a door phone may still hold a roster kept before it was added.
   */
  codeHash?: string | null;
};

export type RosterEvent = {
  id: number;
  event_name: string;
  EventDateTime: string;
  event_status: string;
  time_zone: string;
  /** ISO 8601 UTC: when the door may check people in (common/doors-open.ts); absent in rosters kept before it. */
  doorsOpenAt?: string;
  /** Who meets whom (issue 37): the door counts women and men only at Women meet men. Absent in older kept rosters. */
  format?: EventFormat;
};

export type Roster = {
  event: RosterEvent;
  attendees: RosterAttendee[];
  /** Refunded bookings, so a scanned ticket of one says "refunded" rather than "unknown". */
  refunded: { userID: number; name: string }[];
  /** This event's key (hex) for the attendees' `codeHash`; another event's roster has another key. */
  codeKey?: string;
};

/** The event's door-code key: derived from SESSION_SECRET, so it never needs storing and changes with it. */
export const doorCodeKey = (secret: string, eventId: number) =>
  createHmac("sha256", secret).update(`door-code\n${eventId}`).digest("hex");

/** The server's side of common/ticket-code.ts's `ticketCodeHash`: the same bytes, with node:crypto. */
export const codeHashOf = (keyHex: string, code: string) =>
  createHmac("sha256", Buffer.from(keyHex, "hex")).update(normaliseTicketCode(code)).digest("hex");

/** The door's list for one event: paid attendees by name, plus who was refunded. 404 for no such event. */
/**
 * The roster as the server answers it: every field a kept copy may lack is there (`Roster` stays
 * lenient for what door phones kept before those fields were added).
 */
export type ServedRoster = z.output<typeof roster>;

export function getRoster(db: Db, eventId: number, secret: string): ServedRoster {
  const event = db.select().from(events).where(eq(events.id, eventId)).get();
  if (!event) throw NotFound("no such event");
  const rows = db
    .select({ booking: bookings, user: users })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .where(and(eq(bookings.eventId, eventId), inArray(bookings.status, ["paid", "refunded"])))
    .all();
  const key = doorCodeKey(secret, event.id);
  const byName = (a: { name: string }, b: { name: string }) =>
    a.name.localeCompare(b.name, "en", { sensitivity: "base" });
  return {
    event: {
      id: event.id,
      event_name: event.name,
      EventDateTime: new Date(event.startsAt).toISOString(),
      event_status: event.status,
      time_zone: event.timeZone,
      doorsOpenAt: new Date(doorsOpenAtOf(event)).toISOString(),
      // Left out at Women meet men, as in rosters kept before formats.
      ...(event.format === "women_men" ? {} : { format: event.format }),
    },
    codeKey: key,
    attendees: rows
      .filter((r) => r.booking.status === "paid")
      .map(({ booking, user }) => ({
        userID: user.id,
        name: user.name,
        gender: user.gender,
        thumbName: user.thumbName,
        phoneLast4: booking.phone.replace(/\D/g, "").slice(-4),
        checkedInAt: booking.checkedInAt === null ? null : new Date(booking.checkedInAt).toISOString(),
        age: ageAtEvent(user.dateOfBirth, event),
        codeHash: booking.uniqueCode === null ? null : codeHashOf(key, booking.uniqueCode),
      }))
      .sort(byName),
    refunded: rows
      .filter((r) => r.booking.status === "refunded")
      .map(({ user }) => ({ userID: user.id, name: user.name }))
      .sort(byName),
  };
}
