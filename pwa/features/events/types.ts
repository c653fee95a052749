// The event shapes (docs/api.md, Events) are the API's own types (types only: nothing of the server is bundled).
import type { EventDetail, EventSummary } from "../../../api/booking/events.ts";

export type { EventDetail, EventSummary };
export type EventStatus = EventSummary["event_status"];

/** `SeatsLeft` of the event answers: seats left per gender at a balanced event, null at one with a single pool. */
export type SeatsByGender = EventSummary["SeatsLeft"];
