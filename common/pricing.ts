/**
 * What a seat costs (docs/decisions/023-prices-and-ages.md): the gender's price, then the early-bird
 * amount off while it runs, then a promo code. Every step is whole cents; a percentage rounds to the
 * nearest cent (half up), and no discount brings the price below $1.00. Pure, so the API, the PWA's
 * cards and the tests share it.
 */

export const MIN_DISCOUNTED_CENTS = 100;

export type PriceRules = {
  priceCents: number;
  priceMaleCents: number | null;
  priceFemaleCents: number | null;
  earlyBirdDiscountCents: number | null;
  /** Epoch ms (UTC) until which the early bird runs; the organiser sets it on the venue's clock. */
  earlyBirdUntil: number | null;
};

export type CodeDiscount = { percentOff: number | null; amountOffCents: number | null };

export type Price = {
  /** The gender's price before any discount. */
  listCents: number;
  earlyBirdCents: number;
  codeCents: number;
  /** What is charged: list minus both discounts, never below $1.00 (nor above the list price). */
  amountCents: number;
};

/** The gender's own price where set, the event's `bookingAmount` otherwise. */
export function listPriceFor(rules: PriceRules, gender: string): number {
  // Non-binary (Mixed) and One group's unasked pay the event's price.
  const own = gender === "male" ? rules.priceMaleCents : gender === "female" ? rules.priceFemaleCents : null;
  return own ?? rules.priceCents;
}

/** Whether the early bird still runs at `at`: strictly before its deadline. */
export const earlyBirdRuns = (rules: PriceRules, at: number) =>
  rules.earlyBirdDiscountCents !== null &&
  rules.earlyBirdDiscountCents > 0 &&
  rules.earlyBirdUntil !== null &&
  at < rules.earlyBirdUntil;

/** The floor a discount may not cross: $1.00, or the list price itself when that is lower. */
const floorOf = (listCents: number) => Math.min(listCents, MIN_DISCOUNTED_CENTS);

/** A code's amount off a price: a percentage rounds half up to whole cents. */
export function codeOff(code: CodeDiscount, priceCents: number): number {
  if (code.percentOff !== null) return Math.round((priceCents * code.percentOff) / 100);
  return code.amountOffCents ?? 0;
}

/**
 * The price of a seat held at `heldAt` (the early bird is judged then, not at payment) with an
 * optional code: gender price → early bird → code, each discount cut to what the floor leaves.
 */
export function priceOf(input: {
  rules: PriceRules;
  /** `male` and `female` pay their own price where set; anyone else the event's. */
  gender: string;
  heldAt: number;
  code?: CodeDiscount | null;
}): Price {
  const listCents = listPriceFor(input.rules, input.gender);
  const floor = floorOf(listCents);
  const early = earlyBirdRuns(input.rules, input.heldAt) ? (input.rules.earlyBirdDiscountCents ?? 0) : 0;
  const earlyBirdCents = Math.max(0, Math.min(early, listCents - floor));
  return withCode({ listCents, earlyBirdCents }, input.code ?? null);
}

/** A held price with a (new) code applied over its list price and early bird: the hold's own pieces. */
export function withCode(held: { listCents: number; earlyBirdCents: number }, code: CodeDiscount | null): Price {
  const floor = floorOf(held.listCents);
  const afterEarly = held.listCents - held.earlyBirdCents;
  const codeCents = code ? Math.max(0, Math.min(codeOff(code, afterEarly), afterEarly - floor)) : 0;
  return { ...held, codeCents, amountCents: afterEarly - codeCents };
}

/** The price each gender pays if they hold a seat at `at` (no code): the cards' `currentAmount`. */
export function currentAmounts(rules: PriceRules, at: number): { male: number; female: number } {
  return {
    male: priceOf({ rules, gender: "male", heldAt: at }).amountCents,
    female: priceOf({ rules, gender: "female", heldAt: at }).amountCents,
  };
}
