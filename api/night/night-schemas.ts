import { EVENT_FORMATS } from "../../common/formats.ts";
import { roundsPhases, roundsStatuses, shareChoices } from "../../db/rounds-schema.ts";
import { eventStatuses, feedbackValues, personGenders } from "../../db/schema.ts";
import { z } from "../lib/openapi.ts";

// The replies of the night's calls (the door, feedback, rounds, results) as schemas: the routes
// declare them (docs/decisions/026-contract-as-schemas.md), the PWA's client reads its types from
// them, and every reply is checked against them outside production. Each matches the service's own
// TypeScript type (api/night/*.ts), which the compiler holds the handlers to.

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
  eventStatus: z.enum(eventStatuses),
  status: roundsStatus,
  settings: z.strictObject({
    roundMinutes: z.number().int(),
    breakMinutes: z.number().int(),
    maxRounds: z.number().int().nullable(),
    seated: z.enum(["female", "male"]),
  }),
  ...clock,
  format: z.enum(EVENT_FORMATS),
  present: z.strictObject({ female: count, male: count }),
  presentTotal: count,
  rounds: z.array(
    z.strictObject({
      round: z.number().int().positive(),
      pairs: z.array(z.strictObject({ table: z.number().int().positive(), femaleID: id, maleID: id })),
      sitOut: z.array(id),
    }),
  ),
  people: z.array(
    z.strictObject({
      userID: id,
      username: z.string(),
      gender: gender.optional(),
      image_name: z.string(),
      left: z.boolean(),
      arrivedAt: time,
      age: z.number().int().nullable(),
    }),
  ),
  arrivals: z.array(id),
  metBefore: z.array(z.strictObject({ round: z.number().int().positive(), table: z.number().int().positive() })),
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
  schedule: z.array(
    z.strictObject({
      round: z.number().int().positive(),
      table: z.number().int().positive().nullable(),
      partner: partner.nullable(),
    }),
  ),
  announcement: z.string().nullable(),
});

/** `GuestMessagePreview`: what the Message guests dialog shows before sending. */
export const guestMessagePreview = z.strictObject({
  eventName: z.string(),
  counts: z.strictObject({ all: count, arrived: count, not_arrived: count }),
  sentLastHour: count,
  perHour: count,
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
