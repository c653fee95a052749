import { audFromCents } from "../../../common/money.ts";
import { formatVenueTime } from "../../../common/time-zone.ts";
import type { Event } from "../../../db/schema.ts";
import { type Block, compose, type EmailContent, type Sender } from "./email-frame.ts";

// Nights short of numbers (issue 52 part 3, docs/decisions/059-short-of-numbers.md). The organiser's
// alert (to ORGANISER_PHONE and ORGANISER_EMAIL) when the check at `minimumBy` finds the night short,
// and the one text each guest gets when the organiser cancels or moves such a night, with their
// choice link. Transactional: what happened and what the guest may do, nothing promotional.

type Night = Pick<Event, "name" | "startsAt" | "timeZone">;
export type Short = { side: "female" | "male" | "total"; needed: number; booked: number };

const sideWord = { female: "women", male: "men", total: "people" } as const;

/** "4 of 6 women, 3 of 6 men": what the night has of what it needs. */
export const shortWords = (short: Short[]) =>
  short.map((s) => `${s.booked} of ${s.needed} ${sideWord[s.side]}`).join(", ");

const at = (event: Night) => formatVenueTime(event.startsAt, event.timeZone);

/** The organiser's text: which night, what it has, what to do. */
export const shortOfNumbersText = (input: { event: Night; short: Short[] }) =>
  `${input.event.name} on ${at(input.event)} is short of numbers: ${shortWords(input.short)} booked. ` +
  "On the desk: Cancel the night or Move to another night. If you do nothing, it runs as booked.";

/** The organiser's email, saying the same. */
export function shortOfNumbersEmail(input: { sender: Sender; event: Night; short: Short[] }): EmailContent {
  const blocks: Block[] = [
    { p: `${input.event.name} on ${at(input.event)} is short of numbers: ${shortWords(input.short)} booked.` },
    {
      p: "On the desk you can Cancel the night (every guest chooses a refund or credit within 72 hours, a refund if they don't) or Move to another night (guests keep their seat on the new date, or take a refund or credit).",
    },
    { p: "Guests have been told nothing. If you do nothing, the night runs as booked." },
  ];
  return compose(`${input.event.name} is short of numbers`, blocks, input.sender);
}

/** A guest of a cancelled night: choose a refund or credit, by the deadline. */
export const cancelChoiceText = (input: {
  event: Night;
  refundCents: number;
  creditCents: number;
  deadline: number;
  chooseUrl: string;
}) =>
  `Sorry: ${input.event.name} on ${at(input.event)} has been cancelled. Choose a refund of ${audFromCents(input.refundCents)} ` +
  `or ${audFromCents(input.creditCents)} credit by ${formatVenueTime(input.deadline, input.event.timeZone)}; ` +
  `if you don't choose, you get the refund: ${input.chooseUrl}`;

/** A guest of a moved night: keep the seat on the new date, or take a refund or credit. */
export const moveChoiceText = (input: { event: Night; toEvent: Night; deadline: number; chooseUrl: string }) =>
  `${input.event.name} on ${at(input.event)} has moved to ${at(input.toEvent)}. Keep your seat on the new date, ` +
  `or take a refund or credit, by ${formatVenueTime(input.deadline, input.event.timeZone)}; ` +
  `if you don't choose, you get the refund: ${input.chooseUrl}`;
