import { ageRangeFor } from "../../../common/age.ts";
import { earlyBirdRuns, listPriceFor, type PriceRules, priceOf } from "../../../common/pricing.ts";
import { DEFAULT_TIME_ZONE, utcToWallClock } from "../../../common/time-zone.ts";
import type { EventSummary } from "./types.ts";

// What an event's card says about price and ages (docs/decisions/023-prices-and-ages.md), from the
// same pure rules the server charges by. A list this phone kept from before the fields existed has
// none of them: the card then shows the one price and range, as it always did.

type PriceFacts = Pick<EventSummary, "booking_amount" | "time_zone" | "from_age" | "to_age"> &
  Partial<
    Pick<
      EventSummary,
      | "bookingAmountMale"
      | "bookingAmountFemale"
      | "earlyBirdDiscount"
      | "earlyBirdUntil"
      | "fromAgeMale"
      | "toAgeMale"
      | "fromAgeFemale"
      | "toAgeFemale"
    >
  >;

const cents = (aud: number | null | undefined) => (aud === null || aud === undefined ? null : Math.round(aud * 100));

/** `$45`, or `$45.50` when there are cents. */
export const shortPrice = (cents: number) => (cents % 100 === 0 ? `$${cents / 100}` : `$${(cents / 100).toFixed(2)}`);

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** `20 Dec`: the deadline's day on the venue's clock. */
function venueDay(ms: number, zone: string): string {
  const [, m, d] = utcToWallClock(ms, zone).date.split("-").map(Number) as [number, number, number];
  return `${d} ${MONTHS[m - 1]}`;
}

function rulesOf(event: PriceFacts): PriceRules {
  const until = event.earlyBirdUntil ? Date.parse(event.earlyBirdUntil) : Number.NaN;
  return {
    priceCents: Math.round(event.booking_amount * 100),
    priceMaleCents: cents(event.bookingAmountMale),
    priceFemaleCents: cents(event.bookingAmountFemale),
    earlyBirdDiscountCents: cents(event.earlyBirdDiscount),
    earlyBirdUntil: Number.isNaN(until) ? null : until,
  };
}

/** `$35 early bird until 20 Dec, then $45` while the early bird runs, `$45` otherwise. */
function priceText(event: PriceFacts, gender: "male" | "female", now: number): string {
  const rules = rulesOf(event);
  const list = listPriceFor(rules, gender);
  if (!earlyBirdRuns(rules, now) || rules.earlyBirdUntil === null) return shortPrice(list);
  const early = priceOf({ rules, gender, heldAt: now }).amountCents;
  const day = venueDay(rules.earlyBirdUntil, event.time_zone ?? DEFAULT_TIME_ZONE);
  return `${shortPrice(early)} early bird until ${day}, then ${shortPrice(list)}`;
}

/** The card's Ticket lines: one when both genders pay the same, `Women: …` and `Men: …` otherwise. */
export function priceLines(event: PriceFacts, now = Date.now()): string[] {
  const women = priceText(event, "female", now);
  const men = priceText(event, "male", now);
  return women === men ? [women] : [`Women: ${women}`, `Men: ${men}`];
}

/** The card's Ages lines: `25–35`, or each gender's range when the event sets them apart. */
export function ageLines(event: PriceFacts): string[] {
  const rules = {
    fromAge: event.from_age,
    toAge: event.to_age,
    fromAgeMale: event.fromAgeMale ?? null,
    toAgeMale: event.toAgeMale ?? null,
    fromAgeFemale: event.fromAgeFemale ?? null,
    toAgeFemale: event.toAgeFemale ?? null,
  };
  const women = ageRangeFor(rules, "female");
  const men = ageRangeFor(rules, "male");
  if (women.from === men.from && women.to === men.to) return [`${women.from}–${women.to}`];
  return [`Women: ${women.from}–${women.to}`, `Men: ${men.from}–${men.to}`];
}
