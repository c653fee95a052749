const DAY = 86_400_000;

/** The earliest date the server accepts for a new event: tomorrow, in UTC like every event time. */
export const tomorrowUtc = (now = Date.now()) => new Date(now + DAY).toISOString().slice(0, 10);

export const HOURS = Array.from({ length: 24 }, (_, h) => h);
// SPEC.md lists 0, 14, 30, 45 for the edit form; 14 is a slip, and the server only takes quarter hours.
export const MINUTES = [0, 15, 30, 45];

const pad = (n: number) => String(n).padStart(2, "0");

/** `2031-05-03 19:30 UTC`: organisers plan in UTC like the rest of the product. */
export function formatUtc(iso: string | null): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  return `${d.toISOString().slice(0, 10)} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())} UTC`;
}

export const formatAud = (aud: number) =>
  new Intl.NumberFormat("en-AU", { style: "currency", currency: "AUD" }).format(aud);

/** The stored thumbnail beside an uploaded photo (api/services/images.ts names them `x.jpg` / `x-thumb.jpg`). */
export const thumbnailOf = (imageName: string) => imageName.replace(/\.jpg$/, "-thumb.jpg");
