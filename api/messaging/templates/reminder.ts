import { formatVenueTime, utcToWallClock } from "../../../common/time-zone.ts";
import type { Event } from "../../../db/schema.ts";
import { type Block, calendarAttachment, compose, type EmailContent, type TicketEmail, when } from "./email-frame.ts";
import { venueNotesFact, venueNotesSentence, type WithVenueNotes } from "./ticket.ts";

// The reminders before the night (api/messaging/reminders.ts): the text, and the email with the
// night's `.ics` again.

const DAY = 24 * 3_600_000;

/** "today", "tomorrow" or "in 3 days", counted in calendar days at the venue. */
function daysAway(now: number, startsAt: number, zone: string): string {
  const day = (ms: number) => Date.parse(`${utcToWallClock(ms, zone).date}T00:00:00Z`);
  const days = Math.round((day(startsAt) - day(now)) / DAY);
  return days <= 0 ? "today" : days === 1 ? "tomorrow" : `in ${days} days`;
}

/** The reminder text: how far off the night is, when and where (and the venue notes), and the link to the saved tickets. */
export const reminderText = (input: {
  event: Pick<Event, "name" | "startsAt" | "timeZone" | "address"> & WithVenueNotes;
  now: number;
  ticketsUrl: string;
}) =>
  `Reminder: ${input.event.name} is ${daysAway(input.now, input.event.startsAt, input.event.timeZone)}, ${formatVenueTime(input.event.startsAt, input.event.timeZone)}, at ${input.event.address}. ` +
  venueNotesSentence(input.event) +
  `Your ticket: ${input.ticketsUrl}`;

/** The reminder before the night, with the `.ics` again. */
export function reminderEmail(input: TicketEmail & { event: WithVenueNotes }): EmailContent {
  const { event, sender } = input;
  const blocks: Block[] = [
    { p: `Hi ${input.name},` },
    { p: `A reminder: ${event.name} is on ${when(event)}.` },
    {
      facts: [["Where", event.address], ...venueNotesFact(event), ["Ticket code", input.uniqueCode]],
    },
    { link: { href: input.ticketUrl, text: "Open your ticket" } },
  ];
  return compose(
    `Reminder: ${event.name}, ${when(event)}`,
    blocks,
    sender,
    calendarAttachment(event, input, input.origin, input.now),
    `See you at ${event.name}`,
  );
}
