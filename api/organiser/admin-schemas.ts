import { eventImageForm, newEventForm } from "../../common/event-fields.ts";
import { eventStatuses, genders } from "../../db/schema.ts";
import { LISTED } from "../booking/waitlist.ts";
import { z } from "../lib/openapi.ts";

// The organiser's replies as schemas (docs/api.md, "Admin"), each matching the TypeScript type its
// service answers: EventSummary and EventDetail (api/booking/events.ts), AdminEventListItem
// (admin-events.ts), AdminEventSummary (event-summary.ts), EventParticipant (participants.ts) and the
// waitlist rows (api/booking/waitlist.ts). Money is AUD dollars, times ISO 8601 UTC.

const time = z.iso.datetime();
const gender = z.enum(genders);
const int = () => z.number().int();

/** The prices and per-gender ages every event answer carries (PricesAndAges, decision 023). */
const pricesAndAges = {
  bookingAmountMale: z.number().nullable(),
  bookingAmountFemale: z.number().nullable(),
  earlyBirdDiscount: z.number().nullable(),
  earlyBirdUntil: time.nullable(),
  fromAgeMale: int().nullable(),
  toAgeMale: int().nullable(),
  fromAgeFemale: int().nullable(),
  toAgeFemale: int().nullable(),
  currentAmount: z.strictObject({ male: z.number(), female: z.number() }),
};

/** One event as the public list answers it (EventSummary). */
const eventSummary = z.strictObject({
  id: int(),
  event_name: z.string(),
  event_image: z.string(),
  EventDateTime: time,
  event_address: z.string(),
  booking_amount: z.number(),
  SeatAvailabilityPer: int(),
  event_status: z.enum(eventStatuses),
  event_duration: z.number(),
  from_age: int(),
  to_age: int(),
  time_zone: z.string(),
  SeatsLeft: z.strictObject({ male: int(), female: int() }).nullable(),
  seatsLeftTotal: int(),
  resultsAt: time,
  doorsOpenAt: time,
  ...pricesAndAges,
});

/** The seat plan of a balanced event, both null when it has one pool of seats (decision 015). */
const seatPlan = { seatsMale: int().nullable(), seatsFemale: int().nullable() };

/** GET /admin-events: every event, soonest first, with its seat plan. */
export const adminEventList = z.array(eventSummary.extend(seatPlan));

/** GET /admin-event/{id}: EventDetail, the event's fields as the Edit form reads them. */
export const eventDetail = eventSummary.extend({
  event_date: z.iso.date(),
  event_time: z.string().regex(/^\d{2}:\d{2}$/),
  total_seats: int(),
  ...seatPlan,
});

/** `{total, male, female}`, per gender null unless the event is balanced. */
const byGender = z.strictObject({ total: int(), male: int().nullable(), female: int().nullable() });

/** GET /admin-event-summary/{id}: the Overview tab (AdminEventSummary). */
export const adminEventSummary = z.strictObject({
  eventId: int(),
  status: z.enum(eventStatuses),
  seats: byGender,
  paid: byGender,
  held: int(),
  waitlist: int(),
  refunded: int(),
  checkedIn: int(),
  revenue: z.number(),
  discount: z.number(),
  codes: z.array(z.strictObject({ code: z.string(), uses: int(), discount: z.number() })),
  matches: int().nullable(),
  ratings: z.strictObject({ done: int(), total: int() }),
  feedbackGiven: int().nullable(),
  came: int(),
  noShows: int(),
});

/** GET /get-event-user/{id}: the participants table, oldest booking first (EventParticipant). */
export const eventParticipants = z.array(
  z.strictObject({
    id: int(),
    username: z.string(),
    gender,
    booking_amount: z.number(),
    payment_intent_id: z.string().nullable(),
    image_name: z.string(),
    phone: z.string(),
    status: z.enum(["paid", "refunded"]),
    checkedInAt: time.nullable(),
    email: z.string(),
    bookedAt: time,
    age: int().nullable(),
    discount: z.number(),
    code: z.string().nullable(),
  }),
);

/** GET /admin-event/{id}/waitlist: the line, then those whose place closed at the start. */
export const adminWaitlist = z.strictObject({
  success: z.literal(true),
  waitlist: z.array(
    z.strictObject({
      position: int(),
      name: z.string(),
      phone: z.string(),
      gender,
      status: z.enum(LISTED),
      joinedAt: time,
    }),
  ),
});

// The forms' file fields, described for the document (`format: binary`): a file field with no
// description stops /api/openapi.json from being generated. Each validates exactly as
// common/event-fields.ts says (same schema, its message too), with metadata added by zod's own
// `.meta()`: `.openapi()` exists only on schemas made after @hono/zod-openapi was loaded, and
// common/ is loaded by the PWA and by tests in any order.
const binary = { type: "string", format: "binary" } as const;

/** save-event's multipart form: newEventForm, its picture described as a file. */
export const newEventFormDoc = newEventForm.in
  .extend({ eventImage: newEventForm.in.shape.eventImage.meta(binary) })
  .pipe(newEventForm.out);

/** update-event-image's multipart form: eventImageForm, its picture described as a file. */
export const eventImageFormDoc = eventImageForm.extend({ eventImage: eventImageForm.shape.eventImage.meta(binary) });
