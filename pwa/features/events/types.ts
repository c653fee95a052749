// The event shapes (docs/api.md, Events) are the API's own types (types only: nothing of the server is
// bundled), with their event fields by the names in the code: the replies are mapped once where they
// arrive (common/event-wire.ts, eventOfReply), and the screens read only these.
import type {
  EventDetail as EventDetailReply,
  EventSummary as EventSummaryReply,
} from "../../../api/booking/events.ts";
import type { EventOfReply } from "../../../common/event-wire.ts";

/** An event of get-events, as the screens read it. */
export type EventView = EventOfReply<EventSummaryReply>;
/** The event of get-event, as the screens read it. */
export type EventDetailView = EventOfReply<EventDetailReply>;
export type EventStatus = EventView["status"];

/** `SeatsLeft` of the event answers: seats left per gender at a balanced event, null at one with a single pool. */
export type SeatsByGender = EventView["SeatsLeft"];
