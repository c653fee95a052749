import { resultsAtOf, resultsWhen } from "../../../common/results-time.ts";
import type { Event } from "../../../db/schema.ts";

// The night's texts to every paid guest (api/organiser/event-lifecycle.ts): when it starts, and when
// it ends. The rating link (`ratingUrl`) is each guest's own.

/** Start Event: the rating link, for tonight. */
export const nightStartedText = (input: { event: Pick<Event, "name">; ratingUrl: string }) =>
  `${input.event.name} has started! Tap to like or pass on the people you meet tonight: ${input.ratingUrl}`;

/**
 * End Event, to a guest who came: the rating link again, and when the matches come. The report link
 * waits for the release (docs/decisions/021-results.md), so nobody learns on the way home who did not
 * pick them.
 */
export const nightEndedText = (input: {
  event: Pick<Event, "name" | "startsAt" | "durationHours" | "timeZone" | "resultsAt">;
  now: number;
  ratingUrl: string;
}) =>
  `Thanks for coming to ${input.event.name}! Rate the people you met by ${resultsWhen(resultsAtOf(input.event), input.event.timeZone, input.now)}, when your matches arrive: ${input.ratingUrl}`;

/**
 * End Event, to a paid guest who did not come: not thanked nor sent a rating link, one word that we
 * missed them, and whom to ask (the refund question usually follows).
 */
export const noShowText = (input: { event: Pick<Event, "name">; supportEmail: string }) =>
  `Sorry we missed you at ${input.event.name}. Questions? ${input.supportEmail}`;
