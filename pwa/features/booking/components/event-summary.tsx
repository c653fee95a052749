import { EventTime } from "../../events/components/event-time.tsx";
import { formatPrice } from "../../events/format.ts";
import type { EventSummary } from "../../events/types.ts";

/**
 * The event being booked, so nobody loses track of what they are paying for. With `gender`, the
 * ticket is that gender's price now (docs/decisions/023-prices-and-ages.md); an event kept from before
 * prices by gender has only its one price.
 */
export function EventSummaryCard({ event, gender }: { event: EventSummary; gender?: "male" | "female" }) {
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
        <dd>{formatPrice((gender && event.currentAmount?.[gender]) ?? event.booking_amount)}</dd>
      </div>
    </dl>
  );
}
