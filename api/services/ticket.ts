import QRCode from "qrcode";
import { isValidLinkToken } from "../lib/capability.ts";
import { Conflict, Forbidden, Gone, NotFound } from "../lib/errors.ts";
import { type BookingContext, loadBookingContextById } from "./checkout.ts";
import { type CompletionDeps, issueTicket, sendQueuedConfirmation, ticketLink } from "./payment-completion.ts";

/**
 * A ticket is shown to whoever can prove the booking: the browser that verified its phone (the signed
 * cookie, checked by the route) or the holder of the link texted to that phone (docs/decisions/010).
 */

/** The one refusal for a caller without proof, whatever the booking: unknown, unpaid or someone else's. */
export const NO_PROOF = "verify this phone number first";

export type TicketReply = {
  success: true;
  qrCodeImage: string;
  uniqueCode: string;
  eventName: string;
  eventDate: string;
  eventLocation: string;
  time_zone: string;
  event_duration: number;
  name: string;
  phone: string;
  userID: number;
  eventID: number;
};

/**
 * The ticket of a paid booking: its door code (issued once, with the confirmation SMS queued in the
 * same transaction) and the QR of the door link. Repeated calls give the same code and QR.
 */
export async function ticketFor(deps: CompletionDeps, ctx: BookingContext): Promise<TicketReply> {
  const { db, env } = deps;
  const now = deps.now();
  const uniqueCode = db.transaction(
    (tx) => {
      const fresh = loadBookingContextById(tx, ctx.booking.id);
      if (fresh?.booking.status !== "paid") throw Conflict("payment not completed", "payment_not_completed");
      return issueTicket(tx, env, fresh, now);
    },
    { behavior: "immediate" },
  );
  await sendQueuedConfirmation(deps, ctx.booking.id);
  const qrCodeImage = await QRCode.toDataURL(ticketLink(env, ctx.event.id, ctx.user.id), {
    errorCorrectionLevel: "M",
    margin: 2,
    width: 320,
  });
  return {
    success: true,
    qrCodeImage,
    uniqueCode,
    eventName: ctx.event.name,
    eventDate: new Date(ctx.event.startsAt).toISOString(),
    eventLocation: ctx.event.address,
    time_zone: ctx.event.timeZone,
    event_duration: ctx.event.durationHours,
    name: ctx.user.name,
    phone: ctx.user.phone,
    userID: ctx.user.id,
    eventID: ctx.event.id,
  };
}

/**
 * POST /api/ticket: the confirmation SMS's link. The token is checked before the database is read,
 * so a wrong one learns nothing about which bookings exist.
 */
export async function openTicketLink(deps: CompletionDeps, input: { bookingId: number; token: string }) {
  if (!isValidLinkToken(deps.env, "ticket", [input.bookingId], input.token)) {
    throw Forbidden("this ticket link is not valid", "invalid_link");
  }
  const ctx = loadBookingContextById(deps.db, input.bookingId);
  if (!ctx) throw NotFound("no such ticket");
  if (ctx.event.personalDataErasedAt !== null) throw Gone("this ticket has expired");
  if (ctx.booking.status === "refunded")
    throw Conflict("this booking was refunded, so the ticket is no longer valid", "refunded");
  if (ctx.booking.status !== "paid") throw Conflict("this booking is not paid", "not_paid");
  return ticketFor(deps, ctx);
}
