import { TICKET_STATUSES } from "../../common/ticket-status.ts";
import { z } from "../lib/openapi.ts";
import { idParam, jsonId } from "../lib/validate.ts";
import { cancellationPolicy } from "./events-schemas.ts";
import type { WebhookOutcome } from "./payment-completion.ts";

// The requests and replies of the payment and ticket calls (payments-routes.ts), as docs/api.md's
// "Payments and tickets" describes them. The services that make the replies read their types from
// these schemas (CheckoutReply, TicketReply, TicketStatusReply, ConfirmBookingReply, AppliedPromo:
// `z.output`).

const id = jsonId(z);
const optionalText = z.string().max(500).nullish();
const isoTime = z.iso.datetime();

const sessionId = z.string().regex(/^cs_[A-Za-z0-9_]{1,250}$/, "must be a checkout session id");

export const checkoutSessionQuery = z.object({ session_id: sessionId });

/** The texted ticket link's `add` and `t`, which every saved ticket keeps. */
export const ticketCapability = z.object({ bookingId: id, t: z.string().min(1).max(200) });

export const createCheckoutBody = z.object({
  userID: id,
  eventID: id,
  // Clients send these, as the call always carried them; the price and the names come from the database.
  amount: z.unknown().optional(),
  userEmail: optionalText,
  eventName: optionalText,
  // Issue 52: the number's credit pays first (part or all).
  useCredit: z.boolean().optional(),
});

export const sendConfirmationBody = z.object({
  userID: id,
  eventID: id,
  paymentIntentId: z.string().min(1).max(255),
  userEmail: optionalText,
  eventName: optionalText,
  userPhone: optionalText,
});

export const eventDetailsQuery = z.object({ eventID: idParam(z), userID: idParam(z) });

export const confirmBookingBody = z.object({ eventID: id, userID: id, uniqueCode: z.string().min(1).max(64) });

/** `CheckoutReply` (checkout.ts). */
export const checkoutReply = z.union([
  z.strictObject({
    sessionId: z.string(),
    paymentIntentId: z.string().nullable(),
    url: z.string(),
  }),
  // Paid wholly by credit (docs/decisions/057-credit.md): no card checkout; `url` is My nights.
  z.strictObject({ paidByCredit: z.literal(true), url: z.string() }),
]);

export const checkoutStatusReply = z.strictObject({ paymentIntentId: z.string().nullable(), paid: z.boolean() });

/** `TicketReply` (ticket.ts): the ticket with its QR, answered by send-confirmation and ticket. */
export const ticketReply = z.strictObject({
  success: z.literal(true),
  qrCodeImage: z.string().startsWith("data:image/png;base64,"),
  uniqueCode: z.string(),
  eventName: z.string(),
  eventDate: isoTime,
  eventLocation: z.string(),
  time_zone: z.string(),
  event_duration: z.number(),
  name: z.string(),
  phone: z.string(),
  userID: z.number().int(),
  eventID: z.number().int(),
  // The texted ticket link's `add` and `t`: what a saved ticket shows to `ticket-status`.
  bookingId: z.number().int(),
  ticketToken: z.string(),
  // What the seat cost and the event's policy: the ticket's **Cancel my booking** says what comes back.
  amountCents: z.number().int().min(0),
  cancellationPolicy,
  // Its receipt or tax invoice (`INV-000123`), null for a booking paid before documents existed.
  invoiceNumber: z.string().nullable(),
});

/** `TicketStatusReply` (ticket.ts). */
export const ticketStatusReply = z.strictObject({
  status: z.enum(TICKET_STATUSES),
  eventName: z.string(),
  eventDate: isoTime,
  eventLocation: z.string(),
  time_zone: z.string(),
  event_duration: z.number(),
  amountCents: z.number().int().min(0),
  cancellationPolicy,
  invoiceNumber: z.string().nullable(),
});

/** What handlePaymentEvent (payment-completion.ts) did with a delivery it had not seen before. */
export const WEBHOOK_OUTCOMES = ["paid", "refunded", "released", "ignored"] as const satisfies WebhookOutcome[];

export const webhookReply = z.union([
  z.strictObject({ received: z.literal(true), outcome: z.enum(WEBHOOK_OUTCOMES) }),
  z.strictObject({ received: z.literal(true), duplicate: z.literal(true) }),
]);

export const eventDetailsReply = z.strictObject({
  event: z.strictObject({
    eventName: z.string(),
    eventDate: isoTime,
    eventLocation: z.string(),
    time_zone: z.string(),
  }),
  uniqueCode: z.string().nullable(),
});

/** What staff confirming a right code also learn (check-in.ts's StaffDetails). */
const staffDetails = { name: z.string().optional(), doorsOpenAt: isoTime.optional() };

/** `ConfirmBookingReply` (night/check-in.ts). */
export const confirmBookingReply = z.union([
  z.strictObject({ confirmed: z.literal(false) }),
  z.strictObject({ confirmed: z.literal(true), checkedIn: z.literal(true), checkedInAt: isoTime, ...staffDetails }),
  z.strictObject({ confirmed: z.literal(true), checkedIn: z.literal(false), ...staffDetails }),
]);

/** apply-promo's answer (promo-codes.ts): the held booking's new total and everything taken off it, in dollars. */
export const appliedPromo = z.strictObject({ amount: z.number(), discount: z.number(), code: z.string() });
export type AppliedPromo = z.output<typeof appliedPromo>;
