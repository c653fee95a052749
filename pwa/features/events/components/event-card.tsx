import { useEffect, useLayoutEffect, useRef } from "react";
import { useNavigate } from "react-router-dom";
import { FORMAT_LABELS } from "../../../../common/formats.ts";
import { CARD_SIZES, pictureSrcSet } from "../../../../common/image-widths.ts";
import { paths } from "../../../app/paths.ts";
import { imageUrl } from "../../../lib/api-reply.ts";
import { canBook, canJoinWaitlist, cardLabel, formatHours, seatLines } from "../format.ts";
import { ageLines, priceLines } from "../prices.ts";
import type { EventSummary } from "../types.ts";
import { CancellationDetails } from "./cancellation-facts.tsx";
import { EventTime } from "./event-time.tsx";

/**
 * `first`: the first card's picture is the home page's largest paint, so it loads at once and ahead
 * of other images; the rest wait until scrolled near.
 */
export function EventCard({
  event,
  now = Date.now(),
  first = false,
  highlighted = false,
}: {
  event: EventSummary;
  now?: number;
  first?: boolean;
  /** The event a link named (an announcement's `/?event=ID&a=ANN`): scrolled into view and marked. */
  highlighted?: boolean;
}) {
  const navigate = useNavigate();
  const card = useRef<HTMLElement>(null);
  useEffect(() => {
    if (highlighted) card.current?.scrollIntoView({ block: "start" });
  }, [highlighted]);
  const label = cardLabel(event, now);
  const bookable = canBook(event, now);
  const waitlist = canJoinWaitlist(event, now);
  // Seats left matter only while tickets are sold.
  const seats = label?.kind === "cancelled" || label?.kind === "closed" ? [] : seatLines(event);
  // The booking pages read this state (BookingPageState); "waitlist" ends in the waitlist form.
  const start = (intent: "book" | "waitlist") => navigate(paths.otpVerification, { state: { event, intent } });
  return (
    <article
      ref={card}
      className={highlighted ? "event-card highlighted" : "event-card"}
      aria-labelledby={`event-${event.id}-title`}
      aria-current={highlighted ? "true" : undefined}
    >
      <div className="event-card-media">
        <CardPicture name={event.event_image} first={first} />
        {/* A cancelled event wears the dark "closed" banner: nothing more can happen to it. */}
        {label ? (
          <span className={`seats-label ${label.kind === "cancelled" ? "closed cancelled" : label.kind}`}>
            {label.text}
          </span>
        ) : null}
      </div>
      <div className="event-card-body">
        <h2 id={`event-${event.id}-title`} className="event-title">
          {event.event_name} <span className={`event-status status-${event.event_status}`}>{event.event_status}</span>
        </h2>
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
          {event.format && event.format !== "women_men" ? (
            <div>
              <dt>Format</dt>
              <dd>{FORMAT_LABELS[event.format]}</dd>
            </div>
          ) : null}
          {seats.length > 0 ? (
            <div className="event-seats">
              <dt>Seats</dt>
              {seats.map((line) => (
                <dd key={line}>{line}</dd>
              ))}
            </div>
          ) : null}
        </dl>
        <CancellationDetails policy={event.cancellationPolicy} />
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

/**
 * The event picture at the size the card shows it: WebP at 400 and 800 px (common/image-widths.ts),
 * the stored 1200 px JPEG only for a browser without WebP.
 *
 * The `<img>`'s `src` is set only once it sits in the `<picture>` after its `<source>`: React builds
 * the `<img>` (props and all) before it attaches it, and a browser given a `src` on a lone `<img>` may
 * start fetching the JPEG before it ever sees the WebP `<source>` (e2e/home-images.test.ts).
 */
function CardPicture({ name, first }: { name: string; first: boolean }) {
  const url = imageUrl(name);
  const img = useRef<HTMLImageElement>(null);
  useLayoutEffect(() => {
    if (img.current && img.current.getAttribute("src") !== url) img.current.setAttribute("src", url);
  }, [url]);
  return (
    <picture>
      <source type="image/webp" srcSet={pictureSrcSet(url)} sizes={CARD_SIZES} />
      <img
        ref={img}
        alt=""
        loading={first ? "eager" : "lazy"}
        fetchPriority={first ? "high" : "auto"}
        width="800"
        height="500"
      />
    </picture>
  );
}
