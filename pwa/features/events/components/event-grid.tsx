import { ErrorNotice } from "../../../lib/error-notice.tsx";
import { useUpcomingEvents } from "../get-events.ts";
import { EventCard } from "./event-card.tsx";

/** `highlighted`: the event a link named (`/?event=ID`), scrolled to and marked. */
export function EventGrid({ highlighted = null }: { highlighted?: number | null }) {
  const { state, reload } = useUpcomingEvents();
  if (state.status === "loading") {
    return (
      <div className="event-grid" role="status" aria-busy="true" aria-label="Loading events">
        {[0, 1, 2].map((i) => (
          <div key={i} className="event-card skeleton" />
        ))}
      </div>
    );
  }
  if (state.status === "error") {
    return <ErrorNotice message={state.message} onRetry={reload} />;
  }
  if (state.events.length === 0) {
    return <p className="empty">No events are scheduled right now. New dates are added often, so check back soon.</p>;
  }
  return (
    <div className="event-grid">
      {state.events.map((event, i) => (
        <EventCard key={event.id} event={event} first={i === 0} highlighted={event.id === highlighted} />
      ))}
    </div>
  );
}
