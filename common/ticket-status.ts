/**
 * What a saved ticket is worth now: `paid` (valid for the door), `refunded`, `cancelled` (the event
 * was called off), `booking_cancelled` (its guest cancelled it with nothing due), `transferred` (its
 * guest gave it to a friend, whose own ticket gets in instead) or `ended` (the
 * night is over). The server answers it (`POST /api/ticket-status`,
 * docs/api.md); the phone falls back on the same clock rule when it cannot ask. Pure, so both share it.
 */
export const TICKET_STATUSES = ["paid", "refunded", "cancelled", "booking_cancelled", "transferred", "ended"] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

const HOUR = 3_600_000;

/**
 * A night its organiser never ended still counts as over this long after its planned end: nights
 * overrun, and a ticket must not leave the list while its holder may still be walking in.
 */
export const OVER_AFTER_PLANNED_END_MS = 3 * HOUR;

/** The planned end: the start plus the night's length. */
export const plannedEnd = (startsAtMs: number, durationHours: number) => startsAtMs + durationHours * HOUR;

/** Whether a night that started at `startsAtMs` is over by the clock alone. */
export const isOverByClock = (startsAtMs: number, durationHours: number, now: number) =>
  now >= plannedEnd(startsAtMs, durationHours) + OVER_AFTER_PLANNED_END_MS;
