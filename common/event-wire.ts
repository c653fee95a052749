import { EVENT_LIMITS as L } from "./event-limits.ts";
import { EVENT_TEXT_NAMES } from "./event-names.ts";

export { EVENT_TEXT_NAMES, EVENT_WIRE_NAMES, type EventOfReply, eventOfReply } from "./event-names.ts";

/**
 * An event's fields by one name each, from the table to the screen: the name of the `events` column
 * (db/schema.ts) is the name in the services, the admin forms' draft and the PWA. The API keeps the
 * names its clients are built on (`event_address` in the get-event and get-events replies,
 * `eventAddress` in the save-event and update-event requests), and this table is the one place that
 * says which wire name each field has (docs/decisions/044-one-name-per-field.md). The request
 * schemas (common/event-fields.ts), the replies (api/booking/events-schemas.ts, events.ts) and the
 * admin draft (pwa/features/admin/event-draft.ts) all read it, and the PWA maps each reply by it
 * (`eventOfReply`). The names alone (EVENT_WIRE_NAMES, EVENT_TEXT_NAMES) and that mapping sit in
 * common/event-names.ts, re-exported here, so the home page carries no more of the table than they.
 * No zod here: the PWA imports it.
 */

/**
 * The event's lines of plain text, the same value from the column to the wire: only the name
 * changes. Each is one line (control and invisible direction characters refused) of at most `max`
 * characters. `required`: on save-event; an optional one may be left out or empty, and is null in
 * the table and the replies then. `onUpdate`: whether update-event must send it ("required") or may
 * leave it out to keep it ("optional"). `description` goes into the OpenAPI document. A new text
 * field is a column and a line here; the requests, the replies, the services and the admin draft
 * follow.
 */
export const EVENT_TEXT_FIELDS = {
  name: {
    ...EVENT_TEXT_NAMES.name,
    max: L.name.max,
    required: true,
    onUpdate: "required",
    description: "The event's name.",
  },
  address: {
    ...EVENT_TEXT_NAMES.address,
    max: L.address.max,
    required: true,
    onUpdate: "optional",
    description: "The venue's address.",
  },
  venueNotes: {
    ...EVENT_TEXT_NAMES.venueNotes,
    max: 200,
    required: false,
    onUpdate: "optional",
    description:
      "Venue notes: one optional line on finding the room, at most 200 characters (`Enter via Level 1, ask for the Saathi table`). Shown on the event's booking page, the ticket, the ticket email and the reminders; null when empty. On update-event, left out keeps them and null or empty clears them.",
  },
} as const;

type TextRows = typeof EVENT_TEXT_FIELDS;
export type EventTextField = keyof TextRows;
type IsRequired<K extends EventTextField> = TextRows[K]["required"] extends true ? true : false;

/** The text fields as the table holds them: an optional one is null when empty. */
export type EventText = { [K in EventTextField]: IsRequired<K> extends true ? string : string | null };

/** The text fields of a new event, as save-event's schema hands them over. */
export type NewEventText = { [K in EventTextField as IsRequired<K> extends true ? K : never]: string } & {
  [K in EventTextField as IsRequired<K> extends true ? never : K]?: string | null;
};

/** The text fields of an edit: an optional one left out (undefined) keeps what is stored, null clears it. */
export type EventTextUpdate = {
  [K in EventTextField as TextRows[K]["onUpdate"] extends "required" ? K : never]: string;
} & { [K in EventTextField as TextRows[K]["onUpdate"] extends "required" ? never : K]?: EventText[K] };

/** The text fields as get-event and get-events answer them, by their wire names. */
export type EventTextReply = { [K in EventTextField as TextRows[K]["reply"]]: EventText[K] };

/** The text fields as save-event and update-event ask for them, by their wire names, as a form types them. */
export type EventTextRequest = { [K in EventTextField as TextRows[K]["request"]]: string };

/** The text fields as the admin forms hold them: each as typed, "" for an empty optional one. */
export type EventTextDraft = { [K in EventTextField]: string };

const TEXT_FIELDS = Object.keys(EVENT_TEXT_FIELDS) as EventTextField[];
const build = <T>(entries: [string, unknown][]) => Object.fromEntries(entries) as T;

/** The columns of a new event's text fields: an optional one left out or empty is null. */
export const textColumnsOfNew = (input: NewEventText): EventText =>
  build(TEXT_FIELDS.map((k) => [k, (input as Partial<EventText>)[k] || null]));

/** The columns after an edit: a field left out keeps what is stored. */
export const textColumnsOfUpdate = (input: EventTextUpdate, stored: EventText): EventText =>
  build(
    TEXT_FIELDS.map((k) => [k, (input as Partial<EventText>)[k] === undefined ? stored[k] : (input as EventText)[k]]),
  );

/** The reply's text fields, by their wire names. */
export const textReplyOf = (event: EventText): EventTextReply =>
  build(TEXT_FIELDS.map((k) => [EVENT_TEXT_FIELDS[k].reply, event[k]]));

/** A request's text fields by the names the services use (the schemas' transform). */
export const textOfRequest = <T>(body: Record<string, unknown>): T =>
  build(TEXT_FIELDS.map((k) => [k, body[EVENT_TEXT_FIELDS[k].request]]));

/** An empty draft's text fields. */
export const emptyTextDraft = (): EventTextDraft => build(TEXT_FIELDS.map((k) => [k, ""]));

/** The admin draft's text fields, from the event as get-event answers it (mapped by `eventOfReply`). */
export const textDraftOf = (event: EventText): EventTextDraft => build(TEXT_FIELDS.map((k) => [k, event[k] ?? ""]));

/** The request's text fields, from the admin draft (an empty optional one clears it). */
export const textRequestOf = (draft: EventTextDraft): EventTextRequest =>
  build(TEXT_FIELDS.map((k) => [EVENT_TEXT_FIELDS[k].request, draft[k]]));
