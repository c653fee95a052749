/** The only country the product serves: Australian mobiles receive the codes and texts. */
export const COUNTRY_CODE = "+61";

/**
 * An Australian mobile in any of the ways people type it (`412345678`, `0412 345 678`,
 * `+61 412 345 678`, `61412345678`) as E.164 (`+61412345678`), or null when it is not one.
 * Mobiles are the 04xx range; landlines and short codes cannot receive our codes, so they are refused.
 * The server decides with it; the PWA uses it only to show the number back before sending it.
 */
export function normaliseAuMobile(raw: string): string | null {
  if (raw.length > 32) return null;
  // Spaces, dashes, dots and brackets are how people group digits; nothing else is allowed.
  const compact = raw.trim().replace(/[\s\-.()]/g, "");
  let national: string;
  if (/^\+61\d+$/.test(compact)) national = compact.slice(3);
  else if (/^61\d{9}$/.test(compact)) national = compact.slice(2);
  else if (/^\d+$/.test(compact)) national = compact;
  else return null;
  if (national.startsWith("0")) national = national.slice(1);
  return /^4\d{8}$/.test(national) ? `${COUNTRY_CODE}${national}` : null;
}
