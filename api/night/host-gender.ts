import { eq } from "drizzle-orm";
import type { EventFormat } from "../../common/formats.ts";
import type { DbOrTx } from "../../db/client.ts";
import { events, type PersonGender } from "../../db/schema.ts";
import type { Caller } from "../lib/caller.ts";
import { seesAsOrganiser } from "../lib/staff.ts";

/**
 * A host needs a name, a photo and a ticket status, not a gender
 * (docs/decisions/040-sharing-defaults-and-stream-rights.md): at One group and Mixed a host's
 * replies carry none; at Women meet men only the woman or man its counts need. The organiser's own
 * views keep it (a Door member's are a host's). Applied where a staff reply leaves the route, so every service stays one shape.
 */
export function genderForCaller<T extends { gender?: PersonGender }>(
  people: T[],
  format: EventFormat,
  caller: Caller,
): T[] {
  if (seesAsOrganiser(caller)) return people;
  return people.map(({ gender, ...rest }) =>
    format === "women_men" && (gender === "female" || gender === "male") ? { ...rest, gender } : rest,
  ) as T[];
}

/** The event's format, for `genderForCaller` where the reply does not carry it. */
export const formatOfEvent = (db: DbOrTx, eventId: number): EventFormat =>
  db.select({ format: events.format }).from(events).where(eq(events.id, eventId)).get()?.format ?? "women_men";
