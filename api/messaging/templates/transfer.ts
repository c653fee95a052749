import { formatVenueTime } from "../../../common/time-zone.ts";
import type { Event } from "../../../db/schema.ts";

// A ticket given to a friend (api/booking/transfer.ts, docs/decisions/058-ticket-transfer.md): the
// one text the friend gets with the link. Transactional: nothing promotional, and nothing of the buyer
// (the friend knows who sent it; the text does not say it again).

/** The offer's text to the friend's number: the night, what to do, and the link last. */
export const transferOfferText = (input: {
  event: Pick<Event, "name" | "startsAt" | "timeZone" | "address">;
  transferUrl: string;
}) =>
  `A ticket to ${input.event.name} on ${formatVenueTime(input.event.startsAt, input.event.timeZone)} at ${input.event.address} was given to you. ` +
  `Verify this number and add your details before the doors open to get your own ticket: ${input.transferUrl}`;
