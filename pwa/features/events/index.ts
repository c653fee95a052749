// What other features use of the events: the one event's reply, its type, its price and time as the
// cards say them, and the cancellation facts. The home page's own files (event-grid.tsx, event-card.tsx)
// import their siblings directly, never this file, so nothing here is pulled into the home page's
// first load (docs/decisions/047-the-phones-code-by-what-it-is-for.md).
export { CancellationFacts } from "./components/cancellation-facts.tsx";
export { EventTime } from "./components/event-time.tsx";
export { BOOKING_CLOSED_MESSAGE, formatPrice, venueDateTime } from "./format.ts";
export { getEvent } from "./get-event.ts";
export { priceLines } from "./prices.ts";
export type { EventView, SeatsByGender } from "./types.ts";
