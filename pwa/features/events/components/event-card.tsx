import { useNavigate } from "react-router-dom";
import { paths } from "../../../app/paths.ts";
import { imageUrl } from "../../../lib/api.ts";
import { canBook, canJoinWaitlist, cardLabel, formatHours, seatLines } from "../format.ts";
import { ageLines, priceLines } from "../prices.ts";
import type { EventSummary } from "../types.ts";
import { EventTime } from "./event-time.tsx";

export function EventCard({ event, now = Date.now() }: { event: EventSummary; now?: number }) {
  const navigate = useNavigate();
  const label = cardLabel(event, now);
  const bookable = canBook(event, now);
  const waitlist = canJoinWaitlist(event, now);
  // Seats left matter only while tickets are sold.
  const seats = label?.kind === "cancelled" || label?.kind === "closed" ? [] : seatLines(event);
  // The booking pages read this state (BookingPageState); "waitlist" ends in the waitlist form.
  const start = (intent: "book" | "waitlist") => navigate(paths.otpVerification, { state: { event, intent } });
  return (
    <article className="event-card" aria-labelledby={`event-${event.id}-title`}>
      <div className="event-card-media">
        <img src={imageUrl(event.event_image)} alt="" loading="lazy" width="800" height="500" />
        {/* A cancelled event wears the dark "closed" banner: nothing more can happen to it. */}
        {label ? (
          <span className={`seats-label ${label.kind === "cancelled" ? "closed cancelled" : label.kind}`}>
            {label.text}
          </span>
        ) : null}
      </div>
      <div className="event-card-body">
        <h3 id={`event-${event.id}-title`} className="event-title">
          {event.event_name} <span className={`event-status status-${event.event_status}`}>{event.event_status}</span>
        </h3>
        <dl className="event-facts">
          <div>
            <dt>When</dt>
            <dd className="event-datetime">
              <EventTime iso={event.EventDateTime} zone={event.time_zone} weekday />
            </dd>
          </div>
          <div>
            <dt>Where</dt>
            <dd>{event.event_address}</dd>
          </div>
          <div>
            <dt>Ticket</dt>
            {priceLines(event, now).map((line) => (
              <dd key={line}>{line}</dd>
            ))}
          </div>
          <div>
            <dt>Duration</dt>
            <dd>{formatHours(event.event_duration)}</dd>
          </div>
          <div>
            <dt>Ages</dt>
            {ageLines(event).map((line) => (
              <dd key={line}>{line}</dd>
            ))}
          </div>
          {seats.length > 0 ? (
            <div className="event-seats">
              <dt>Seats</dt>
              {seats.map((line) => (
                <dd key={line}>{line}</dd>
              ))}
            </div>
          ) : null}
        </dl>
        <div className="event-card-actions">
          <button type="button" className="button primary" disabled={!bookable} onClick={() => start("book")}>
            Book Tickets
          </button>
          {waitlist ? (
            <button type="button" className="button" onClick={() => start("waitlist")}>
              Join waitlist
            </button>
          ) : null}
        </div>
      </div>
    </article>
  );
}
