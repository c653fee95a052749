import { type CalendarTicket, calendarFileName, ticketCalendar } from "../../../common/calendar.ts";
import { formatVenueTime } from "../../../common/time-zone.ts";
import type { StoredAttachment } from "../../../db/schema.ts";
import type { Env } from "../../env.ts";

// The frame every email shares (docs/decisions/033-emails.md); each message's words are in its own
// module beside this one (docs/guide/messages.md). An email is built from blocks into a subject, a
// plain-text part and an HTML part that say the same facts, and the attachments. Every email but an
// announcement is transactional (a ticket, a refund, a reminder, a cancelled night, the results): no
// offer, no "book again", and each names the business and its contact. The HTML is what mail clients
// render reliably: tables, inline styles, no script, no external image (the QR and the wallet badges
// are inline, by `cid:`).

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

/** The inline QR's content id: the ticket email's `{ qr }` block shows the attachment of this id. */
export const QR_CID = "ticket-qr";

/** One line, whatever was typed: a subject never carries a line break (nor, so, a header). */
export const oneLine = (value: string) => value.replace(/[\r\n\u2028\u2029]+/g, " ").trim();

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
  | { qr: { alt: string } }
  /**
   * Links drawn as the wallets' own badges, side by side: each an inline image (`cid:`, attached by the
   * message) whose alternative text is the label, so a client that hides images still shows the words.
   */
  | { badges: EmailBadge[] };

/** A wallet badge in an email: where it goes, its words, and its inline image's content id and size. */
export type EmailBadge = { href: string; text: string; cid: string; width: number; height: number };

/**
 * What a marketing email's footer adds to the sender (the Spam Act's identification and way out,
 * api/messaging/templates/announcement.ts): the ABN, the postal address and the one-tap
 * **Unsubscribe** page.
 */
export type MarketingFooter = { abn: string; address: string; unsubscribeUrl: string };

export function html(blocks: Block[], sender: Sender, heading: string, marketing?: MarketingFooter): string {
  const rows = blocks.map((block) => {
    if ("p" in block)
      return `<tr><td style="${FONT}font-size:16px;line-height:1.5;padding:0 0 12px;">${escapeHtml(block.p)}</td></tr>`;
    if ("link" in block) {
      const href = escapeHtml(block.link.href);
      return `<tr><td style="padding:4px 0 16px;"><a href="${href}" style="${FONT}display:inline-block;background:#8a1c4a;color:#ffffff;text-decoration:none;font-size:16px;font-weight:bold;padding:12px 20px;border-radius:6px;">${escapeHtml(block.link.text)}</a></td></tr>`;
    }
    if ("badges" in block) {
      const badges = block.badges
        .map(
          (badge) =>
            `<a href="${escapeHtml(badge.href)}" style="${FONT}display:inline-block;text-decoration:none;margin:0 8px 8px 0;"><img src="cid:${escapeHtml(badge.cid)}" width="${badge.width}" height="${badge.height}" alt="${escapeHtml(badge.text)}" style="display:block;border:0;width:${badge.width}px;height:${badge.height}px;"></a>`,
        )
        .join("");
      return `<tr><td style="padding:0 0 8px;">${badges}</td></tr>`;
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

export function text(blocks: Block[], sender: Sender, marketing?: MarketingFooter): string {
  const parts = blocks.map((block) => {
    if ("p" in block) return block.p;
    if ("link" in block) return `${block.link.text}: ${block.link.href}`;
    if ("qr" in block) return null;
    if ("badges" in block) return block.badges.map((badge) => `${badge.text}: ${badge.href}`).join("\n");
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

/** When the night starts, on the venue's clock. */
export const when = (event: EmailEvent) => formatVenueTime(event.startsAt, event.timeZone);

/** The night as a `.ics` attachment, or nothing when the calendar file cannot be made. */
export function calendarAttachment(
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

/** A payment's document as a PDF attachment, rendered when the email is sent. */
export const documentAttachment = (document: EmailDocument | null | undefined): EmailAttachment[] =>
  document ? [{ filename: `${document.number}.pdf`, contentType: "application/pdf", document: document.id }] : [];

/** What the booking email and the reminder say of the ticket. */
export type TicketEmail = {
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
