import { randomInt } from "node:crypto";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import { policyOf } from "../../common/cancellation.ts";
import { isOverByClock, type TicketStatus } from "../../common/ticket-status.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import { bookings } from "../../db/schema.ts";
import type { Env } from "../env.ts";
import { isValidLinkToken, linkToken, savedTicketLink } from "../lib/capability.ts";
import { Conflict, Forbidden, Gone, NotFound } from "../lib/errors.ts";
import type { Logger } from "../lib/log.ts";
import { qrDataUrl } from "../lib/qr.ts";
import { deliverPending, enqueueSms } from "../messaging/outbox.ts";
import { ticketText } from "../messaging/templates/ticket.ts";
import type { SmsProvider } from "../providers/sms/types.ts";
import { type BookingContext, loadBookingContextById } from "./checkout.ts";
import { saleDocumentOfBooking } from "./documents.ts";
import type { ticketReply, ticketStatusReply } from "./payments-schemas.ts";

/**
 * Tickets: issuing one to a paid booking (its door code and the confirmation SMS with its links) and
 * showing it (the code and the QR of the door link). Payment completion calls `issueTicket` inside
 * the transaction that marks the booking paid. A ticket is shown to whoever can prove the booking:
 * the browser that verified its phone (the signed cookie, checked by the route) or the holder of the
 * link texted to that phone (docs/decisions/010).
 */

export type TicketDeps = { db: Db; env: Env; sms: SmsProvider; log: Logger; now: () => number };

// No 0/O, 1/I/L: the code is read aloud and typed at the door.
const ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
const CODE_LENGTH = 10;

/**
 * What the ticket's QR encodes: the door page staff scan. It shows no ticket (only a code box), so it
 * is never the link an attendee is sent to; they get `savedTicketLink`, which shows this QR.
 */
export const doorQrLink = (env: Pick<Env, "PUBLIC_BASE_URL">, eventId: number, userId: number) =>
  `${env.PUBLIC_BASE_URL}/confirm-booking?eventID=${eventId}&userID=${userId}`;

export const confirmationDedupeKey = (bookingId: number) => `confirmation-${bookingId}`;

function randomCode(): string {
  let code = "";
  for (let i = 0; i < CODE_LENGTH; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

/**
 * Gives a paid booking its door code and queues the confirmation SMS, once. Runs inside the
 * transaction that marks the booking paid, so the code and the message exist exactly when the seat does.
 */
export function issueTicket(tx: DbOrTx, env: Env, ctx: BookingContext, now: number) {
  const { booking, user, event } = ctx;
  if (booking.uniqueCode) return booking.uniqueCode;
  let code = randomCode();
  // 31^10 codes make a clash vanishingly rare, but the column has no unique index, so check.
  while (tx.select({ id: bookings.id }).from(bookings).where(eq(bookings.uniqueCode, code)).get()) code = randomCode();
  tx.update(bookings).set({ uniqueCode: code, confirmationSentAt: now }).where(eq(bookings.id, booking.id)).run();
  // The words, and why its one link is the signed ticket link: api/messaging/templates/ticket.ts.
  enqueueSms(tx, {
    dedupeKey: confirmationDedupeKey(booking.id),
    to: user.phone,
    body: ticketText({ event, code, ticketUrl: savedTicketLink(env, booking.id) }),
  });
  return code;
}

/** Sends the queued confirmation now; a failure stays queued for the background retry. */
export async function sendQueuedConfirmation(deps: Omit<TicketDeps, "env">, bookingId: number) {
  try {
    await deliverPending(deps, { dedupePrefix: confirmationDedupeKey(bookingId) });
  } catch (error) {
    deps.log("warn", "confirmation sms not delivered yet", { bookingId, error: String(error).slice(0, 200) });
  }
}

/** The one refusal for a caller without proof, whatever the booking: unknown, unpaid or someone else's. */
export const NO_PROOF = "verify this phone number first";

/** The ticket with its QR (send-confirmation, ticket): its type is its schema's (payments-schemas.ts). */
export type TicketReply = z.output<typeof ticketReply>;

/**
 * The ticket of a paid booking: its door code (issued once, with the confirmation SMS queued in the
 * same transaction) and the QR of the door link. Repeated calls give the same code and QR.
 */
export async function ticketFor(deps: TicketDeps, ctx: BookingContext): Promise<TicketReply> {
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
  const qrCodeImage = await qrDataUrl(doorQrLink(env, ctx.event.id, ctx.user.id));
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
    bookingId: ctx.booking.id,
    ticketToken: linkToken(env, "ticket", ctx.booking.id),
    amountCents: ctx.booking.amountCents,
    cancellationPolicy: policyOf(ctx.event),
    invoiceNumber: saleDocumentOfBooking(db, ctx.booking.id)?.number ?? null,
  };
}

/**
 * POST /api/ticket: the confirmation SMS's link. The token is checked before the database is read,
 * so a wrong one learns nothing about which bookings exist.
 */
export async function openTicketLink(deps: TicketDeps, input: { bookingId: number; token: string }) {
  if (!isValidLinkToken(deps.env, "ticket", [input.bookingId], input.token)) {
    throw Forbidden("this ticket link is not valid", "invalid_link");
  }
  const ctx = loadBookingContextById(deps.db, input.bookingId);
  if (!ctx) throw NotFound("no such ticket");
  if (ctx.event.personalDataErasedAt !== null) throw Gone("this ticket has expired");
  if (ctx.booking.status === "refunded")
    throw Conflict("this booking was refunded, so the ticket is no longer valid", "refunded");
  if (ctx.booking.status === "cancelled")
    throw Conflict("this booking was cancelled, so the ticket is no longer valid", "booking_cancelled");
  if (ctx.booking.status === "transferred")
    throw Conflict("this ticket was given to a friend, so it is no longer valid", "not_transferable");
  if (ctx.booking.status !== "paid") throw Conflict("this booking is not paid", "not_paid");
  return ticketFor(deps, ctx);
}

export type TicketStatusReply = z.output<typeof ticketStatusReply>;

/**
 * POST /api/ticket-status: what a saved ticket is worth now, for the phone that keeps it. The
 * ticket's own link token is the proof, checked before the database is read, so it answers for one
 * booking only. The guest's own cancel with nothing due outranks all (no refund is coming, whatever
 * the event did since); then a cancelled event outranks a refund (cancelling refunds everyone), and a
 * refund outranks the end. The event's public details come along, so a ticket follows an edited time or address.
 */
export function ticketStatus(
  deps: Pick<TicketDeps, "db" | "env" | "now">,
  input: { bookingId: number; token: string },
) {
  if (!isValidLinkToken(deps.env, "ticket", [input.bookingId], input.token)) {
    throw Forbidden("this ticket link is not valid", "invalid_link");
  }
  const ctx = loadBookingContextById(deps.db, input.bookingId);
  if (!ctx) throw NotFound("no such ticket");
  const { booking, event } = ctx;
  if (!["paid", "refunded", "cancelled", "transferred"].includes(booking.status))
    throw Conflict("this booking is not paid", "not_paid");
  // Given to a friend outranks all too: whatever the night does now, this ticket gets nobody in.
  const status: TicketStatus =
    booking.status === "transferred"
      ? "transferred"
      : booking.status === "cancelled"
        ? "booking_cancelled"
        : event.status === "cancelled"
          ? "cancelled"
          : booking.status === "refunded"
            ? "refunded"
            : event.status === "ended" || isOverByClock(event.startsAt, event.durationHours, deps.now())
              ? "ended"
              : "paid";
  return {
    status,
    eventName: event.name,
    eventDate: new Date(event.startsAt).toISOString(),
    eventLocation: event.address,
    time_zone: event.timeZone,
    event_duration: event.durationHours,
    amountCents: booking.amountCents,
    cancellationPolicy: policyOf(event),
    invoiceNumber: saleDocumentOfBooking(deps.db, booking.id)?.number ?? null,
  } satisfies TicketStatusReply;
}
