import { utcToWallClock } from "./time-zone.ts";

/**
 * Who may book by age (docs/decisions/023-prices-and-ages.md): the age a person has on the event's
 * date at the venue, from a date of birth `YYYY-MM-DD`. Pure, so the API and the tests share it.
 */

const parts = (date: string) => date.split("-").map(Number) as [number, number, number];

/**
 * Whole years from `dateOfBirth` to `onDate` (both `YYYY-MM-DD`). Someone born on 29 February has
 * their birthday on 1 March in other years: the month and day compare past 28 February only then.
 */
export function ageOn(dateOfBirth: string, onDate: string): number {
  const [by, bm, bd] = parts(dateOfBirth);
  const [y, m, d] = parts(onDate);
  const hadBirthday = m > bm || (m === bm && d >= bd);
  return y - by - (hadBirthday ? 0 : 1);
}

/** The event's date on the venue's clock: a 1 am start in Sydney is the day before in UTC. */
export const eventDate = (startsAt: number, timeZone: string) => utcToWallClock(startsAt, timeZone).date;

/** The age shown to staff (door, Rounds, CSV): a number, never the date; null when none was given. */
export const ageAtEvent = (dateOfBirth: string | null, event: { startsAt: number; timeZone: string }) =>
  dateOfBirth === null ? null : ageOn(dateOfBirth, eventDate(event.startsAt, event.timeZone));

export type AgeRules = {
  fromAge: number;
  toAge: number;
  fromAgeMale: number | null;
  toAgeMale: number | null;
  fromAgeFemale: number | null;
  toAgeFemale: number | null;
};

export type AgeRange = { from: number; to: number };

/** A gender's own bounds where the event sets them, the event's `fromage`–`toage` otherwise. */
export function ageRangeFor(rules: AgeRules, gender: string): AgeRange {
  // A woman's or a man's own range where set; Non-binary and One group's unasked take the event's.
  const from = gender === "male" ? rules.fromAgeMale : gender === "female" ? rules.fromAgeFemale : null;
  const to = gender === "male" ? rules.toAgeMale : gender === "female" ? rules.toAgeFemale : null;
  return { from: from ?? rules.fromAge, to: to ?? rules.toAge };
}

/** `This event is for ages 25–35` (an en dash), the refusal's exact words. */
export const ageRangeMessage = (range: AgeRange) => `This event is for ages ${range.from}–${range.to}`;

/** Whether someone born on `dateOfBirth` is within the range on the event's date at the venue. */
export function ageAllowed(
  event: AgeRules & { startsAt: number; timeZone: string },
  gender: string,
  dateOfBirth: string,
): { ok: boolean; age: number; range: AgeRange } {
  const range = ageRangeFor(event, gender);
  const age = ageOn(dateOfBirth, eventDate(event.startsAt, event.timeZone));
  return { ok: age >= range.from && age <= range.to, age, range };
}
