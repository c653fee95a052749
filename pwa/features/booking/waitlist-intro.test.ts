import { describe, expect, it } from "vitest";
import { waitlistIntro } from "./components/waitlist-form.tsx";

describe("the waitlist form's first line", () => {
  it("names the full side at a balanced event, and says sold out only when both are", () => {
    expect(waitlistIntro({ female: 0, male: 3 }, "")).toMatch(/^No seats left for women\./);
    expect(waitlistIntro({ female: 2, male: 0 }, "")).toMatch(/^No seats left for men\./);
    expect(waitlistIntro({ female: 0, male: 0 }, "male")).toMatch(/^This event is sold out\./);
    expect(waitlistIntro({ female: 0, male: 0 }, "female")).toMatch(/^This event is sold out\./);
    expect(waitlistIntro(null, "")).toMatch(/^This event is sold out\./);
    for (const seats of [
      { female: 0, male: 3 },
      { female: 3, male: 0 },
    ]) {
      expect(waitlistIntro(seats, "female")).not.toContain("sold out");
    }
  });
});
