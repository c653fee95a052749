import { formatAtVenue } from "../format.ts";

/** `2026-11-29` over `07:00 PM AEDT`: two short lines keep a wide table inside a laptop's width. */
export function VenueTime({ iso, zone }: { iso: string | null; zone: string }) {
  const shown = formatAtVenue(iso, zone);
  if (!shown) return "—";
  const [date, ...time] = shown.split(" ");
  return (
    <span className="admin-when">
      <span>{date}</span> <span>{time.join(" ")}</span>
    </span>
  );
}
