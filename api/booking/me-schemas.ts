import { z } from "../lib/openapi.ts";

// The guest's own choices as /me answers them (me-routes.ts); me-consent.ts reads its MyConsent type
// from this schema (`z.output`), so the reply check, the OpenAPI document and the compiler hold one shape.

/** `yes`, `pending` (an email address asked to confirm, docs/decisions/039) or `no`. */
export const consentState = z.enum(["yes", "pending", "no"]);

/**
 * `email` is true only once the address confirmed it (docs/decisions/039); `emailState` says where it
 * stands: `pending` while the confirmation email waits for its click.
 */
export const myConsentReply = z.strictObject({
  sms: z.boolean(),
  email: z.boolean(),
  emailState: consentState,
  emailAddress: z.string().nullable(),
});
export type MyConsent = z.output<typeof myConsentReply>;

/** What cancel-booking answers (issue 52 added `creditCents`); cancel-booking.ts reads CancelResult from it. */
export const cancelBookingReply = z.strictObject({
  refundCents: z.number().int().min(0),
  creditCents: z.number().int().min(0),
  status: z.enum(["refunded", "cancelled"]),
});
