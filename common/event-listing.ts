const HOUR = 3_600_000;
// An event nobody pressed End for still leaves the home page, half a day after it should be over.
const LISTED_AFTER_END_MS = 12 * HOUR;

/**
 * The home page lists upcoming and started events, until 12 hours after their planned end; ended
 * and cancelled events never. Shared: the server names the first listed event's picture in the
 * page's HTML (api/lib/static-files.ts), so it must list what the page lists.
 */
export function isListed(
  event: { event_status: string; EventDateTime: string; event_duration: number },
  now = Date.now(),
): boolean {
  if (event.event_status !== "upcoming" && event.event_status !== "started") return false;
  const start = Date.parse(event.EventDateTime);
  return Number.isNaN(start) || start + event.event_duration * HOUR + LISTED_AFTER_END_MS > now;
}
