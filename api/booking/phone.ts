import { z } from "zod";
import { normaliseAuMobile } from "../../common/phone.ts";

export { COUNTRY_CODE } from "../../common/phone.ts";

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
