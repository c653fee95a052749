/**
 * The wire names of an event's fields: part of common/event-wire.ts's table (which re-exports all of
 * this and is where to read it, docs/decisions/044-one-name-per-field.md), kept in a module of its own
 * with the PWA's mapping of a reply (`eventOfReply`), because the home page maps get-events' reply:
 * this module rides in its JavaScript, and the text fields' limits and OpenAPI descriptions stay out.
 * No zod, no imports.
 */

/** The fields whose value is not the same on the wire (a price in dollars, the start as a date and a time). */
export const EVENT_WIRE_NAMES = {
  id: { reply: "id", request: "eventid" },
  imageName: { reply: "event_image", request: "eventImage" },
  /** Answered as one ISO instant; asked as `eventDate` and `eventTime` on the venue's clock. */
  startsAt: { reply: "EventDateTime", request: null },
  /** Cents in the table, dollars on the wire. */
  priceCents: { reply: "booking_amount", request: "bookingAmount" },
  status: { reply: "event_status", request: null },
  durationHours: { reply: "event_duration", request: "eventduration" },
  fromAge: { reply: "from_age", request: "fromage" },
  toAge: { reply: "to_age", request: "toage" },
  timeZone: { reply: "time_zone", request: "timeZone" },
  totalSeats: { reply: "total_seats", request: "totalSeats" },
} as const;

/**
 * The names of the event's lines of plain text; each one's whole row (its limit, whether it is
 * required, its description) is EVENT_TEXT_FIELDS in common/event-wire.ts, which spreads these.
 */
export const EVENT_TEXT_NAMES = {
  name: { reply: "event_name", request: "eventName" },
  address: { reply: "event_address", request: "eventAddress" },
  venueNotes: { reply: "venue_notes", request: "venueNotes" },
} as const;

type WireRows = typeof EVENT_WIRE_NAMES;
type TextRows = typeof EVENT_TEXT_NAMES;

/** Each event field's reply name, to its name in the code. */
type NameOfReply = { [K in keyof WireRows as WireRows[K]["reply"]]: K } & {
  [K in keyof TextRows as TextRows[K]["reply"]]: K;
};

/**
 * A reply (or an item of one) as the PWA's screens read it: its event fields by their names in the
 * code (`name`, `address`, `startsAt`, `priceCents`, …), every other field as it is. The value keeps its
 * type: the start stays the ISO instant the reply sends; the price, a number of dollars on the wire, is
 * cents.
 */
export type EventOfReply<R> = { [K in keyof R as K extends keyof NameOfReply ? NameOfReply[K] : K]: R[K] };

const NAME_OF_REPLY: Record<string, string> = {};
for (const [name, row] of Object.entries({ ...EVENT_WIRE_NAMES, ...EVENT_TEXT_NAMES })) NAME_OF_REPLY[row.reply] = name;

/**
 * A reply's event, by the names in the code: the PWA's one mapping, where a reply arrives (and where
 * something kept on the phone from a reply is read back, so what an older version kept still reads).
 * An object already mapped comes back the same.
 */
export function eventOfReply<R extends object>(reply: R): EventOfReply<R> {
  const event: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(reply))
    event[NAME_OF_REPLY[key] ?? key] =
      key === EVENT_WIRE_NAMES.priceCents.reply && typeof value === "number" ? Math.round(value * 100) : value;
  return event as EventOfReply<R>;
}
