import { formatVenueTime } from "../../common/time-zone.ts";

// How the staff screens write an event in a line: its start on the venue's clock and its status. The
// admin panel, the event picker (components/ui/event-picker.tsx) and a host's phone all say it so.

/** `2026-11-29 07:00 PM AEDT`, or "" for a missing or broken time. */
export function formatAtVenue(iso: string | null, zone: string): string {
  const ms = iso ? Date.parse(iso) : Number.NaN;
  return Number.isNaN(ms) ? "" : formatVenueTime(ms, zone);
}

const STATUS_LABELS: Record<string, string> = {
  upcoming: "Upcoming",
  started: "Started",
  ended: "Ended",
  cancelled: "Cancelled",
  paid: "Paid",
  refunded: "Refunded",
};

/** An event's (or a booking's) status as the panel says it. */
export const statusLabel = (status: string) => STATUS_LABELS[status] ?? status;
