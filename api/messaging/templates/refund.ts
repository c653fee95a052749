import { audFromCents, REFUND_ARRIVES } from "../../../common/money.ts";
import type { RefundClaim } from "../../../db/schema.ts";
import {
  type Block,
  compose,
  documentAttachment,
  type EmailContent,
  type EmailDocument,
  type EmailEvent,
  type Sender,
  when,
} from "./email-frame.ts";

// Refunds, and a guest's cancel of their own booking: the text and the email (api/organiser/refunds.ts,
// api/booking/cancel-booking.ts). A cancelled night's refunds say nothing more: its own message did.

/**
 * The text for a refunded payment: what they paid and how long a card refund takes, and, when the
 * payment found no seat, why.
 */
export function refundText(input: { eventName: string; amountCents: number; reason: RefundClaim["reason"] }): string {
  if (input.reason === "guest_cancel") {
    return `Your booking for ${input.eventName} is cancelled. ${audFromCents(input.amountCents)} is being refunded to your card; ${REFUND_ARRIVES}.`;
  }
  const why = input.reason === "no_seat" ? "The last seat went while you were paying, so " : "";
  return `${why}${why ? "your" : "Your"} ${audFromCents(input.amountCents)} for ${input.eventName} is being refunded to your card; ${REFUND_ARRIVES}.`;
}

/** The text for a guest's own cancel with nothing due under the event's policy. */
export const cancelledNoRefundText = (input: { eventName: string }) =>
  `Your booking for ${input.eventName} is cancelled. Under the event's cancellation policy no refund is due now.`;

/**
 * A refund, whole or partial (the organiser's, a guest's cancel, a payment that found no seat), with
 * its adjustment note; or a guest's cancel with nothing due (`amountCents` 0, no note).
 */
export function refundEmail(input: {
  sender: Sender;
  event: EmailEvent;
  name: string;
  amountCents: number;
  reason: "organiser" | "guest_cancel" | "no_seat";
  document?: EmailDocument | null;
}): EmailContent {
  const { event, sender } = input;
  const money = audFromCents(input.amountCents);
  const opening =
    input.reason === "no_seat"
      ? `The last seat for ${event.name} went while you were paying, so your payment is being refunded.`
      : input.reason === "guest_cancel"
        ? `Your booking for ${event.name} on ${when(event)} is cancelled, as you asked.`
        : `Your booking for ${event.name} on ${when(event)} has been refunded.`;
  const blocks: Block[] = [
    { p: `Hi ${input.name},` },
    { p: opening },
    input.amountCents > 0
      ? { p: `${money} is being refunded to your card; ${REFUND_ARRIVES}.` }
      : { p: "Under the event's cancellation policy no refund is due now." },
    ...(input.document
      ? [{ p: `The ${input.document.title.toLowerCase()} ${input.document.number} is attached.` }]
      : []),
    { p: "Your ticket is no longer valid." },
  ];
  const subject =
    input.amountCents > 0 ? `Your refund for ${event.name}` : `Your booking for ${event.name} is cancelled`;
  return compose(subject, blocks, sender, documentAttachment(input.document));
}
