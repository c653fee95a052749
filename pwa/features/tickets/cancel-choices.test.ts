import { describe, expect, it } from "vitest";
import { CREDIT_CLOSED, cancelledSentence, comesBack, creditLabel, refundLabel } from "./cancel-choices.ts";

// The words of Cancel my booking's two choices (issue 52): each starts with the label the issue
// settles (**Refund**, **Credit**), and says the amount the guest would get.

describe("Cancel my booking's choices", () => {
  it("starts each choice with Refund or Credit, with its amount", () => {
    expect(refundLabel(4500)).toBe("Refund $45.00 to your card");
    expect(creditLabel(4500)).toBe("Credit $45.00 towards any night");
  });

  it("says so when the policy gives nothing back, and still starts with Refund", () => {
    expect(refundLabel(0)).toBe("Refund $0.00: under this event's policy nothing comes back now");
  });

  it("says what the chosen one gives before the guest confirms", () => {
    expect(comesBack("refund", 4500, 4500)).toBe("You'll get back the full $45.00.");
    expect(comesBack("refund", 2250, 4500)).toBe("You'll get back $22.50 of the $45.00 you paid.");
    expect(comesBack("refund", 0, 4500)).toBe("Under this event's policy nothing comes back if you cancel now.");
    expect(comesBack("credit", 0, 4500)).toBe("You'll get $45.00 as credit on your number, towards any night.");
    expect(comesBack("credit", null, 4500)).toBe("The event has started, so this booking can no longer be cancelled.");
  });

  it("announces what went to the card and what became credit", () => {
    expect(cancelledSentence("Harbour Lights", { refundCents: 0, creditCents: 4500 })).toBe(
      "Your booking for Harbour Lights is cancelled. $45.00 is now credit on your number, towards any night.",
    );
    expect(cancelledSentence("Harbour Lights", { refundCents: 4500, creditCents: 0 })).toBe(
      "Your booking for Harbour Lights is cancelled. $45.00 is being refunded to your card.",
    );
    expect(cancelledSentence("Harbour Lights", { refundCents: 2500, creditCents: 2000 })).toBe(
      "Your booking for Harbour Lights is cancelled. $25.00 is being refunded to your card. $20.00 is now credit on your number, towards any night.",
    );
    expect(cancelledSentence("Harbour Lights", { refundCents: 0, creditCents: 0 })).toBe(
      "Your booking for Harbour Lights is cancelled. No refund was due.",
    );
  });

  it("explains a closed credit and leaves the refund open", () => {
    expect(CREDIT_CLOSED).toMatch(/no longer offered/);
    expect(CREDIT_CLOSED).toMatch(/still cancel for a refund/);
  });
});
