/**
 * The limits of an event's fields, one set for the server's checks (common/event-fields.ts) and the
 * admin forms' inputs, so the form never lets through what the server refuses, nor the other way.
 * Kept apart from the schemas so the forms get the numbers without the validation library.
 */
export const EVENT_LIMITS = {
  name: { max: 120 },
  address: { max: 300 },
  totalSeats: { min: 1, max: 10_000 },
  genderSeats: { min: 0, max: 10_000 },
  age: { min: 18, max: 99 },
  durationHours: { min: 0.25, max: 24, step: 0.25 },
  // Card payments have a floor (Stripe's is 0.50 AUD): a cheaper price could never be paid.
  price: { min: 0.5, max: 100_000, step: 0.01 },
  /** The cancellation policy: a full refund until this many hours before the start (30 days at most). */
  cancelFullRefundHours: { min: 0, max: 720, default: 48 },
  /** Then this percentage of what was paid comes back; 0 is none. */
  cancelLaterPercent: { min: 0, max: 100, default: 0 },
  /** Go ahead only with at least (issue 52): a count of bookings per side, or in all. */
  minimumBookings: { min: 1, max: 10_000 },
  /** ...decided this many hours before the start unless the organiser gives a time. */
  minimumByHours: { default: 48 },
  /** Start times come in quarter hours. */
  minutes: [0, 15, 30, 45],
} as const;
