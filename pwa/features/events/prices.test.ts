import { describe, expect, it } from "vitest";
import { pinClock } from "../../../test/clock.ts";
import { ageLines, priceLines } from "./prices.ts";

// Every test here runs on a pinned clock (test/clock.ts), so no date below meets the real one.
pinClock(Date.UTC(2026, 11, 2));

const base = { priceCents: 4500, timeZone: "Australia/Sydney", fromAge: 25, toAge: 35 };
// 8 pm on 20 December in Sydney (AEDT) is 09:00 UTC.
const until = "2026-12-20T09:00:00.000Z";

describe("the card's price and ages", () => {
  it("shows one price, or each gender's when they differ", () => {
    expect(priceLines(base)).toEqual(["$45"]);
    expect(priceLines({ ...base, bookingAmountMale: 50, bookingAmountFemale: null })).toEqual([
      "Women: $45",
      "Men: $50",
    ]);
    expect(priceLines({ ...base, priceCents: 4550 })).toEqual(["$45.50"]);
  });

  it("shows both prices while the early bird runs, with its last day at the venue", () => {
    // As the server answered before the deadline: the early price in `currentAmount`.
    const event = { ...base, earlyBirdDiscount: 10, earlyBirdUntil: until, currentAmount: { male: 35, female: 35 } };
    expect(priceLines(event, Date.parse(until) - 1)).toEqual(["$35 early bird until 20 Dec, then $45"]);
    // A list kept offline past the deadline shows the full price.
    expect(priceLines(event, Date.parse(until))).toEqual(["$45"]);
    // Each gender's own early price and list price.
    const split = { ...event, bookingAmountMale: 55, currentAmount: { male: 45, female: 35 } };
    expect(priceLines(split, Date.parse(until) - 1)).toEqual([
      "Women: $35 early bird until 20 Dec, then $45",
      "Men: $45 early bird until 20 Dec, then $55",
    ]);
  });

  it("writes the last day as the server wrote it, and works it out for a list kept from before it did", () => {
    const event = { ...base, earlyBirdDiscount: 10, earlyBirdUntil: until, currentAmount: { male: 35, female: 35 } };
    // The server's `earlyBirdUntilText` is shown as it is: the home page builds no formatter for it.
    expect(priceLines({ ...event, earlyBirdUntilText: "20 Dec" }, Date.parse(until) - 1)).toEqual([
      "$35 early bird until 20 Dec, then $45",
    ]);
    expect(priceLines({ ...event, earlyBirdUntilText: "the 20th" }, Date.parse(until) - 1)).toEqual([
      "$35 early bird until the 20th, then $45",
    ]);
    // A list kept from before the field existed: the same day, worked out on the phone.
    expect(priceLines({ ...event, earlyBirdUntilText: undefined }, Date.parse(until) - 1)).toEqual([
      "$35 early bird until 20 Dec, then $45",
    ]);
  });

  it("shows each gender's range when the event sets them", () => {
    expect(ageLines(base)).toEqual(["25–35"]);
    expect(ageLines({ ...base, fromAgeMale: 28, toAgeMale: 40 })).toEqual(["Women: 25–35", "Men: 28–40"]);
  });
});
