import { formatVenueTime } from "../../../common/time-zone.ts";
import type { Event } from "../../../db/schema.ts";

// The waitlist's texts (api/booking/waitlist.ts and waitlist-offers.ts,
// docs/decisions/015-balanced-rooms-and-waitlist.md): a freed seat offered, and the line closing.

type WaitlistEvent = Pick<Event, "name" | "startsAt" | "timeZone">;

/** A seat offered to the next in line: the night, how long it is kept, and the offer's link last. */
export const waitlistOfferText = (input: { event: WaitlistEvent; expiresAt: number; offerUrl: string }) =>
  `A seat is free at ${input.event.name}, ${formatVenueTime(input.event.startsAt, input.event.timeZone)}. It is kept for you until ${formatVenueTime(input.expiresAt, input.event.timeZone)}: ${input.offerUrl}`;

/** Sales closed with people still in line (Start Event, or the start time passing). */
export const waitlistClosedText = (input: { event: Pick<Event, "name"> }) =>
  `${input.event.name} is full tonight, so your place on the waitlist has closed. We'll let you know about the next one.`;

/** The night was cancelled: whoever is still waiting hears the line is closed. */
export const waitlistCancelledText = (input: { event: WaitlistEvent }) =>
  `${input.event.name} on ${formatVenueTime(input.event.startsAt, input.event.timeZone)} has been cancelled, so the waitlist is closed. Sorry!`;
