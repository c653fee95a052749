import { formatPrice } from "../events/index.ts";
import type { CancelAs } from "./cancel-booking.ts";

// What **Cancel my booking** offers and says (issue 52, docs/decisions/057-credit.md): **Refund $X**
// under the policy, or **Credit $Y** (the full price paid) towards any night while the event's Credit
// until allows. Pure, so the words are tested without a page.

const dollars = (cents: number) => formatPrice(cents / 100);

/** The refund's choice: its visible text starts with **Refund**, and says so when the policy gives nothing. */
export const refundLabel = (dueCents: number) =>
  dueCents > 0
    ? `Refund ${dollars(dueCents)} to your card`
    : `Refund ${dollars(0)}: under this event's policy nothing comes back now`;

/** The credit's choice: its visible text starts with **Credit**; the full price paid. */
export const creditLabel = (paidCents: number) => `Credit ${dollars(paidCents)} towards any night`;

/** What the guest gets if they confirm now, said in the question before they do. */
export function comesBack(as: CancelAs, dueCents: number | null, paidCents: number): string {
  if (dueCents === null) return "The event has started, so this booking can no longer be cancelled.";
  if (as === "credit") return `You'll get ${dollars(paidCents)} as credit on your number, towards any night.`;
  if (dueCents === 0) return "Under this event's policy nothing comes back if you cancel now.";
  return dueCents === paidCents
    ? `You'll get back the full ${dollars(dueCents)}.`
    : `You'll get back ${dollars(dueCents)} of the ${dollars(paidCents)} you paid.`;
}

/** The sentence announced once the booking is cancelled: what went to the card, what became credit. */
export function cancelledSentence(eventName: string, done: { refundCents: number; creditCents: number }): string {
  const parts = [`Your booking for ${eventName} is cancelled.`];
  if (done.refundCents > 0) parts.push(`${dollars(done.refundCents)} is being refunded to your card.`);
  if (done.creditCents > 0) parts.push(`${dollars(done.creditCents)} is now credit on your number, towards any night.`);
  if (done.refundCents === 0 && done.creditCents === 0) parts.push("No refund was due.");
  return parts.join(" ");
}

/** Said when the server answers `credit_closed`: the credit's time has passed, the refund is still there. */
export const CREDIT_CLOSED =
  "Credit for this night is no longer offered: its Credit until time has passed. You can still cancel for a refund under the policy.";
