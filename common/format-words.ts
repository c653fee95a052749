import type { EventFormat } from "./formats.ts";

// The longer words of the formats (issue 37): the Add and Edit forms' hints, a Mixed booking's
// questions, and a guest's gender as the door and the lists say it. Apart from common/formats.ts, which
// the home page's cards read, so none of this is in the home page's first download.

/** A line under the select, and on the event summary: what each format means for the room. */
export const FORMAT_HINTS: Record<EventFormat, string> = {
  women_men: "Women meet men, with the seats for each kept even if you set them.",
  one_group: "Everyone meets everyone (a women's night, a men's night): one pool of seats.",
  mixed: "Each guest says whom they would like to meet; a pair meets only when both would. One pool of seats.",
};

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
