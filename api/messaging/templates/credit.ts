import { audFromCents } from "../../../common/money.ts";

// Credit issued (issue 52, docs/decisions/057-credit.md): a transactional text, sent once through the
// outbox with the credit entry's key. It says what was issued and the balance, and nothing else: no
// offer, no link to other nights.

/** A guest's cancel taken as credit. */
export const cancelledForCreditText = (input: { eventName: string; amountCents: number; balanceCents: number }) =>
  `Your booking for ${input.eventName} is cancelled. ${audFromCents(input.amountCents)} is now credit on this number ` +
  `(balance ${audFromCents(input.balanceCents)}), used at your next booking. It does not expire.`;

/** The organiser's **Give credit**, or credit a cancel under the policy gave back. */
export const creditIssuedText = (input: { amountCents: number; balanceCents: number }) =>
  `${audFromCents(input.amountCents)} credit has been added to this number (balance ` +
  `${audFromCents(input.balanceCents)}), used at your next booking. It does not expire.`;

/** The no-match promise's line in the guest's credit history (docs/decisions/060-no-match-promise.md). */
export const noMatchCreditReason = (input: { eventName: string }) =>
  `No match at ${input.eventName}: your next night is on us`;

/**
 * The no-match promise kept (docs/decisions/060-no-match-promise.md): once, after the results. What was
 * issued and the balance; no link and no other night named, so it stays transactional.
 */
export const noMatchCreditText = (input: { eventName: string; amountCents: number; balanceCents: number }) =>
  `No match at ${input.eventName} this time, so your next night is on us: ${audFromCents(input.amountCents)} is now ` +
  `credit on this number (balance ${audFromCents(input.balanceCents)}), used at your next booking. It does not expire.`;
