import { formatVenueTime } from "../../../common/time-zone.ts";
import type { Event } from "../../../db/schema.ts";
import { WALLET_BADGES, type WalletBadge } from "../wallet-badges.ts";
import {
  type Block,
  calendarAttachment,
  compose,
  documentAttachment,
  type EmailAttachment,
  type EmailBadge,
  type EmailContent,
  type EmailDocument,
  QR_CID,
  type TicketEmail,
  when,
} from "./email-frame.ts";

/** An event that may carry venue notes: one line on finding the room (docs/decisions/044-one-name-per-field.md). */
export type WithVenueNotes = { venueNotes?: string | null };

/** The venue notes as an email's fact, or nothing when the event has none. */
export const venueNotesFact = (event: WithVenueNotes): [string, string][] =>
  event.venueNotes ? [["Venue notes", event.venueNotes]] : [];

/** The venue notes as a sentence of a text, or nothing when the event has none. */
export const venueNotesSentence = (event: WithVenueNotes) =>
  event.venueNotes ? `Venue notes: ${event.venueNotes.replace(/[.!?]$/, "")}. ` : "";

// The ticket: the confirmation text and the booking email, queued together when a booking is paid
// (api/booking/ticket.ts and booking-email.ts).

/**
 * The confirmation text. One link, the signed ticket link (`ticketUrl`): it shows the QR on whatever
 * phone opens it and saves it there (an installed app on iOS keeps its storage apart from Safari,
 * where a card checkout may return). Never the door page the QR encodes: that is an empty code box.
 * A link ends the message: a full stop after one is read as part of it by some phones.
 */
export const ticketText = (input: {
  event: Pick<Event, "name" | "startsAt" | "timeZone" | "address">;
  code: string;
  ticketUrl: string;
}) =>
  `You're booked for ${input.event.name} on ${formatVenueTime(input.event.startsAt, input.event.timeZone)} at ${input.event.address}. ` +
  `Your ticket code is ${input.code}. Your ticket, with the QR to show at the door: ${input.ticketUrl}`;

/**
 * The ticket's wallet links (docs/decisions/054-wallet-buttons.md): Apple's downloads the pass with the
 * ticket link's token; Google's opens the ticket page, which asks for a fresh save link and goes on
 * to Google, so the email never carries a JWT whose facts (the time, the state) may have changed since.
 */
export type WalletLinks = { apple?: string; google?: string };

/** A wallet's badge in the email: its link and words, and its own artwork attached inline to show them. */
function walletBadge(wallet: WalletBadge, href: string, text: string) {
  const { cid, width, height } = WALLET_BADGES[wallet];
  const badge: EmailBadge = { href, text, cid, width, height };
  const attachment: EmailAttachment = { filename: `${cid}.png`, contentType: "image/png", cid, badge: wallet };
  return { badge, attachment };
}

/**
 * The booking email, queued with the confirmation text: the QR inline with the unique code, the date
 * and time on the venue's clock, the address and the ticket link; the event's `.ics` and the
 * payment's receipt or tax invoice attached.
 */
export function bookingEmail(
  input: TicketEmail & {
    event: WithVenueNotes;
    /** What the QR encodes: the door page's link (api/booking/ticket.ts's `doorQrLink`). */
    qrText: string;
    document?: EmailDocument | null;
    /** The wallet links, each only where its wallet is set up (api/booking/booking-email.ts). */
    wallet?: WalletLinks;
  },
): EmailContent {
  const { event, sender } = input;
  const wallets = [
    ...(input.wallet?.apple ? [walletBadge("apple", input.wallet.apple, "Add to Apple Wallet")] : []),
    ...(input.wallet?.google ? [walletBadge("google", input.wallet.google, "Add to Google Wallet")] : []),
  ];
  const badges = wallets.map((w) => w.badge);
  const blocks: Block[] = [
    { p: `Hi ${input.name},` },
    { p: `You're booked for ${event.name}. Show this QR code, or say your ticket code, at the door.` },
    { qr: { alt: `QR code for ${input.name}'s ticket` } },
    {
      facts: [
        ["Ticket code", input.uniqueCode],
        ["When", when(event)],
        ["Where", event.address],
        ...venueNotesFact(event),
      ],
    },
    { link: { href: input.ticketUrl, text: "Open your ticket" } },
    ...(badges.length > 0 ? [{ badges } satisfies Block] : []),
    {
      p: input.document
        ? `Your ${input.document.title.toLowerCase()} ${input.document.number} is attached, with the night as a calendar file.`
        : "The night is attached as a calendar file.",
    },
  ];
  return compose(`Your ticket for ${event.name}`, blocks, sender, [
    { filename: "ticket-qr.png", contentType: "image/png", qr: input.qrText, cid: QR_CID },
    ...wallets.map((w) => w.attachment),
    ...calendarAttachment(event, input, input.origin, input.now),
    ...documentAttachment(input.document),
  ]);
}
