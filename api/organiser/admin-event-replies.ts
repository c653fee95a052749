import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "../../db/client.ts";
import { events } from "../../db/schema.ts";
import { getEvent, listEventRows, toSummary } from "../booking/events.ts";
import type { adminEventDetail, adminEventList } from "./admin-schemas.ts";
import { minimumReply } from "./minimum-numbers.ts";
import { shortOfNumbersOf } from "./short-of-numbers.ts";

/** The event list as the organiser reads it: the public answers plus each event's seat plan. */
export type AdminEventListItem = z.output<typeof adminEventList>[number];
export type AdminEventDetail = z.output<typeof adminEventDetail>;

export function listAdminEvents(db: Db, now: number): AdminEventListItem[] {
  return listEventRows(db, now).map(({ event, use }) => ({
    ...toSummary(event, use, now),
    seatsMale: event.seatsMale,
    seatsFemale: event.seatsFemale,
    ...minimumReply(event),
    shortOfNumbers: shortOfNumbersOf(db, event),
  }));
}

/** One event as the Edit form reads it: the public detail and the organiser's own fields. */
export function getAdminEvent(db: Db, id: number, now: number): AdminEventDetail {
  const detail = getEvent(db, id, now);
  const event = db.select().from(events).where(eq(events.id, id)).get()!;
  return { ...detail, ...minimumReply(event) };
}
