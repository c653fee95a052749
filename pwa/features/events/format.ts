import type { EventSummary } from "./types.ts";

const pad = (n: number) => String(n).padStart(2, "0");

/** SPEC.md: date-time in UTC as `YYYY-MM-DD hh:mm A`, e.g. `2026-12-05 07:30 PM`. */
export function formatEventDateTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  const h = d.getUTCHours();
  const hour12 = h % 12 === 0 ? 12 : h % 12;
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(hour12)}:${pad(d.getUTCMinutes())} ${h < 12 ? "AM" : "PM"}`;
}

/** SPEC.md section 4: the seats label, shown only when seats are low or gone. */
export function seatsLabel(seatsLeftPercent: number): string | null {
  if (seatsLeftPercent <= 0) return "Sold Out";
  if (seatsLeftPercent <= 40) return `Only ${seatsLeftPercent}% seats left!`;
  return null;
}

/** Book Tickets is disabled once the event has started (or ended) or when no seat is left. */
export function canBook(event: Pick<EventSummary, "event_status" | "SeatAvailabilityPer">): boolean {
  return event.event_status === "upcoming" && event.SeatAvailabilityPer > 0;
}

export const formatPrice = (aud: number) =>
  new Intl.NumberFormat("en-AU", { style: "currency", currency: "AUD" }).format(aud);

export const formatHours = (hours: number) => `${hours} ${hours === 1 ? "hour" : "hours"}`;
