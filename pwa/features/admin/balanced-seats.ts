/**
 * Balanced seats: a set number of seats for men and for women, which must add up to the total
 * (docs/decisions/015-balanced-rooms-and-waitlist.md). The form keeps the counts as typed.
 */
export type BalancedSeats = { balanced: boolean; men: string; women: string };

const wholeNumber = (typed: string): number | null => (/^\s*\d{1,5}\s*$/.test(typed) ? Number(typed) : null);

/** The form's check before anything is sent; null when the seats are fine (or not balanced). */
export function validateBalancedSeats(seats: BalancedSeats, totalSeats: string | number): string | null {
  if (!seats.balanced) return null;
  const men = wholeNumber(seats.men);
  const women = wholeNumber(seats.women);
  if (men === null || women === null) return "Enter the seats for men and for women as whole numbers.";
  const total = Number(totalSeats);
  if (men + women !== total) {
    return `Seats for men and women must add up to the total seats (${Number.isFinite(total) ? total : "?"}).`;
  }
  return null;
}

/** What update-event carries: both counts, or both null to go back to one pool of seats. */
export function seatsForUpdate(seats: BalancedSeats): { seatsMale: number | null; seatsFemale: number | null } {
  return seats.balanced
    ? { seatsMale: Number(seats.men), seatsFemale: Number(seats.women) }
    : { seatsMale: null, seatsFemale: null };
}

/** A stored event's seat plan as the form shows it. */
export function balancedSeatsOf(event: { seatsMale?: number | null; seatsFemale?: number | null }): BalancedSeats {
  const balanced = typeof event.seatsMale === "number" && typeof event.seatsFemale === "number";
  return {
    balanced,
    men: balanced ? String(event.seatsMale) : "",
    women: balanced ? String(event.seatsFemale) : "",
  };
}
