import { announcementSmsText, withLink } from "../../../common/announcement.ts";
import { formatVenueTime } from "../../../common/time-zone.ts";
import type { Env } from "../../env.ts";
import { type Block, compose, type MarketingFooter, senderOf } from "./email-frame.ts";

// What an announcement says, its invitation to a night (issue 36, docs/decisions/034-invitations.md):
// pure builders, as every message's. The organiser writes the words; this frames them. Marketing,
// unlike every other message, must identify the sender and carry a way out: a text ends with
// `Reply STOP to opt out`; an email names the business, its ABN, address and contact, links
// **Unsubscribe** (one tap, no sign-in) and carries the List-Unsubscribe headers. The text's own
// words are common/announcement.ts's, which the Invite tab's preview shares.

export type MarketingEnv = Pick<
  Env,
  "BUSINESS_NAME" | "BUSINESS_ABN" | "BUSINESS_ADDRESS" | "SUPPORT_EMAIL" | "PUBLIC_BASE_URL" | "SESSION_SECRET"
>;

/** The event as an invitation names it. */
export type AnnouncedEvent = { name: string; startsAt: number; timeZone: string };

/** The SMS as it arrives: sender, the organiser's text with the event's link, `Reply STOP to opt out`. */
export const announcementSms = (env: Pick<Env, "BUSINESS_NAME">, text: string, link: string) =>
  announcementSmsText({ businessName: env.BUSINESS_NAME, text, link });

/**
 * The one-click unsubscribe a mail client offers beside the sender (RFC 8058), made in consent.ts
 * with the unsubscribe link it signs; the page link in the body is consent.ts's too.
 */
export { listUnsubscribeHeaders } from "../consent.ts";

export type AnnouncementEmail = {
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
};

/**
 * The email as it arrives: subject the event's name and date, the organiser's text (paragraphs
 * split at blank lines) with the link, a button to the event, and the footer with the business's
 * name, ABN, address and contact and **Unsubscribe** (`unsubscribeUrl`, the page for this contact).
 */
export function announcementEmail(
  env: MarketingEnv,
  input: { event: AnnouncedEvent; text: string; link: string; unsubscribeUrl: string; headers: Record<string, string> },
): AnnouncementEmail {
  const when = formatVenueTime(input.event.startsAt, input.event.timeZone);
  const paragraphs = withLink(input.text, input.link)
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter((p) => p !== "");
  const blocks: Block[] = [
    ...paragraphs.map((p) => ({ p })),
    { link: { href: input.link, text: `Book ${input.event.name}` } },
  ];
  const footer: MarketingFooter = {
    abn: env.BUSINESS_ABN,
    address: env.BUSINESS_ADDRESS,
    unsubscribeUrl: input.unsubscribeUrl,
  };
  const email = compose(`${input.event.name}, ${when}`, blocks, senderOf(env), [], input.event.name, footer);
  return { subject: email.subject, text: email.text, html: email.html, headers: input.headers };
}
