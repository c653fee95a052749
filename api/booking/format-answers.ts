import { FORMAT_LABELS } from "../../common/formats.ts";
import type { Event, PersonGender, WantsToMeet } from "../../db/schema.ts";
import { BadRequest } from "../lib/errors.ts";

/** What a booking form or a waitlist form sent about its person: each asked at some formats only. */
export type FormAnswers = { gender?: "male" | "female" | "nonbinary"; wantsToMeet?: WantsToMeet };

/**
 * The gender and "would like to meet" to store for a booking at `event`, by its format (issue 37,
 * docs/decisions/037-formats-on-the-night.md): Women meet men asks Woman or Man; One group asks
 * neither (stored `unasked`); Mixed asks Woman, Man or Non-binary and whom they would like to meet.
 * A question the format does not ask is a 400, so an answer is never stored where it was not asked
 * (least of all someone's orientation).
 */
export function answersFor(
  event: Pick<Event, "format">,
  form: FormAnswers,
  options: { wantsToMeet: boolean } = { wantsToMeet: true },
): { gender: PersonGender; wantsToMeet: WantsToMeet | null } {
  const label = FORMAT_LABELS[event.format];
  if (event.format !== "mixed" && form.wantsToMeet !== undefined) {
    throw BadRequest(`${label} nights do not ask whom you would like to meet.`);
  }
  switch (event.format) {
    case "women_men":
      if (form.gender !== "male" && form.gender !== "female") throw BadRequest("Gender must be male or female.");
      return { gender: form.gender, wantsToMeet: null };
    case "one_group":
      if (form.gender !== undefined) throw BadRequest(`${label} nights do not ask for a gender.`);
      return { gender: "unasked", wantsToMeet: null };
    case "mixed":
      if (form.gender === undefined) throw BadRequest("Gender must be female, male or nonbinary.");
      if (!options.wantsToMeet) return { gender: form.gender, wantsToMeet: null };
      if (form.wantsToMeet === undefined)
        throw BadRequest("Whom you would like to meet must be women, men or everyone.");
      return { gender: form.gender, wantsToMeet: form.wantsToMeet };
  }
}
