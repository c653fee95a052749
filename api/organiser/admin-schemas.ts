import { consentChannels } from "../../db/marketing-schema.ts";
import { eventStatuses, personGenders } from "../../db/schema.ts";
import { teamRoles } from "../../db/team-schema.ts";
import { eventDetail, eventSummary } from "../booking/events-schemas.ts";
import { LISTED } from "../booking/waitlist.ts";
import { z } from "../lib/openapi.ts";
import { ACTOR_KINDS } from "./activity.ts";

// The organiser's replies as schemas (docs/api.md, "Admin"); the services read their TypeScript
// types from them (`z.output`): AdminEventListItem (admin-events.ts: the public EventSummary of
// api/booking/events-schemas.ts with the seat plan), AdminEventSummary (event-summary.ts), EventParticipant (participants.ts) and the
// waitlist rows (api/booking/waitlist.ts), and HostLinkRow (host-links.ts), ActivityRow (activity.ts),
// AnnouncementPreview and AnnouncementRow (announcements.ts). Money is AUD dollars, times ISO 8601 UTC.

const time = z.iso.datetime();
/** Who a guest is (db/schema.ts `personGenders`): `unasked` at One group, `nonbinary` at Mixed only. */
const gender = z.enum(personGenders);
const int = () => z.number().int();

/** GET /admin-events: every event, soonest first, with its seat plan (both null with one pool of seats). */
// One closed object with the summary's fields copied in: `.extend` of the registered EventSummary is
// written as `allOf` of two closed objects, which no standard validator accepts (issue 46).
// Go ahead only with at least (issue 52): the counts (null for none) and when they are decided (null when none is set).
const minimumShape = {
  minimumFemale: int().nullable(),
  minimumMale: int().nullable(),
  minimumTotal: int().nullable(),
  minimumBy: time.nullable(),
};

/** The desk's **Short of numbers** (issue 52 part 3): null unless the upcoming night's check found it short. */
export const shortOfNumbers = z
  .strictObject({
    short: z.array(z.strictObject({ side: z.enum(["female", "male", "total"]), needed: int(), booked: int() })),
    at: time,
  })
  .nullable();

export const adminEventList = z.array(
  z
    .strictObject({
      ...eventSummary.shape,
      seatsMale: int().nullable(),
      seatsFemale: int().nullable(),
      ...minimumShape,
      shortOfNumbers,
    })
    .openapi("AdminEventListItem"),
);

/** GET /admin-event/{id}: the public EventDetail and the organiser's own fields, as the Edit form reads them. */
export const adminEventDetail = z.strictObject({ ...eventDetail.shape, ...minimumShape }).openapi("AdminEventDetail");

/** `{total, male, female}`, per gender null unless the event is balanced. */
const byGender = z.strictObject({ total: int(), male: int().nullable(), female: int().nullable() });

/** GET /admin-event-summary/{id}: the Overview tab (AdminEventSummary). */
// Money in AUD dollars (decision 014).
export const adminEventSummary = z.strictObject({
  eventId: int(),
  status: z.enum(eventStatuses),
  seats: byGender,
  // Paid, unrefunded bookings.
  paid: byGender,
  // Holds that have not expired: seats taken by someone still at the checkout.
  held: int(),
  waitlist: int(),
  refunded: int(),
  // Attendees the door checked in (a refund after the night does not undo that they came).
  checkedIn: int(),
  // Money received minus money paid back: what was charged, after every discount.
  revenue: z.number(),
  // Dollars taken off list prices (early bird and promo codes) on paid, unrefunded bookings (decision 023).
  discount: z.number(),
  // Each promo code used by a paid, unrefunded booking: how many and how much they took off.
  codes: z.array(z.strictObject({ code: z.string(), uses: int(), discount: z.number() })),
  // Pairs who both liked each other; null until the results are released (docs/decisions/021-results.md).
  matches: int().nullable(),
  // Guests who came, met someone and rated everyone they met, of those who came and met someone; zeros before the start.
  ratings: z.strictObject({ done: int(), total: int() }),
  // Once the event ended, the guests who came, met someone and rated everyone they met: the same
  // number as `ratings.done`, so the Overview and the Rounds tab agree; null until then.
  feedbackGiven: int().nullable(),
  // Paid guests who came (checked in, or seated in a started round: attendance.ts); zero before the start.
  came: int(),
  // Paid guests who did not come; zero before the start.
  noShows: int(),
  // Credit outstanding across every guest, in cents: issued less spent (docs/decisions/057-credit.md).
  creditOutstandingCents: int(),
  // **Short of numbers** (issue 52 part 3): what the upcoming night lacks since its check; null otherwise.
  shortOfNumbers,
});

/** GET /get-event-user/{id}: the participants table, oldest booking first (EventParticipant). */
// One row: the booking's fields from `id` to `phone`, plus `status`, `checkedInAt`, and for the
// organiser's desk `email` and `bookedAt` (when the payment went through).
export const eventParticipant = z.strictObject({
  // The attendee's user id: the same id the feedback links carry for this participant.
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
  // Age on the event's date, null when no date of birth was given (decision 023).
  age: int().nullable(),
  // Dollars off the list price (early bird and promo code), and the code used, if any.
  discount: z.number(),
  code: z.string().nullable(),
  // The booking's receipt or tax invoice number (`INV-000123`), null when it has none (decision 032).
  invoiceNumber: z.string().nullable(),
  // The buyer's address refused an email for good (an SMTP 5xx, decision 031): write or call them.
  emailBounced: z.boolean(),
});
export const eventParticipants = z.array(eventParticipant);

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

/** A host link as the organiser's page lists it (host-links.ts). */
export const hostLinkRow = z.strictObject({
  id: int(),
  eventID: int(),
  label: z.string(),
  url: z.string(),
  expiresAt: time,
  createdAt: time,
  revokedAt: time.nullable(),
});
export type HostLinkRow = z.output<typeof hostLinkRow>;

/** A person an activity entry concerns; `name` null once their data was erased ("Erased attendee"). */
const activityPerson = z.strictObject({ userID: int(), name: z.string().nullable() });
export type ActivityPerson = z.output<typeof activityPerson>;

/** One entry of the activity log (activity.ts). */
export const activityRow = z.strictObject({
  id: int(),
  /** The latest time, for an entry that counts repeats. */
  at: time,
  actor: z.string(),
  actorKind: z.enum(ACTOR_KINDS),
  action: z.string(),
  eventID: int().nullable(),
  /** The person concerned, or null, named at read time from users (names are never stored there). */
  person: activityPerson.nullable(),
  /** The second person concerned (the partner of a paper card), or null. */
  otherPerson: activityPerson.nullable(),
  detail: z.string().nullable(),
  /** How many times: above 1 for repeats within 15 minutes and failed logins counted per 15 minutes. */
  count: int(),
});
export type ActivityRow = z.output<typeof activityRow>;

/** How many an announcement reaches by each channel. */
export const recipients = z.strictObject({ sms: int(), email: int() });
export type Recipients = z.output<typeof recipients>;

/** What the Invite tab shows before sending (announcements.ts, previewAnnouncement). */
export const announcementPreview = z.strictObject({
  recipients,
  sms: z.string().nullable(),
  email: z.strictObject({ subject: z.string(), text: z.string(), html: z.string() }).nullable(),
});
export type AnnouncementPreview = z.output<typeof announcementPreview>;

/** One announcement as the Invite tab lists it, with its delivery so far (announcements.ts). */
export const announcementRow = z.strictObject({
  id: int(),
  createdAt: time,
  channels: z.array(z.enum(consentChannels)),
  audience: z.strictObject({
    pastGuests: z.boolean().optional(),
    ageFit: z.boolean().optional(),
    gender: z.enum(["female", "male"]).optional(),
    waitlisted: z.boolean().optional(),
  }),
  text: z.string(),
  recipients,
  progress: z.strictObject({ sent: int(), total: int(), suppressed: int(), failed: int() }),
  booked: z.strictObject({ total: int(), female: int(), male: int() }),
});
export type AnnouncementRow = z.output<typeof announcementRow>;

/** GET /team: one member of the Team tab (docs/decisions/050-the-team.md); no secret is in it. */
export const teamRow = z
  .strictObject({
    id: int(),
    name: z.string(),
    email: z.string(),
    role: z.enum(teamRoles),
    status: z.enum(["invited", "active"]),
    signIn: z.array(z.enum(["passkey", "totp"])),
    lastSignInAt: z.iso.datetime({ offset: true }).nullable(),
  })
  .openapi("TeamMember");
export type TeamRow = z.output<typeof teamRow>;

/** GET /owner-security: the owner's own sign-in settings. */
export const ownerSecurityReply = z
  .strictObject({ requireSecondFactor: z.boolean(), passkeys: int(), totp: z.boolean() })
  .openapi("OwnerSecurity");
export type OwnerSecurity = z.output<typeof ownerSecurityReply>;
