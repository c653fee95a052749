import { EventTime } from "../../events/components/event-time.tsx";
import { formatPrice } from "../../events/format.ts";
import type { EventSummary } from "../../events/types.ts";

/** The event being booked, so nobody loses track of what they are paying for. */
export function EventSummaryCard({ event }: { event: EventSummary }) {
  return (
    <dl className="booking-summary" aria-label="Event">
      <div>
        <dt>Event</dt>
        <dd className="booking-event-name">{event.event_name}</dd>
      </div>
      <div>
        <dt>When</dt>
        <dd>
          <EventTime iso={event.EventDateTime} zone={event.time_zone} />
        </dd>
      </div>
      <div>
        <dt>Where</dt>
        <dd>{event.event_address}</dd>
      </div>
      <div>
        <dt>Ticket</dt>
        <dd>{formatPrice(event.booking_amount)}</dd>
      </div>
    </dl>
  );
}
