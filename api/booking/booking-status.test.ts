import { describe, expect, it } from "vitest";
import { type BookingStatus, bookingStatuses } from "../../db/schema.ts";
import { type BookingChange, bookingChanges, bookingStatusesFor, nextBookingStatus } from "./booking-status.ts";

const pairs = bookingStatuses.flatMap((from) => bookingChanges.map((change) => [from, change] as const));

/** Every path a booking can take from a hold, as far as the rule lets it go. */
function reachable(): Set<BookingStatus> {
  const seen = new Set<BookingStatus>(["held"]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [from, change] of pairs) {
      const next = seen.has(from) ? nextBookingStatus(from, change) : null;
      if (next && !seen.has(next)) {
        seen.add(next);
        grew = true;
      }
    }
  }
  return seen;
}

describe("a booking's status", () => {
  it.each(pairs)("from %s on %s goes where the rule says, or nowhere", (from, change) => {
    const next = nextBookingStatus(from, change);
    // A change either moves the booking or is refused: it never leaves it where it was.
    expect(next).not.toBe(from);
    const expected: Record<BookingChange, BookingStatus | null> = {
      paid: from === "held" || from === "released" ? "paid" : null,
      payment_returned: from === "held" || from === "released" ? "refunded" : null,
      hold_lapsed: from === "held" ? "released" : null,
      refunded: from === "paid" ? "refunded" : null,
      cancelled: from === "paid" ? "cancelled" : null,
      transferred: from === "paid" ? "transferred" : null,
    };
    expect(next).toBe(expected[change]);
  });

  it("never leaves refunded: a payment is never taken twice, nor a refund undone", () => {
    for (const change of bookingChanges) expect(nextBookingStatus("refunded", change)).toBeNull();
  });

  it("never leaves cancelled: a seat the guest gave back is not paid for again", () => {
    for (const change of bookingChanges) expect(nextBookingStatus("cancelled", change)).toBeNull();
  });

  it("never leaves transferred: a ticket given to a friend is theirs, one move only", () => {
    for (const change of bookingChanges) expect(nextBookingStatus("transferred", change)).toBeNull();
  });

  it("reaches paid only by a payment, and leaves paid only by a refund, the guest's cancel or a transfer", () => {
    for (const [from, change] of pairs) {
      if (nextBookingStatus(from, change) === "paid") expect(change).toBe("paid");
      if (from === "paid" && nextBookingStatus(from, change) !== null)
        expect(["refunded", "cancelled", "transferred"]).toContain(change);
    }
  });

  it("lets every status be reached from a hold", () => {
    expect([...reachable()].sort()).toEqual([...bookingStatuses].sort());
  });

  it("names the statuses a bulk writer may start from", () => {
    expect(bookingStatusesFor("hold_lapsed")).toEqual(["held"]);
    expect(bookingStatusesFor("paid").sort()).toEqual(["held", "released"]);
    expect(bookingStatusesFor("refunded")).toEqual(["paid"]);
  });
});
