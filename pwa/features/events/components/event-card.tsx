import { useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router-dom";
import { FORMAT_LABELS } from "../../../../common/formats.ts";
import { NO_MATCH_PROMISE } from "../../../../common/no-match-promise.ts";
import { bookingStepPath } from "../../../app/paths.ts";
import { cardPicture } from "../card-picture.ts";
import { canBook, canJoinWaitlist, cardLabel, formatHours, seatLines } from "../format.ts";
import { ageLines, priceLines } from "../prices.ts";
import type { EventView } from "../types.ts";
import { CancellationDetails } from "./cancellation-details.tsx";
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
  event: EventView;
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
  // The booking page loads the event by the id in its address; "waitlist" ends in the waitlist form.
  const start = (intent: "book" | "waitlist") => navigate(bookingStepPath("otpVerification", event.id, intent));
  return (
    <article
      ref={card}
      className={highlighted ? "event-card highlighted" : "event-card"}
      aria-labelledby={`event-${event.id}-title`}
      aria-current={highlighted ? "true" : undefined}
    >
      <div className="event-card-media">
        <CardPicture name={event.imageName} first={first} />
        {/* A cancelled event wears the dark "closed" banner: nothing more can happen to it. */}
        {label ? (
          <span className={`seats-label ${label.kind === "cancelled" ? "closed cancelled" : label.kind}`}>
            {label.text}
          </span>
        ) : null}
      </div>
      <div className="event-card-body">
        <h2 id={`event-${event.id}-title`} className="event-title">
          {event.name} <span className={`event-status status-${event.status}`}>{event.status}</span>
        </h2>
        <dl className="event-facts">
          <div>
            <dt>When</dt>
            <dd className="event-datetime">
              <EventTime iso={event.startsAt} zone={event.timeZone} text={event.startsAtText} weekday />
            </dd>
          </div>
          <div>
            <dt>Where</dt>
            <dd>{event.address}</dd>
          </div>
          <div>
            <dt>Ticket</dt>
            {priceLines(event, now).map((line) => (
              <dd key={line}>{line}</dd>
            ))}
          </div>
          <div>
            <dt>Duration</dt>
            <dd>{formatHours(event.durationHours)}</dd>
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
        {event.noMatchPromise ? <p className="event-promise">{NO_MATCH_PROMISE}</p> : null}
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
 * The event picture at the size the card shows it: the WebP at 400 or 800 px (common/image-widths.ts),
 * fetched once and kept for offline by ./card-picture.ts, shown from those bytes. `first` fetches at
 * once (the home page's largest paint, preloaded by the server); the others when scrolled near.
 */
function CardPicture({ name, first }: { name: string; first: boolean }) {
  const img = useRef<HTMLImageElement>(null);
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let cancelled = false;
    let shown: string | null = null;
    setSrc(null);
    const show = async () => {
      const blob = await cardPicture(name);
      if (cancelled || !blob) return;
      shown = URL.createObjectURL(blob);
      setSrc(shown);
    };
    let observer: IntersectionObserver | undefined;
    if (first || !img.current || typeof IntersectionObserver === "undefined") void show();
    else {
      observer = new IntersectionObserver(
        (entries) => {
          if (!entries.some((entry) => entry.isIntersecting)) return;
          observer?.disconnect();
          void show();
        },
        { rootMargin: "400px 0px" },
      );
      observer.observe(img.current);
    }
    return () => {
      cancelled = true;
      observer?.disconnect();
      if (shown) URL.revokeObjectURL(shown);
    };
  }, [name, first]);
  return <img ref={img} alt="" src={src ?? undefined} decoding="async" width="800" height="500" />;
}
