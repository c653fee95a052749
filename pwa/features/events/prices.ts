import { DEFAULT_TIME_ZONE, venueDayMonth } from "../../../common/time-zone.ts";
import type { EventView } from "./types.ts";

// What an event's card says about price and ages (docs/decisions/023-prices-and-ages.md). The early
// price is the server's `currentAmount`, worked out by the rules it charges by (common/pricing.ts),
// which stay out of the home page's JavaScript (docs/decisions/007-scale.md); the card only decides,
// by the clock, whether the early bird still runs. A list this phone kept from before the fields
// existed has none of them: the card then shows the one price and range, as it always did.

type PriceFacts = Pick<EventView, "priceCents" | "timeZone" | "fromAge" | "toAge"> &
  Partial<
    Pick<
      EventView,
      | "bookingAmountMale"
      | "bookingAmountFemale"
      | "earlyBirdDiscount"
      | "earlyBirdUntil"
      | "earlyBirdUntilText"
      | "fromAgeMale"
      | "toAgeMale"
      | "fromAgeFemale"
      | "toAgeFemale"
      | "currentAmount"
    >
  >;

const cents = (aud: number | null | undefined) => (aud === null || aud === undefined ? null : Math.round(aud * 100));

/** `$45`, or `$45.50` when there are cents. */
export const shortPrice = (cents: number) => (cents % 100 === 0 ? `$${cents / 100}` : `$${(cents / 100).toFixed(2)}`);

/** `$35 early bird until 20 Dec, then $45` while the early bird runs, `$45` otherwise. */
function priceText(event: PriceFacts, gender: "male" | "female", now: number): string {
  const own = gender === "male" ? event.bookingAmountMale : event.bookingAmountFemale;
  const list = cents(own) ?? event.priceCents;
  const current = cents(event.currentAmount?.[gender]) ?? list;
  const until = event.earlyBirdUntil ? Date.parse(event.earlyBirdUntil) : Number.NaN;
  // Not `until > now` alone: a list kept offline still says the early price after its deadline.
  if (!(now < until) || current >= list) return shortPrice(list);
  // `20 Dec`: the deadline's day on the venue's clock, as the server wrote it (so the home page builds no
  // formatter), or worked out here from a list kept from before it did.
  const day = event.earlyBirdUntilText ?? venueDayMonth(until, event.timeZone ?? DEFAULT_TIME_ZONE, "short");
  return `${shortPrice(current)} early bird until ${day}, then ${shortPrice(list)}`;
}

/** The card's Ticket lines: one when both genders pay the same, `Women: …` and `Men: …` otherwise. */
export function priceLines(event: PriceFacts, now = Date.now()): string[] {
  const women = priceText(event, "female", now);
  const men = priceText(event, "male", now);
  return women === men ? [women] : [`Women: ${women}`, `Men: ${men}`];
}

/** The card's Ages lines: `25–35`, or each gender's range when the event sets them apart. */
export function ageLines(event: PriceFacts): string[] {
  // A gender's own bound where the event sets it (as common/age.ts reads them), the event's `fromAge`/`toAge` otherwise.
  const women = { from: event.fromAgeFemale ?? event.fromAge, to: event.toAgeFemale ?? event.toAge };
  const men = { from: event.fromAgeMale ?? event.fromAge, to: event.toAgeMale ?? event.toAge };
  if (women.from === men.from && women.to === men.to) return [`${women.from}–${women.to}`];
  return [`Women: ${women.from}–${women.to}`, `Men: ${men.from}–${men.to}`];
}
