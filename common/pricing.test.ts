import { describe, expect, it } from "vitest";
import { pinClock } from "../test/clock.ts";
import { currentAmounts, listPriceFor, priceOf, withCode } from "./pricing.ts";

// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(Date.UTC(2026, 11, 2));

const deadline = Date.parse("2026-12-20T08:00:00Z");
const rules = {
  priceCents: 4500,
  priceMaleCents: null,
  priceFemaleCents: null,
  earlyBirdDiscountCents: null,
  earlyBirdUntil: null,
};
const percent = (p: number) => ({ percentOff: p, amountOffCents: null });
const off = (c: number) => ({ percentOff: null, amountOffCents: c });

describe("the price of a seat", () => {
  it("takes the gender's own price where set", () => {
    const r = { ...rules, priceMaleCents: 5000 };
    expect(listPriceFor(r, "male")).toBe(5000);
    expect(listPriceFor(r, "female")).toBe(4500);
  });

  it("takes the early bird off while it runs, judged when the seat is held", () => {
    const r = { ...rules, earlyBirdDiscountCents: 1000, earlyBirdUntil: deadline };
    expect(priceOf({ rules: r, gender: "female", heldAt: deadline - 60_000 }).amountCents).toBe(3500);
    expect(priceOf({ rules: r, gender: "female", heldAt: deadline }).amountCents).toBe(4500);
    expect(currentAmounts(r, deadline - 1)).toEqual({ male: 3500, female: 3500 });
  });

  it("applies gender price, then early bird, then the code's percentage of what is left", () => {
    const r = { ...rules, priceFemaleCents: 4000, earlyBirdDiscountCents: 1000, earlyBirdUntil: deadline };
    const p = priceOf({ rules: r, gender: "female", heldAt: 0, code: percent(10) });
    // 40.00 − 10.00 = 30.00, then 10% of 30.00 (not of 40.00).
    expect(p).toEqual({ listCents: 4000, earlyBirdCents: 1000, codeCents: 300, amountCents: 2700 });
  });

  it("rounds a percentage to the nearest cent, half up", () => {
    expect(withCode({ listCents: 4505, earlyBirdCents: 0 }, percent(10)).codeCents).toBe(451); // 450.5
    expect(withCode({ listCents: 4504, earlyBirdCents: 0 }, percent(10)).codeCents).toBe(450); // 450.4
    expect(withCode({ listCents: 999, earlyBirdCents: 0 }, percent(33)).amountCents).toBe(669); // 329.67 off
  });

  it("never brings a price below $1.00, nor lowers one already below it", () => {
    expect(withCode({ listCents: 4500, earlyBirdCents: 0 }, percent(100)).amountCents).toBe(100);
    expect(withCode({ listCents: 4500, earlyBirdCents: 4000 }, off(1000)).amountCents).toBe(100);
    const r = { ...rules, earlyBirdDiscountCents: 5000, earlyBirdUntil: deadline };
    expect(priceOf({ rules: r, gender: "male", heldAt: 0 })).toMatchObject({ earlyBirdCents: 4400, amountCents: 100 });
    expect(withCode({ listCents: 80, earlyBirdCents: 0 }, off(50)).amountCents).toBe(80);
  });

  it("keeps every result whole cents and between the floor and the list price", () => {
    for (let list = 50; list <= 20_000; list += 137) {
      for (const p of [1, 7, 33, 50, 99, 100]) {
        for (const early of [0, 1, 999, 25_000]) {
          const r = { ...rules, priceCents: list, earlyBirdDiscountCents: early, earlyBirdUntil: deadline };
          const price = priceOf({ rules: r, gender: "male", heldAt: 0, code: percent(p) });
          expect(Number.isInteger(price.amountCents)).toBe(true);
          expect(price.amountCents).toBeGreaterThanOrEqual(Math.min(list, 100));
          expect(price.amountCents).toBeLessThanOrEqual(list);
          expect(price.listCents - price.earlyBirdCents - price.codeCents).toBe(price.amountCents);
        }
      }
    }
  });
});
