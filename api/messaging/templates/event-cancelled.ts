import { audFromCents, REFUND_ARRIVES } from "../../../common/money.ts";
import { formatVenueTime } from "../../../common/time-zone.ts";
import type { Event } from "../../../db/schema.ts";
import {
  type Block,
  type EmailContent,
  type EmailEvent,
  html,
  oneLine,
  type Sender,
  text,
  when,
} from "./email-frame.ts";

// The organiser cancelled the night (api/organiser/cancel-event.ts): each paid guest's text and email.
// Those still on its waitlist get waitlist.ts's `waitlistCancelledText`.

/** The cancelled night's text to a paid guest: their payment comes back in full. */
export const eventCancelledText = (input: {
  event: Pick<Event, "name" | "startsAt" | "timeZone">;
  amountCents: number;
}) =>
  `Sorry: ${input.event.name} on ${formatVenueTime(input.event.startsAt, input.event.timeZone)} has been cancelled. ` +
  `Your ${audFromCents(input.amountCents)} is being refunded to your card; ${REFUND_ARRIVES}.`;

/** The organiser cancelled the night: everyone's payment comes back in full. */
export function eventCancelledEmail(input: {
  sender: Sender;
  event: EmailEvent;
  name: string;
  amountCents: number;
}): EmailContent {
  const { event, sender } = input;
  const blocks: Block[] = [
    { p: `Hi ${input.name},` },
    { p: `We're sorry: ${event.name} on ${when(event)} is cancelled.` },
    { p: `Your ${audFromCents(input.amountCents)} is being refunded to your card; ${REFUND_ARRIVES}.` },
    { p: "Your ticket is no longer valid." },
  ];
  const subject = `${event.name} is cancelled`;
  return {
    subject: oneLine(subject),
    text: text(blocks, sender),
    html: html(blocks, sender, subject),
    attachments: [],
  };
}
