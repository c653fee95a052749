/**
 * The number as E.164 when it looks like an Australian mobile, for showing back to the person and
 * sending with the details. The server normalises and checks again; this only shapes the display.
 */
export function toE164(typed: string): string | null {
  const compact = typed.trim().replace(/[\s\-.()]/g, "");
  let national = compact.startsWith("+61") ? compact.slice(3) : /^61\d{9}$/.test(compact) ? compact.slice(2) : compact;
  if (national.startsWith("0")) national = national.slice(1);
  return /^4\d{8}$/.test(national) ? `+61${national}` : null;
}

/** `+61412345678` as `+61 412 345 678`. */
export const formatPhone = (e164: string) => e164.replace(/^\+61(\d{3})(\d{3})(\d{3})$/, "+61 $1 $2 $3");
