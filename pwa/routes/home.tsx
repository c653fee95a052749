import { useState } from "react";
import { useSearchParams } from "react-router-dom";
import { EventGrid } from "../features/events/components/event-grid.tsx";
import { rememberAnnouncementLink } from "../lib/announcement-link.ts";

/** `?event=ID` (an announcement's link adds `&a=ANN`): that event's card is shown first, marked. */
export function HomePage() {
  const [search] = useSearchParams();
  const [highlighted] = useState(() => rememberAnnouncementLink(search));
  return (
    <main className="page home">
      <section aria-labelledby="upcoming-heading">
        <h1 id="upcoming-heading">Upcoming Events</h1>
        <EventGrid highlighted={highlighted} />
      </section>
      <section className="blurb" aria-labelledby="blurb-heading">
        <h2 id="blurb-heading">Speed date to find your next Date!</h2>
        <p>
          Meet a room full of South Asian singles in one evening. Every few minutes you move to a new table and a new
          conversation: no endless swiping, no awkward openers. After the event, mark the people you'd like to see
          again, and when the feeling is mutual we share your numbers.
        </p>
        <p>
          Verify your mobile, add a photo, pay securely by card and your QR ticket is ready, even without a signal at
          the door.
        </p>
      </section>
    </main>
  );
}
