import { z } from "zod";

/** The only country the product serves (SPEC.md section 9). */
export const COUNTRY_CODE = "+61";

/**
 * An Australian mobile in any of the ways people type it (`412345678`, `0412 345 678`,
 * `+61 412 345 678`, `61412345678`) as E.164 (`+61412345678`), or null when it is not one.
 * Mobiles are the 04xx range; landlines and short codes cannot receive our codes, so they are refused.
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

/** A zod field that accepts what `normaliseAuMobile` accepts and yields E.164. */
export const auMobile = z
  .string()
  .max(32)
  .transform((value, ctx) => {
    const phone = normaliseAuMobile(value);
    if (!phone) {
      ctx.addIssue({ code: "custom", message: "must be an Australian mobile number" });
      return z.NEVER;
    }
    return phone;
  });
