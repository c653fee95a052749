import { describe, expect, it } from "vitest";
import { creditBoxLabel, creditNote } from "./credit-at-checkout.ts";

// Use my credit before paying (issue 52): the box's label and what the credit does to this price.

describe("Use my credit", () => {
  it("labels the box with the balance", () => {
    expect(creditBoxLabel(4500)).toBe("Use my credit ($45.00)");
  });

  it("says whether the credit pays all, part, or none of the price", () => {
    expect(creditNote(true, 5000, 4500)).toBe(
      "Your credit pays the whole $45.00: no card needed, and your ticket comes at once.",
    );
    expect(creditNote(true, 2000, 4500)).toBe("Your credit pays $20.00; your card pays the other $25.00.");
    expect(creditNote(false, 2000, 4500)).toBe("Your card pays the full $45.00; your credit stays for another night.");
  });
});
