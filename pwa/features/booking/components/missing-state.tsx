import { Link } from "react-router-dom";
import { paths } from "../../../app/paths.ts";

/**
 * Shown when a booking page has nothing to show: no event in its address, or no seat held in this
 * tab (a new tab, a shared link). With the event's id, the way back is to that event's card.
 */
export function MissingState({ message, eventID }: { message: string; eventID?: number | null }) {
  return (
    <div className="notice" role="alert">
      <p>{message}</p>
      <p>
        {eventID ? (
          <Link to={`${paths.home}?${new URLSearchParams({ event: String(eventID) })}`}>Back to the event</Link>
        ) : (
          <Link to={paths.home}>Back to upcoming events</Link>
        )}
      </p>
    </div>
  );
}
