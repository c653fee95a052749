import { NO_MATCH_PROMISE } from "../../../../common/no-match-promise.ts";
import { CancellationFacts, EventTime, type EventView, formatPrice, priceLines } from "../../events/index.ts";
import type { PersonGender } from "../types.ts";

/**
 * The event being booked, so nobody loses track of what they are paying for. With `gender`, the
 * ticket is that gender's price now (docs/decisions/023-prices-and-ages.md); before the gender is
 * chosen (the code step), the card's lines: each gender's price and the early bird where they apply.
 */
export function EventSummaryCard({ event, gender }: { event: EventView; gender?: PersonGender }) {
  // Non-binary (Mixed) and One group's unasked pay the event's price, which is both sides' when the
  // organiser set no price by gender (the forms for those formats offer none).
  const both = event.currentAmount?.male === event.currentAmount?.female ? event.currentAmount?.male : undefined;
  const amount = gender === "male" || gender === "female" ? event.currentAmount?.[gender] : gender ? both : undefined;
  return (
    <dl className="booking-summary" aria-label="Event">
      <div>
        <dt>Event</dt>
        <dd className="booking-event-name">{event.name}</dd>
      </div>
      <div>
        <dt>When</dt>
        <dd>
          <EventTime iso={event.startsAt} zone={event.timeZone} text={event.startsAtText} />
        </dd>
      </div>
      <div>
        <dt>Where</dt>
        <dd>{event.address}</dd>
      </div>
      {event.venueNotes ? (
        <div>
          <dt>Venue notes</dt>
          <dd>{event.venueNotes}</dd>
        </div>
      ) : null}
      <div>
        <dt>Ticket</dt>
        <dd>
          {gender && (amount !== undefined || gender === "male" || gender === "female")
            ? formatPrice(amount ?? event.priceCents / 100)
            : priceLines(event).map((line) => (
                <span key={line} className="booking-price-line">
                  {line}
                </span>
              ))}
        </dd>
      </div>
      <CancellationFacts policy={event.cancellationPolicy} />
      {event.noMatchPromise ? (
        <div>
          <dt>Our promise</dt>
          <dd className="no-match-promise">{NO_MATCH_PROMISE}</dd>
        </div>
      ) : null}
    </dl>
  );
}
