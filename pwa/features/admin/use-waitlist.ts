import { getWaitlist, type WaitlistRow } from "./admin-api.ts";
import { type EventRowsState, useEventRows } from "./use-event-rows.ts";

export type WaitlistState = EventRowsState<WaitlistRow>;

const rowsOf = (data: { waitlist: WaitlistRow[] }) => data.waitlist;

/** An event's waitlist for the organiser; `reload` after anything that may free a seat (a refund). */
export const useWaitlist = (eventId: number | null) => useEventRows(eventId, getWaitlist, rowsOf);
