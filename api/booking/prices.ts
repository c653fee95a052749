import { ageAllowed, ageRangeMessage } from "../../common/age.ts";
import { priceOf } from "../../common/pricing.ts";
import type { Event, PersonGender } from "../../db/schema.ts";
import { Conflict } from "../lib/errors.ts";

/**
 * The two rules a hold applies from the event (docs/decisions/023-prices-and-ages.md): the buyer's
 * age on the event's date at the venue must be in their gender's range, and the price is fixed then.
 */

/** 409 `age_out_of_range` with the range that applies to this gender, e.g. `This event is for ages 25–35`. */
export function assertAgeAllowed(event: Event, gender: PersonGender, dateOfBirth: string): void {
  const { ok, range } = ageAllowed(event, gender, dateOfBirth);
  if (!ok) throw Conflict(ageRangeMessage(range), "age_out_of_range", { fromAge: range.from, toAge: range.to });
}

/** The booking columns of a seat held at `heldAt`: list price and early bird then, no code yet. */
export function heldPrice(event: Event, gender: PersonGender, heldAt: number) {
  const price = priceOf({ rules: event, gender, heldAt });
  return {
    listPriceCents: price.listCents,
    earlyBirdCents: price.earlyBirdCents,
    discountCents: price.earlyBirdCents,
    promoCodeId: null,
    amountCents: price.amountCents,
  };
}
