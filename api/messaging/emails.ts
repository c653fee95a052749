import { type CalendarTicket, calendarFileName, ticketCalendar } from "../../common/calendar.ts";
import { audFromCents, REFUND_ARRIVES } from "../../common/money.ts";
import { formatVenueTime } from "../../common/time-zone.ts";
import type { StoredAttachment } from "../../db/schema.ts";
import type { Env } from "../env.ts";

// What each email says (docs/decisions/033-emails.md): pure builders, one per message, each giving a
// subject, a plain-text part and an HTML part that say the same facts, and the attachments. Every
// email is transactional (a ticket, a refund, a reminder, a cancelled night, the results): no offer,
// no "book again", and each names the business and its contact. The HTML is what mail clients render
// reliably: tables, inline styles, no script, no external image (the QR is inline, by `cid:`).

/** Who sends it, as every email's footer names them. */
export type Sender = { businessName: string; supportEmail: string };

/** The business and its contact, from the environment (`BUSINESS_NAME`, `SUPPORT_EMAIL`). */
export const senderOf = (env: Pick<Env, "BUSINESS_NAME" | "SUPPORT_EMAIL">): Sender => ({
  businessName: env.BUSINESS_NAME,
  supportEmail: env.SUPPORT_EMAIL,
});

/** An attachment as the outbox keeps it: bytes, or a document's PDF or a ticket's QR made when sent. */
export type EmailAttachment = StoredAttachment;

export type EmailContent = { subject: string; text: string; html: string; attachments: EmailAttachment[] };

/** The event as the emails describe it. */
export type EmailEvent = {
  id: number;
  name: string;
  startsAt: number;
  timeZone: string;
  address: string;
  durationHours: number;
};

/** A payment's document: `INV-000123`, a **Tax invoice** or a **Receipt**, or an **Adjustment note**. */
export type EmailDocument = { id: number; number: string; title: "Tax invoice" | "Receipt" | "Adjustment note" };

const QR_CID = "ticket-qr";

/** One line, whatever was typed: a subject never carries a line break (nor, so, a header). */
const oneLine = (value: string) => value.replace(/[\r\n\u2028\u2029]+/g, " ").trim();

export const escapeHtml = (value: string) =>
  value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");

const FONT = "font-family:Arial,Helvetica,sans-serif;color:#1f2328;";

/** A paragraph of the HTML part (escaped), or a fact row `label: value`. */
export type Block =
  | { p: string }
  | { facts: [label: string, value: string][] }
  | { link: { href: string; text: string } }
  | { qr: { alt: string } };

/**
 * What a marketing email's footer adds to the sender (the Spam Act's identification and way out,
 * api/messaging/marketing.ts): the ABN, the postal address and the one-tap **Unsubscribe** page.
 */
export type MarketingFooter = { abn: string; address: string; unsubscribeUrl: string };

function html(blocks: Block[], sender: Sender, heading: string, marketing?: MarketingFooter): string {
  const rows = blocks.map((block) => {
    if ("p" in block)
      return `<tr><td style="${FONT}font-size:16px;line-height:1.5;padding:0 0 12px;">${escapeHtml(block.p)}</td></tr>`;
    if ("link" in block) {
      const href = escapeHtml(block.link.href);
      return `<tr><td style="padding:4px 0 16px;"><a href="${href}" style="${FONT}display:inline-block;background:#8a1c4a;color:#ffffff;text-decoration:none;font-size:16px;font-weight:bold;padding:12px 20px;border-radius:6px;">${escapeHtml(block.link.text)}</a></td></tr>`;
    }
    if ("qr" in block) {
      return `<tr><td style="padding:0 0 12px;"><img src="cid:${QR_CID}" width="240" height="240" alt="${escapeHtml(block.qr.alt)}" style="display:block;border:0;width:240px;height:240px;"></td></tr>`;
    }
    const facts = block.facts
      .map(
        ([label, value]) =>
          `<tr><td style="${FONT}font-size:14px;color:#57606a;padding:4px 12px 4px 0;vertical-align:top;white-space:nowrap;">${escapeHtml(label)}</td><td style="${FONT}font-size:16px;padding:4px 0;">${escapeHtml(value)}</td></tr>`,
      )
      .join("");
    return `<tr><td style="padding:0 0 12px;"><table role="presentation" cellpadding="0" cellspacing="0" border="0">${facts}</table></td></tr>`;
  });
  const contact = `<a href="mailto:${escapeHtml(sender.supportEmail)}" style="color:#57606a;">${escapeHtml(sender.supportEmail)}</a>`;
  const footer = marketing
    ? `${escapeHtml(sender.businessName)} · ABN ${escapeHtml(marketing.abn)} · ${escapeHtml(marketing.address)} · ${contact}<br><br>You get this because you asked to hear about future events. <a href="${escapeHtml(marketing.unsubscribeUrl)}" style="color:#57606a;">Unsubscribe</a>`
    : `${escapeHtml(sender.businessName)} · ${contact}`;
  return [
    "<!doctype html>",
    `<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(heading)}</title></head>`,
    `<body style="margin:0;padding:0;background:#f6f8fa;">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background:#f6f8fa;"><tr><td align="center" style="padding:24px 12px;">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:560px;background:#ffffff;border-radius:8px;"><tr><td style="padding:24px;">`,
    `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0">`,
    `<tr><td style="${FONT}font-size:22px;font-weight:bold;padding:0 0 16px;">${escapeHtml(heading)}</td></tr>`,
    ...rows,
    `<tr><td style="${FONT}font-size:13px;color:#57606a;border-top:1px solid #d0d7de;padding:16px 0 0;">${footer}</td></tr>`,
    "</table></td></tr></table></td></tr></table></body></html>",
  ].join("\n");
}

function text(blocks: Block[], sender: Sender, marketing?: MarketingFooter): string {
  const parts = blocks.map((block) => {
    if ("p" in block) return block.p;
    if ("link" in block) return `${block.link.text}: ${block.link.href}`;
    if ("qr" in block) return null;
    return block.facts.map(([label, value]) => `${label}: ${value}`).join("\n");
  });
  const footer = marketing
    ? [
        `${sender.businessName} · ABN ${marketing.abn} · ${marketing.address} · ${sender.supportEmail}`,
        `You get this because you asked to hear about future events. Unsubscribe: ${marketing.unsubscribeUrl}`,
      ]
    : [`${sender.businessName} · ${sender.supportEmail}`];
  return `${[...parts.filter((p) => p !== null), ...footer].join("\n\n")}\n`;
}

const when = (event: EmailEvent) => formatVenueTime(event.startsAt, event.timeZone);

function calendarAttachment(
  event: EmailEvent,
  ticket: { userID: number },
  origin: string,
  now: number,
): EmailAttachment[] {
  const entry: CalendarTicket = {
    eventID: event.id,
    userID: ticket.userID,
    eventName: event.name,
    eventDateTime: new Date(event.startsAt).toISOString(),
    eventLocation: event.address,
    durationHours: event.durationHours,
  };
  const ics = ticketCalendar(entry, origin, now);
  if (!ics) return [];
  return [
    {
      filename: calendarFileName(entry),
      contentType: "text/calendar; charset=utf-8; method=PUBLISH",
      base64: Buffer.from(ics, "utf8").toString("base64"),
    },
  ];
}

const documentAttachment = (document: EmailDocument | null | undefined): EmailAttachment[] =>
  document ? [{ filename: `${document.number}.pdf`, contentType: "application/pdf", document: document.id }] : [];

/**
 * The booking email, queued with the confirmation text: the QR inline with the unique code, the date
 * and time on the venue's clock, the address and the ticket link; the event's `.ics` and the
 * payment's receipt or tax invoice attached.
 */
/** What the booking email and the reminder say of the ticket. */
type TicketEmail = {
  sender: Sender;
  origin: string;
  event: EmailEvent;
  name: string;
  userID: number;
  uniqueCode: string;
  ticketUrl: string;
  now: number;
};

/** One email from its blocks: the subject on one line, the text and HTML parts saying the same. */
export function compose(
  subject: string,
  blocks: Block[],
  sender: Sender,
  attachments: EmailAttachment[] = [],
  heading = subject,
  marketing?: MarketingFooter,
) {
  return {
    subject: oneLine(subject),
    text: text(blocks, sender, marketing),
    html: html(blocks, sender, heading, marketing),
    attachments,
  };
}

export function bookingEmail(
  input: TicketEmail & {
    /** What the QR encodes: the door page's link (ticket.ts's `doorQrLink`). */
    qrText: string;
    document?: EmailDocument | null;
  },
): EmailContent {
  const { event, sender } = input;
  const blocks: Block[] = [
    { p: `Hi ${input.name},` },
    { p: `You're booked for ${event.name}. Show this QR code, or say your ticket code, at the door.` },
    { qr: { alt: `QR code for ${input.name}'s ticket` } },
    {
      facts: [
        ["Ticket code", input.uniqueCode],
        ["When", when(event)],
        ["Where", event.address],
      ],
    },
    { link: { href: input.ticketUrl, text: "Open your ticket" } },
    {
      p: input.document
        ? `Your ${input.document.title.toLowerCase()} ${input.document.number} is attached, with the night as a calendar file.`
        : "The night is attached as a calendar file.",
    },
  ];
  return compose(`Your ticket for ${event.name}`, blocks, sender, [
    { filename: "ticket-qr.png", contentType: "image/png", qr: input.qrText, cid: QR_CID },
    ...calendarAttachment(event, input, input.origin, input.now),
    ...documentAttachment(input.document),
  ]);
}

/**
 * A refund, whole or partial (the organiser's, a guest's cancel, a payment that found no seat), with
 * its adjustment note; or a guest's cancel with nothing due (`amountCents` 0, no note).
 */
export function refundEmail(input: {
  sender: Sender;
  event: EmailEvent;
  name: string;
  amountCents: number;
  reason: "organiser" | "guest_cancel" | "no_seat";
  document?: EmailDocument | null;
}): EmailContent {
  const { event, sender } = input;
  const money = audFromCents(input.amountCents);
  const opening =
    input.reason === "no_seat"
      ? `The last seat for ${event.name} went while you were paying, so your payment is being refunded.`
      : input.reason === "guest_cancel"
        ? `Your booking for ${event.name} on ${when(event)} is cancelled, as you asked.`
        : `Your booking for ${event.name} on ${when(event)} has been refunded.`;
  const blocks: Block[] = [
    { p: `Hi ${input.name},` },
    { p: opening },
    input.amountCents > 0
      ? { p: `${money} is being refunded to your card; ${REFUND_ARRIVES}.` }
      : { p: "Under the event's cancellation policy no refund is due now." },
    ...(input.document
      ? [{ p: `The ${input.document.title.toLowerCase()} ${input.document.number} is attached.` }]
      : []),
    { p: "Your ticket is no longer valid." },
  ];
  const subject =
    input.amountCents > 0 ? `Your refund for ${event.name}` : `Your booking for ${event.name} is cancelled`;
  return compose(subject, blocks, sender, documentAttachment(input.document));
}

/** The organiser cancelled the night: everyone's payment comes back in full. */
export function eventCancelledEmail(input: {
  sender: Sender;
  event: EmailEvent;
  name: string;
  amountCents: number;
}): EmailContent {
  const { event, sender } = input;
  const blocks: Block[] = [
    { p: `Hi ${input.name},` },
    { p: `We're sorry: ${event.name} on ${when(event)} is cancelled.` },
    { p: `Your ${audFromCents(input.amountCents)} is being refunded to your card; ${REFUND_ARRIVES}.` },
    { p: "Your ticket is no longer valid." },
  ];
  const subject = `${event.name} is cancelled`;
  return {
    subject: oneLine(subject),
    text: text(blocks, sender),
    html: html(blocks, sender, subject),
    attachments: [],
  };
}

/** The reminder before the night, with the `.ics` again. */
export function reminderEmail(input: TicketEmail): EmailContent {
  const { event, sender } = input;
  const blocks: Block[] = [
    { p: `Hi ${input.name},` },
    { p: `A reminder: ${event.name} is on ${when(event)}.` },
    {
      facts: [
        ["Where", event.address],
        ["Ticket code", input.uniqueCode],
      ],
    },
    { link: { href: input.ticketUrl, text: "Open your ticket" } },
  ];
  return compose(
    `Reminder: ${event.name}, ${when(event)}`,
    blocks,
    sender,
    calendarAttachment(event, input, input.origin, input.now),
    `See you at ${event.name}`,
  );
}

/** The results are out: the same link the text carries, and how many mutual matches it shows. */
export function resultsEmail(input: {
  sender: Sender;
  event: EmailEvent;
  name: string;
  reportUrl: string;
  matches: number;
  /** Friend matches (Date or Friend both ways), at a night that offers Friend. */
  friends?: number;
}): EmailContent {
  const { event, sender } = input;
  const friends = input.friends ?? 0;
  const mutual = input.matches === 1 ? "1 mutual match" : `${input.matches} mutual matches`;
  const friendly = friends === 1 ? "1 friend match" : `${friends} friend matches`;
  const news =
    input.matches === 0 && friends === 0
      ? `The results from ${event.name} are in. No mutual match this time; your report shows your night.`
      : friends > 0
        ? `The results from ${event.name} are in: ${input.matches > 0 ? `${mutual} and ${friendly}` : friendly}. See who matched with you:`
        : `The results from ${event.name} are in: ${mutual}. See who matched with you:`;
  const blocks: Block[] = [
    { p: `Hi ${input.name},` },
    { p: news },
    { link: { href: input.reportUrl, text: "See my results" } },
  ];
  return compose(`Your results from ${event.name}`, blocks, sender);
}

/**
 * The one email a ticked **Email me about future events** sends (docs/decisions/039): the address's
 * own confirmation, asked of the address itself. Transactional (it offers nothing), no name in it
 * (whoever ticked the box may not be the address's owner), and saying what to do if it was not them.
 */
export function emailConsentConfirmation(input: { sender: Sender; confirmUrl: string }): EmailContent {
  const blocks: Block[] = [
    { p: `Someone asked for emails about future events from ${input.sender.businessName} to be sent to this address.` },
    { p: "If that was you, confirm below. Until you do, we send this address no news of future events." },
    { link: { href: input.confirmUrl, text: "Yes, email me about future events" } },
    { p: "If it was not you, ignore this email: nothing more will come of it." },
  ];
  return compose("Confirm you'd like emails about future events", blocks, input.sender);
}
