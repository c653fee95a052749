import { describe, expect, it } from "vitest";
import { balancedSeatsOf, seatsForUpdate, validateBalancedSeats } from "./balanced-seats.ts";

describe("validateBalancedSeats", () => {
  it("asks nothing of an event with one pool of seats", () => {
    expect(validateBalancedSeats({ balanced: false, men: "", women: "" }, 20)).toBeNull();
  });

  it("wants both counts as whole numbers that add up to the total seats", () => {
    expect(validateBalancedSeats({ balanced: true, men: "10", women: "10" }, "20")).toBeNull();
    expect(validateBalancedSeats({ balanced: true, men: "0", women: "12" }, 12)).toBeNull();
    expect(validateBalancedSeats({ balanced: true, men: "10", women: "9" }, 20)).toBe(
      "Seats for men and women must add up to the total seats (20).",
    );
    for (const [men, women] of [
      ["", "10"],
      ["10", ""],
      ["2.5", "17.5"],
      ["-1", "21"],
      ["ten", "10"],
    ] as const) {
      expect(validateBalancedSeats({ balanced: true, men, women }, 20)).toBe(
        "Enter the seats for men and for women as whole numbers.",
      );
    }
  });
});

describe("seatsForUpdate and balancedSeatsOf", () => {
  it("sends both counts, or both null to switch back to one pool", () => {
    expect(seatsForUpdate({ balanced: true, men: "8", women: "12" })).toEqual({ seatsMale: 8, seatsFemale: 12 });
    expect(seatsForUpdate({ balanced: false, men: "8", women: "12" })).toEqual({ seatsMale: null, seatsFemale: null });
  });

  it("reads a stored event back into the form", () => {
    expect(balancedSeatsOf({ seatsMale: 8, seatsFemale: 12 })).toEqual({ balanced: true, men: "8", women: "12" });
    expect(balancedSeatsOf({ seatsMale: null, seatsFemale: null })).toEqual({ balanced: false, men: "", women: "" });
    expect(balancedSeatsOf({})).toEqual({ balanced: false, men: "", women: "" });
  });
});
