import { EVENT_FORMATS } from "../../common/formats.ts";
import { roundsPhases, roundsStatuses, shareChoices } from "../../db/rounds-schema.ts";
import { eventStatuses, feedbackValues, personGenders } from "../../db/schema.ts";
import { z } from "../lib/openapi.ts";

// The replies of the night's calls (the door, feedback, rounds, results) as schemas: the routes
// declare them (docs/decisions/026-contract-as-schemas.md), the PWA's client reads its types from
// them, and every reply is checked against them outside production. The services (api/night/*.ts)
// read their reply types from them (`z.output`, docs/decisions/044-one-name-per-field.md).

const id = z.number().int().positive();
const count = z.number().int().nonnegative();
const time = z.iso.datetime();
// Optional in the staff replies: a host's copy leaves it out at One group and Mixed (api/night/host-gender.ts).
const gender = z.enum(personGenders);
const choice = z.enum(feedbackValues);

// ---------------------------------------------------------------------------------------------------
// The door (api/night/roster.ts, check-in.ts).

/** GET /admin-event/{id}/roster: `Roster`, with the fields its type leaves optional for kept copies. */
export const roster = z.strictObject({
  event: z.strictObject({
    id,
    event_name: z.string(),
    EventDateTime: time,
    event_status: z.string(),
    time_zone: z.string(),
    doorsOpenAt: time,
    format: z.enum(EVENT_FORMATS).optional(),
  }),
  attendees: z.array(
    z.strictObject({
      userID: id,
      name: z.string(),
      gender: gender.optional(),
      thumbName: z.string(),
      phoneLast4: z.string(),
      checkedInAt: time.nullable(),
      age: z.number().int().nullable(),
      codeHash: z.string().nullable(),
    }),
  ),
  refunded: z.array(z.strictObject({ userID: id, name: z.string() })),
  codeKey: z.string().regex(/^[0-9a-f]{64}$/),
});

export const checkedIn = z.strictObject({ success: z.literal(true), checkedInAt: time });
export const checkInUndone = z.strictObject({ success: z.literal(true), checkedInAt: z.null() });
export const doorsOpened = z.strictObject({ success: z.literal(true), doorsOpenAt: time });

// ---------------------------------------------------------------------------------------------------
// Feedback (api/night/feedback.ts, ratings.ts, feedback-report.ts, contact-sharing.ts).

/** A partner as a guest's pages show them: `Partner` (`image_name` the thumbnail). */
const partner = z.strictObject({ id, username: z.string(), image_name: z.string() });

export const participants = z.strictObject({
  participants: z.array(partner.extend({ myChoice: choice.nullable() })),
  offersFriend: z.boolean(),
  ratingsClosedAt: time.nullable(),
  timeZone: z.string(),
  reportPath: z.string().nullable(),
});

/** What is stored now for one rating, from a guest's tap or a paper card. */
export const storedRating = z.strictObject({
  success: z.literal(true),
  feedback: choice,
  clientTs: z.number().int(),
});

export const shareChoice = z.enum(shareChoices);

/**
 * `FeedbackReport`: contact details (`phone` E.164, `email`, `instagram`) only as the person chose to
 * share them with this guest, and never when this guest said No to them; `myShare` on a match.
 */
const reportEntry = partner.extend({
  phone: z.string().optional(),
  email: z.string().optional(),
  instagram: z.string().optional(),
  sharedNothing: z.literal(true).optional(),
  myShare: shareChoice.optional(),
  myInstagram: z.string().nullable().optional(),
});
export const feedbackReport = z.strictObject({
  mutual: z.array(reportEntry),
  friends: z.array(reportEntry),
  likedme: z.array(reportEntry),
  iliked: z.array(reportEntry),
  offersFriend: z.boolean(),
});

export const contactShared = z.strictObject({ share: shareChoice, instagram: z.string().nullable() });

// ---------------------------------------------------------------------------------------------------
// Rounds (api/night/rounds.ts, rounds-guest.ts, guest-messages.ts).

const clock = {
  current: z.number().int().nullable(),
  phase: z.enum(roundsPhases).nullable(),
  phaseEndsAt: time.nullable(),
  serverNow: time,
};
const roundsStatus = z.enum(["none", ...roundsStatuses]);

/** `RoundsView`: what every host rounds call answers. */
export const roundsView = z.strictObject({
  // The event's own status: the rounds are run while it is `started`, and read-only after it ended.
  eventStatus: z.enum(eventStatuses),
  status: roundsStatus,
  settings: z.strictObject({
    roundMinutes: z.number().int(),
    breakMinutes: z.number().int(),
    maxRounds: z.number().int().nullable(),
    seated: z.enum(["female", "male"]),
  }),
  ...clock,
  // Who meets whom (issue 37): at One group and Mixed a table's two seats are alike.
  format: z.enum(EVENT_FORMATS),
  // The women and men present now (0 and 0 at One group, which asks no gender).
  present: z.strictObject({ female: count, male: count }),
  // Everyone present now, whatever their gender: the count One group and Mixed show.
  presentTotal: count,
  rounds: z.array(
    z.strictObject({
      round: z.number().int().positive(),
      pairs: z.array(z.strictObject({ table: z.number().int().positive(), femaleID: id, maleID: id })),
      sitOut: z.array(id),
    }),
  ),
  // Every checked-in attendee, present or left, by name: never an email or a full phone.
  people: z.array(
    z.strictObject({
      userID: id,
      username: z.string(),
      // Left out of a host's copy at One group and Mixed (api/night/host-gender.ts).
      gender: gender.optional(),
      // The 320 px thumbnail.
      image_name: z.string(),
      // Marked **Left**: not present, so left out of any re-plan.
      left: z.boolean(),
      // When they were checked in at the door.
      arrivedAt: time,
      // Age on the event's date (never the date of birth); null when none was given.
      age: z.number().int().nullable(),
    }),
  ),
  // Present now but not in the plan: checked in (or back) since the last Plan or Re-plan.
  arrivals: z.array(id),
  // Where the plan seats two people who met at an earlier night
  // (docs/decisions/030-nobody-across-the-table-twice.md): only where no plan of the night's shape
  // could avoid it. The console says how many (`2 pairs met at an earlier night`).
  metBefore: z.array(z.strictObject({ round: z.number().int().positive(), table: z.number().int().positive() })),
  // The host's **Announce**, while the round it was made in lasts (its changeover too); else null.
  announcement: z.string().nullable(),
});

/** `KeepApartView` (api/night/keep-apart.ts): the organiser's Keep apart card. */
export const keepApartView = z.strictObject({
  pairs: z.array(z.strictObject({ userIDs: z.tuple([id, id]), names: z.tuple([z.string(), z.string()]) })),
  guests: z.array(z.strictObject({ userID: id, username: z.string(), gender })),
});

/** What POST /keep-apart answers: the card as it is now, and whether the plan was re-planned. */
export const keepApartChanged = keepApartView.extend({ replanned: z.boolean() });

/** `MyRoundsView`: the guest's night. */
export const myRoundsView = z.strictObject({
  status: roundsStatus,
  ...clock,
  // The guest's rounds of the plan in order; rounds they are not part of (they came later, left) are left out.
  schedule: z.array(
    z.strictObject({
      round: z.number().int().positive(),
      // The table to sit at; null when sitting this round out.
      table: z.number().int().positive().nullable(),
      partner: partner.nullable(),
    }),
  ),
  // The host's **Announce** while its round lasts (issue 37); null otherwise.
  announcement: z.string().nullable(),
});

/** `GuestMessagePreview`: what the Message guests dialog shows before sending. */
export const guestMessagePreview = z.strictObject({
  eventName: z.string(),
  counts: z.strictObject({ all: count, arrived: count, not_arrived: count }),
  // Messages sent to this event in the last hour, and how many an hour allows.
  sentLastHour: count,
  perHour: count,
  // False once the event has ended or was cancelled: nothing more is sent.
  open: z.boolean(),
});

export const messagesSent = z.strictObject({ sent: count, failed: count });

// ---------------------------------------------------------------------------------------------------
// Results (api/night/results.ts).

/** `eventRatings`: who has rated, for the results panel and paper scorecards. */
export const ratingsView = z.strictObject({
  resultsAt: time,
  released: z.boolean(),
  offersFriend: z.boolean(),
  ratings: z.strictObject({ done: count, total: count }),
  people: z.array(
    z.strictObject({
      id,
      name: z.string(),
      gender: gender.optional(),
      done: z.boolean(),
      partners: z.array(
        z.strictObject({
          id,
          username: z.string(),
          rated: z.boolean(),
          by: z.enum(["guest", "staff"]).nullable(),
          feedback: choice.nullable(),
        }),
      ),
    }),
  ),
});

export const resultsReleased = z.strictObject({
  success: z.literal(true),
  releasedAt: time,
  sent: count,
  failed: count,
});
