import { describe, expect, it } from "vitest";
import {
  creditAmountText,
  creditBalanceText,
  creditDate,
  creditedByCancel,
  creditLines,
  creditZone,
  showsCredit,
} from "./credit-lines.ts";

// Credit on My nights (issue 52): the balance, and each movement dated on the venue's clock.

const credit = {
  balanceCents: 2500,
  history: [
    { at: "2025-03-01T12:00:00.000Z", amountCents: 4500, reason: "Cancelled Harbour Lights" },
    { at: "2025-03-31T14:30:00.000Z", amountCents: -2000, reason: "Spent on Laneway Supper" },
  ],
};

describe("My nights' credit", () => {
  it("shows the balance and signed amounts", () => {
    expect(creditBalanceText(2500)).toBe("Credit: $25.00");
    expect(creditAmountText(4500)).toBe("+$45.00");
    expect(creditAmountText(-2000)).toBe("\u2212$20.00");
  });

  it("dates each line on the venue's clock, not UTC's", () => {
    // 14:30 UTC on 31 March is already 1 April in Sydney (UTC+11 that day).
    expect(creditDate("2025-03-31T14:30:00.000Z", "Australia/Sydney")).toBe("1 Apr 2025");
    expect(creditDate("2025-03-31T14:30:00.000Z", "Australia/Perth")).toBe("31 Mar 2025");
  });

  it("lists the history newest first", () => {
    const lines = creditLines(credit, "Australia/Sydney");
    expect(lines.map((l) => [l.when, l.amount, l.reason])).toEqual([
      ["1 Apr 2025", "\u2212$20.00", "Spent on Laneway Supper"],
      ["1 Mar 2025", "+$45.00", "Cancelled Harbour Lights"],
    ]);
  });

  it("shows nothing to a number that never had credit, and a spent balance to one that had", () => {
    expect(showsCredit({ balanceCents: 0, history: [] })).toBe(false);
    expect(showsCredit({ ...credit, balanceCents: 0 })).toBe(true);
  });

  it("reads the zone from the latest night, else the default", () => {
    expect(creditZone([{ timeZone: "Australia/Perth" }])).toBe("Australia/Perth");
    expect(creditZone([])).toBe("Australia/Sydney");
  });

  it("knows a night whose cancel was taken as credit", () => {
    expect(creditedByCancel(credit, "Harbour Lights")).toBe(true);
    expect(creditedByCancel(credit, "Laneway Supper")).toBe(false);
  });
});
