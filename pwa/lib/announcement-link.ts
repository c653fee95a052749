// An announcement's link, `/?event=ID&a=ANN` (api/messaging/consent.ts, announcementLink): the home
// page keeps `a` for this tab, and the booking of that event sends it as `announcementId`, so the
// booking is counted on the announcement. sessionStorage: it is this visit's, never tracked beyond it.

const KEY = "sdt-announcement";

const positiveId = (raw: string | null) => (raw && /^[1-9]\d{0,8}$/.test(raw) ? Number(raw) : null);

/** Reads `?event=&a=` and keeps the pair; returns the event to show first, or null. */
export function rememberAnnouncementLink(search: URLSearchParams): number | null {
  const eventId = positiveId(search.get("event"));
  const announcementId = positiveId(search.get("a"));
  if (eventId !== null && announcementId !== null) {
    try {
      sessionStorage.setItem(KEY, JSON.stringify({ eventId, announcementId }));
    } catch {
      // Storage refused (private mode, full): the booking simply goes uncounted.
    }
  }
  return eventId;
}

/** The announcement that led to booking `eventId` in this tab, if one did. */
export function announcementFor(eventId: number): number | undefined {
  try {
    const kept = JSON.parse(sessionStorage.getItem(KEY) ?? "null") as { eventId?: unknown; announcementId?: unknown };
    return kept?.eventId === eventId && typeof kept.announcementId === "number" ? kept.announcementId : undefined;
  } catch {
    return undefined;
  }
}
