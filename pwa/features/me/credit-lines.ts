import { DEFAULT_TIME_ZONE } from "../../../common/time-zone.ts";
import { formatPrice } from "../events/index.ts";
import type { MyNights } from "./me-api.ts";

// The number's credit as **My nights** shows it (issue 52, docs/decisions/057-credit.md): the balance
// and each movement, dated on the venue's clock. Pure, so the words are tested without a page.

export type MyCredit = MyNights["credit"];

/** `Credit: $45.00`, the balance's line. */
export const creditBalanceText = (balanceCents: number) => `Credit: ${formatPrice(balanceCents / 100)}`;

/** `+$45.00` issued, `−$20.00` spent (a true minus sign, read as "minus"). */
export const creditAmountText = (amountCents: number) =>
  `${amountCents < 0 ? "\u2212" : "+"}${formatPrice(Math.abs(amountCents) / 100)}`;

/** `2 Dec 2025` on the venue's clock: a ledger's date, with its year. */
export const creditDate = (iso: string, zone: string) =>
  new Intl.DateTimeFormat("en-AU", { day: "numeric", month: "short", year: "numeric", timeZone: zone }).format(
    new Date(iso),
  );

/**
 * The zone the credit's dates are read in: the venue's, as the guest's latest night gives it (the
 * ledger keeps no venue of its own), else the app's default.
 */
export const creditZone = (nights: readonly { timeZone: string }[]) => nights[0]?.timeZone ?? DEFAULT_TIME_ZONE;

/** Whether My nights shows credit at all: only to a number that has or had some. */
export const showsCredit = (credit: MyCredit) => credit.history.length > 0 || credit.balanceCents !== 0;

/** The history newest first, each line's date, amount and reason ready to show. */
export function creditLines(credit: MyCredit, zone: string) {
  return credit.history
    .map((entry, i) => ({
      key: `${entry.at}-${i}`,
      when: creditDate(entry.at, zone),
      at: entry.at,
      amount: creditAmountText(entry.amountCents),
      reason: entry.reason,
    }))
    .reverse();
}

/**
 * Whether the guest's own cancel of `eventName` was taken as credit: the ledger's line for it reads
 * `Cancelled {event}` (api/booking/cancel-booking.ts), so its night says where the money went rather
 * than "no refund was due".
 */
export const creditedByCancel = (credit: MyCredit, eventName: string) =>
  credit.history.some((entry) => entry.amountCents > 0 && entry.reason === `Cancelled ${eventName}`);
