import type { DbOrTx } from "../../db/client.ts";
import type { Document } from "../../db/schema.ts";
import type { Env } from "../env.ts";
import { linkToken, savedTicketLink } from "../lib/capability.ts";
import { enqueueEmail } from "../messaging/outbox.ts";
import { type EmailDocument, senderOf } from "../messaging/templates/email-frame.ts";
import { bookingEmail } from "../messaging/templates/ticket.ts";
import type { BookingContext } from "./checkout.ts";
import { documentTitle } from "./documents-pdf.ts";
import { doorQrLink } from "./ticket.ts";

/** The email's key: `confirmation-{id}` as the text's, so the confirmation's prompt send sends both. */
export const bookingEmailKey = (bookingId: number) => `confirmation-${bookingId}:email`;

/** A document as an email names and attaches it. */
export const emailDocument = (doc: Document | undefined): EmailDocument | null =>
  doc ? { id: doc.id, number: doc.number, title: documentTitle(doc) as EmailDocument["title"] } : null;

/**
 * The email's wallet links, each only where its wallet is set up (its settings go all or none, and
 * the keys they name are read at start, so the settings say it). Google's is the ticket link with
 * `&wallet=google`: the ticket page then asks for a save link made now (docs/decisions/054-wallet-buttons.md).
 */
export function walletLinks(env: Env, bookingId: number) {
  return {
    ...(env.APPLE_PASS_TYPE_ID
      ? {
          apple: `${env.PUBLIC_BASE_URL}/api/wallet/apple/${bookingId}?t=${linkToken(env, "ticket", bookingId)}`,
        }
      : {}),
    ...(env.GOOGLE_WALLET_ISSUER_ID ? { google: `${savedTicketLink(env, bookingId)}&wallet=google` } : {}),
  };
}

/**
 * Queues the booking email (its words: api/messaging/templates/ticket.ts) in the transaction that
 * marks the booking paid, beside the confirmation text: the ticket with its QR inline, the night's
 * `.ics`, and the receipt or tax invoice written in the same transaction. Once per booking, like the
 * text.
 */
export function queueBookingEmail(
  tx: DbOrTx,
  env: Env,
  ctx: BookingContext,
  ticket: { uniqueCode: string; document: Document | undefined },
  now: number,
) {
  const { booking, user, event } = ctx;
  if (!user.email) return;
  const content = bookingEmail({
    sender: senderOf(env),
    origin: env.PUBLIC_BASE_URL,
    // The whole row: the template says which of the event's fields the email shows.
    event,
    name: user.name,
    userID: user.id,
    uniqueCode: ticket.uniqueCode,
    ticketUrl: savedTicketLink(env, booking.id),
    qrText: doorQrLink(env, event.id, user.id),
    document: emailDocument(ticket.document),
    wallet: walletLinks(env, booking.id),
    now,
  });
  enqueueEmail(tx, { dedupeKey: bookingEmailKey(booking.id), to: user.email, bookingId: booking.id, ...content }, env);
}
