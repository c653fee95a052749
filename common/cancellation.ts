/**
 * A guest's own cancel (docs/decisions/028-cancellation-money-path.md): what comes back, and the
 * policy as the guest reads it. Pure, so the server decides with it and the PWA shows the same amount
 * before the guest confirms.
 */

/** An event's policy: a full refund until `fullRefundHours` before the start, then `laterPercent` (0: none). */
export type CancellationPolicy = { fullRefundHours: number; laterPercent: number };

const HOUR_MS = 3_600_000;

/** Said wherever the policy is shown (the event card's details, the confirmation page, the ticket). */
export const CONSUMER_LAW_NOTE = "This does not affect your rights under the Australian Consumer Law.";

export const policyOf = (event: { cancelFullRefundHours: number; cancelLaterPercent: number }): CancellationPolicy => ({
  fullRefundHours: event.cancelFullRefundHours,
  laterPercent: event.cancelLaterPercent,
});

/**
 * The cents that come back to a guest who paid `paidCents` and cancels at `now`: all of it until the
 * cut-off, then the percentage (rounded down, so never more than the policy says), and null from the
 * start on, when a cancel is too late. Never negative, never more than was paid.
 */
export function refundDue(policy: CancellationPolicy, paidCents: number, startsAt: number, now: number): number | null {
  if (now >= startsAt) return null;
  const paid = Math.max(0, Math.floor(paidCents));
  if (now < startsAt - policy.fullRefundHours * HOUR_MS) return paid;
  const percent = Math.min(100, Math.max(0, policy.laterPercent));
  return Math.floor((paid * percent) / 100);
}

const hours = (n: number) => (n === 1 ? "1 hour" : `${n} hours`);

/** The policy in one sentence, as the guest reads it before booking and before cancelling. */
export function policyText(policy: CancellationPolicy): string {
  const full =
    policy.fullRefundHours === 0
      ? "Cancel before the start for a full refund."
      : `Cancel up to ${hours(policy.fullRefundHours)} before the start for a full refund`;
  if (policy.fullRefundHours === 0) return full;
  return policy.laterPercent > 0
    ? `${full}; after that, ${policy.laterPercent}% comes back until the start.`
    : `${full}; after that, no refund.`;
}

/**
 * Until when a guest's cancel may be taken as credit of the full price paid (issue 52, docs/decisions/
 * 057-credit.md): the organiser's **Credit until**, else the start. Credit is offered while `now` is
 * at or before it, even past the refund's cut-off.
 */
export const creditUntilOf = (event: { startsAt: number; creditUntil: number | null }) =>
  event.creditUntil ?? event.startsAt;
