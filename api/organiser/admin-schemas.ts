import { eventStatuses, personGenders } from "../../db/schema.ts";
import { eventSummary } from "../booking/events-schemas.ts";
import { LISTED } from "../booking/waitlist.ts";
import { z } from "../lib/openapi.ts";

// The organiser's replies as schemas (docs/api.md, "Admin"), each matching the TypeScript type its
// service answers: AdminEventListItem (admin-events.ts: the public EventSummary of
// api/booking/events-schemas.ts with the seat plan), AdminEventSummary (event-summary.ts), EventParticipant (participants.ts) and the
// waitlist rows (api/booking/waitlist.ts). Money is AUD dollars, times ISO 8601 UTC.

const time = z.iso.datetime();
/** Who a guest is (db/schema.ts `personGenders`): `unasked` at One group, `nonbinary` at Mixed only. */
const gender = z.enum(personGenders);
const int = () => z.number().int();

/** GET /admin-events: every event, soonest first, with its seat plan (both null with one pool of seats). */
// One closed object with the summary's fields copied in: `.extend` of the registered EventSummary is
// written as `allOf` of two closed objects, which no standard validator accepts (issue 46).
export const adminEventList = z.array(
  z
    .strictObject({ ...eventSummary.shape, seatsMale: int().nullable(), seatsFemale: int().nullable() })
    .openapi("AdminEventListItem"),
);

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
    invoiceNumber: z.string().nullable(),
    emailBounced: z.boolean(),
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
