import type { Event } from "../../db/schema.ts";

// Which fields an edit of an event changed, in the Edit form's words, for the activity log
// (admin-routes.ts logs them after update-event).

/**
 * What the activity log calls an event's columns when an edit changes them (`price, seats`), in the
 * Edit form's words. A column not named here (a new one) is logged by its own name, split into words.
 */
const EDITED_FIELD_NAMES: Partial<Record<keyof Event, string>> = {
  name: "name",
  startsAt: "date and time",
  timeZone: "time zone",
  address: "address",
  priceCents: "price",
  priceMaleCents: "price",
  priceFemaleCents: "price",
  earlyBirdDiscountCents: "early-bird price",
  earlyBirdUntil: "early-bird price",
  durationHours: "duration",
  fromAge: "ages",
  toAge: "ages",
  fromAgeMale: "ages",
  toAgeMale: "ages",
  fromAgeFemale: "ages",
  toAgeFemale: "ages",
  totalSeats: "seats",
  seatsMale: "seats",
  seatsFemale: "seats",
  resultsAt: "results time",
  creditUntil: "credit until",
  minimumFemale: "go ahead only with at least",
  minimumMale: "go ahead only with at least",
  minimumTotal: "go ahead only with at least",
  minimumBy: "go ahead only with at least",
  noMatchPromise: "no-match promise",
  cancelFullRefundHours: "cancellation policy",
  cancelLaterPercent: "cancellation policy",
};

/** Bookkeeping the edit form never sets: not worth a word in the log. */
const UNLOGGED_FIELDS = new Set<string>(["id", "createdAt", "updatedAt", "imageName"]);

/** The names of the fields an edit changed, each once, in the form's order. */
export function changedEventFields(before: Event, after: Event): string[] {
  const names = new Set<string>();
  for (const key of Object.keys(after) as (keyof Event)[]) {
    if (UNLOGGED_FIELDS.has(key) || before[key] === after[key]) continue;
    names.add(EDITED_FIELD_NAMES[key] ?? key.replace(/([A-Z])/g, " $1").toLowerCase());
  }
  return [...names];
}
