// Who meets whom at a night (issue 37, docs/decisions/037-formats-on-the-night.md): the format's
// values, and the words the forms, cards, door, CSV and summary use for it.

export const EVENT_FORMATS = ["women_men", "one_group", "mixed"] as const;
export type EventFormat = (typeof EVENT_FORMATS)[number];

/** The format select on Add and Edit. */
export const FORMAT_LABELS: Record<EventFormat, string> = {
  women_men: "Women meet men",
  one_group: "One group",
  mixed: "Mixed",
};

/** A line under the select, and on the event summary: what each format means for the room. */
export const FORMAT_HINTS: Record<EventFormat, string> = {
  women_men: "Women meet men, with the seats for each kept even if you set them.",
  one_group: "Everyone meets everyone (a women's night, a men's night): one pool of seats.",
  mixed: "Each guest says whom they would like to meet; a pair meets only when both would. One pool of seats.",
};

/** Only Women meet men splits the seats (and prices and ages) by gender. */
export const splitsByGender = (format: EventFormat) => format === "women_men";

/** The genders a Mixed booking offers, as sent and as shown. */
export const MIXED_GENDERS = [
  { value: "female", label: "Woman" },
  { value: "male", label: "Man" },
  { value: "nonbinary", label: "Non-binary" },
] as const;
export type MixedGender = (typeof MIXED_GENDERS)[number]["value"];

/** "Would like to meet" at a Mixed booking: sensitive (APP 3), seen by the planner alone. */
export const WANTS_TO_MEET = [
  { value: "women", label: "Women" },
  { value: "men", label: "Men" },
  { value: "everyone", label: "Everyone" },
] as const;
export type WantsToMeetValue = (typeof WANTS_TO_MEET)[number]["value"];

/** Why a Mixed booking asks, and who sees it: shown beside the two questions. */
export const MIXED_WHY =
  "We ask only to seat you with people who would like to meet you too. Nobody sees your answer, not even your partners: only the planner uses it.";

/** A guest's gender as the door, the organiser's lists and the CSV say it; nothing where it was not asked. */
export function genderWord(gender: string): string {
  if (gender === "female") return "Woman";
  if (gender === "male") return "Man";
  if (gender === "nonbinary") return "Non-binary";
  return "";
}

/** `12 seats left`: the words a one-pool night uses on its card, door and summary. */
export const seatsLeftWords = (n: number) => `${n} ${n === 1 ? "seat" : "seats"} left`;
