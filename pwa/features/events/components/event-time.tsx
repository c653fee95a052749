import { venueDateTime } from "../format.ts";

/**
 * When an event happens, as people at the venue read it (`2026-11-29 07:00 PM AEDT`), with the UTC form
 * (`2026-11-29 08:00 AM UTC`) below it. Used inside a `<dd>` wherever an event's time is shown;
 * `weekday` starts the venue's line with its day (`Sun 2026-11-29 07:00 PM AEDT`).
 */
export function EventTime({
  iso,
  zone,
  weekday = false,
  text,
}: {
  iso: string | undefined;
  zone: string | undefined;
  weekday?: boolean;
  /**
   * The same lines as the server wrote them (`startsAtText` of an event reply), shown as they are so
   * the page builds no formatter; a reply kept from before the field existed is formatted here.
   */
  text?: { weekday: string; local: string; utc: string } | undefined;
}) {
  const when = text
    ? { local: weekday ? `${text.weekday} ${text.local}` : text.local, utc: text.utc }
    : iso
      ? venueDateTime(iso, zone, { weekday })
      : null;
  if (!when) return null;
  return (
    <>
      <span className="event-local-time">{when.local}</span>
      <span className="event-utc-time">{when.utc}</span>
    </>
  );
}
