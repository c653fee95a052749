import { textReplyFields } from "../../common/event-fields.ts";
import { EVENT_WIRE_NAMES as W } from "../../common/event-wire.ts";
import { EVENT_FORMATS } from "../../common/formats.ts";
import { eventStatuses } from "../../db/schema.ts";
import { z } from "../lib/openapi.ts";

// The public event replies (docs/api.md, "Events"), declared once: the routes answer with these
// schemas, and events.ts reads its EventSummary, PricesAndAges and EventDetail types from them
// (`z.output`), so the reply check, the OpenAPI document and the compiler hold one shape.

/** What each gender pays if they hold a seat now, and seats left per gender: `{male, female}`. */
const perGender = z.strictObject({ male: z.number(), female: z.number() });

/** An event's cancellation policy (common/cancellation.ts), on its card, its ticket and /me. */
export const cancellationPolicy = z.strictObject({
  fullRefundHours: z.number().int().min(0),
  laterPercent: z.number().int().min(0).max(100),
});

/**
 * Who may book and what they pay (docs/decisions/023-prices-and-ages.md). Dollars like
 * `booking_amount`; null where the event does not set the field. `currentAmount` is what each gender
 * pays if they hold a seat now, before any promo code (the early bird taken off while it runs).
 */
export const pricesAndAgesReply = z.strictObject({
  bookingAmountMale: z.number().nullable(),
  bookingAmountFemale: z.number().nullable(),
  earlyBirdDiscount: z.number().nullable(),
  // ISO 8601 UTC; the organiser set it on the venue's clock.
  earlyBirdUntil: z.iso.datetime().nullable(),
  // `20 Dec`: that day on the venue's clock, as the card writes it (`$35 early bird until 20 Dec, then $45`).
  earlyBirdUntilText: z.string().nullable(),
  fromAgeMale: z.number().int().nullable(),
  toAgeMale: z.number().int().nullable(),
  fromAgeFemale: z.number().int().nullable(),
  toAgeFemale: z.number().int().nullable(),
  currentAmount: perGender,
  // What a guest gets back on cancelling (docs/decisions/028-cancellation-money-path.md).
  cancellationPolicy,
  // Partners are chosen Date, Friend or No (issue 37) rather than Like or Dislike.
  offersFriend: z.boolean(),
  // Who meets whom (issue 37): the booking form and the card follow it. Absent at Women meet men, so
  // its answers stay exactly as they were; a client reads its absence as `women_men`.
  format: z.enum(EVENT_FORMATS).optional(),
});

// The wire names are common/event-wire.ts's; the text fields (the name, the address) come from its table.
const summaryFields = {
  [W.id.reply]: z.number().int(),
  ...textReplyFields(),
  [W.imageName.reply]: z.string(),
  [W.startsAt.reply]: z.iso.datetime(),
  [W.priceCents.reply]: z.number(),
  SeatAvailabilityPer: z.number().int(),
  [W.status.reply]: z.enum(eventStatuses),
  [W.durationHours.reply]: z.number(),
  [W.fromAge.reply]: z.number().int(),
  [W.toAge.reply]: z.number().int(),
  // The venue's IANA zone; `EventDateTime` stays UTC, so clients that ignore the zone keep working (decision 005).
  [W.timeZone.reply]: z.string(),
  // The start as the cards write it, so a phone needs no Intl to show it: the venue's day and time with
  // its zone (`Tue`, `2026-12-01 07:00 PM AEDT`) and the UTC line (`2026-12-01 08:00 AM UTC`).
  startsAtText: z.strictObject({ weekday: z.string(), local: z.string(), utc: z.string() }),
  // Seats left per gender at a balanced event, null at one with a single pool (decision 015).
  SeatsLeft: z.strictObject({ male: z.number().int(), female: z.number().int() }).nullable(),
  // Seats left in all: the count behind `SeatAvailabilityPer`, so a card can say "3 seats left".
  seatsLeftTotal: z.number().int(),
  // When the matches are released (ISO, UTC): the organiser's time or the default (docs/decisions/021-results.md).
  resultsAt: z.iso.datetime(),
  // When the door may check people in (ISO, UTC): the organiser's time or the default (docs/decisions/008-door.md).
  doorsOpenAt: z.iso.datetime(),
  // Until when Cancel my booking offers credit of the full price (ISO, UTC): the organiser's time or the start (issue 52).
  creditUntil: z.iso.datetime(),
  // No match? Your next night is on us. (issue 52): the card and the confirmation say it when true.
  noMatchPromise: z.boolean(),
  ...pricesAndAgesReply.shape,
};

/** One event as `GET /api/get-events` lists it (EventSummary). */
export const eventSummary = z.strictObject(summaryFields).openapi("EventSummary");

/** One event as `GET /api/get-event/{id}` answers it (EventDetail): the summary and the seat plan. */
export const eventDetail = z
  .strictObject({
    ...summaryFields,
    event_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    event_time: z.string().regex(/^\d{2}:\d{2}$/),
    [W.totalSeats.reply]: z.number().int(),
    // The seat plan of a balanced event, both null when it has one pool of seats.
    seatsMale: z.number().int().nullable(),
    seatsFemale: z.number().int().nullable(),
  })
  .openapi("EventDetail");
