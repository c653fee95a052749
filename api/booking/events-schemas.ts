import { EVENT_FORMATS } from "../../common/formats.ts";
import { eventStatuses } from "../../db/schema.ts";
import { z } from "../lib/openapi.ts";

// The public event replies as schemas (docs/api.md, "Events"): EventSummary and EventDetail of
// events.ts, field for field, so the reply check and the compiler hold them together.

/** What each gender pays if they hold a seat now, and seats left per gender: `{male, female}`. */
const perGender = z.strictObject({ male: z.number(), female: z.number() });

/** An event's cancellation policy (common/cancellation.ts), on its card, its ticket and /me. */
export const cancellationPolicy = z.strictObject({
  fullRefundHours: z.number().int().min(0),
  laterPercent: z.number().int().min(0).max(100),
});

/** PricesAndAges of events.ts: dollars, ages, the early bird, null where the event does not set them. */
const pricesAndAges = {
  bookingAmountMale: z.number().nullable(),
  bookingAmountFemale: z.number().nullable(),
  earlyBirdDiscount: z.number().nullable(),
  earlyBirdUntil: z.iso.datetime().nullable(),
  fromAgeMale: z.number().int().nullable(),
  toAgeMale: z.number().int().nullable(),
  fromAgeFemale: z.number().int().nullable(),
  toAgeFemale: z.number().int().nullable(),
  currentAmount: perGender,
  cancellationPolicy,
  offersFriend: z.boolean(),
  // Absent at Women meet men, so its answers stay exactly as they were (issue 37).
  format: z.enum(EVENT_FORMATS).optional(),
};

const summaryFields = {
  id: z.number().int(),
  event_name: z.string(),
  event_image: z.string(),
  EventDateTime: z.iso.datetime(),
  event_address: z.string(),
  booking_amount: z.number(),
  SeatAvailabilityPer: z.number().int(),
  event_status: z.enum(eventStatuses),
  event_duration: z.number(),
  from_age: z.number().int(),
  to_age: z.number().int(),
  time_zone: z.string(),
  SeatsLeft: z.strictObject({ male: z.number().int(), female: z.number().int() }).nullable(),
  seatsLeftTotal: z.number().int(),
  resultsAt: z.iso.datetime(),
  doorsOpenAt: z.iso.datetime(),
  ...pricesAndAges,
};

/** One event as `GET /api/get-events` lists it (EventSummary). */
export const eventSummary = z.strictObject(summaryFields).openapi("EventSummary");

/** One event as `GET /api/get-event/{id}` answers it (EventDetail): the summary and the seat plan. */
export const eventDetail = z
  .strictObject({
    ...summaryFields,
    event_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    event_time: z.string().regex(/^\d{2}:\d{2}$/),
    total_seats: z.number().int(),
    seatsMale: z.number().int().nullable(),
    seatsFemale: z.number().int().nullable(),
  })
  .openapi("EventDetail");
