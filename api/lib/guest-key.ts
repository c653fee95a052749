import type { Env } from "../env.ts";
import { hmac } from "./crypto.ts";

/**
 * A mobile number as the reports know it (issue 51): an HMAC with SESSION_SECRET, so the same number
 * gives the same key and the key cannot be turned back into the number. Kept on paid bookings after
 * RETENTION_DAYS erases the number, so "guests who come back" can be counted over years; cleared by
 * Delete my details (docs/decisions/056-reports.md).
 */
export const guestKeyOf = (env: Pick<Env, "SESSION_SECRET">, phone: string) =>
  hmac(env.SESSION_SECRET, "guest-key", phone);
