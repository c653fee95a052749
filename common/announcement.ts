/**
 * An announcement's text (issue 36, docs/decisions/034-invitations.md): the limits the server checks
 * and the Invite tab shows, and the SMS exactly as it is sent, so both count the same characters.
 */

/** What the organiser types where the event's link goes; replaced by the link when sent. */
export const LINK_PLACEHOLDER = "{link}";

/** A marketing text at most, everything included: three SMS segments' worth. */
export const ANNOUNCEMENT_SMS_MAX = 480;

/** The way out every marketing text ends with (the Spam Act's unsubscribe). */
export const SMS_OPT_OUT = "Reply STOP to opt out";

/** The organiser's text at most (for the email; the SMS has its own, smaller limit). */
export const ANNOUNCEMENT_TEXT_MAX = 2000;

/** Characters as a person counts them: an emoji is one, not two UTF-16 units. */
export const smsLength = (text: string) => Array.from(text).length;

/**
 * The organiser's text with the event's link filled in: every `{link}`, or the link on a line of its
 * own at the end when the text has none, so every invitation says where to book.
 */
export function withLink(text: string, link: string): string {
  const trimmed = text.trim();
  if (trimmed.includes(LINK_PLACEHOLDER)) return trimmed.split(LINK_PLACEHOLDER).join(link);
  return trimmed === "" ? link : `${trimmed}\n${link}`;
}

/**
 * The text as the phone shows it: who sends it first (unless the organiser's text names the
 * business already), the text with its link, and `Reply STOP to opt out` on the last line.
 */
export function announcementSmsText(input: { businessName: string; text: string; link: string }): string {
  const body = withLink(input.text, input.link);
  const named = body.toLowerCase().includes(input.businessName.toLowerCase());
  return `${named ? "" : `${input.businessName}: `}${body}\n${SMS_OPT_OUT}`;
}

/** The refusal when the finished text is too long, in the organiser's words. */
export const smsTooLongMessage = (length: number) =>
  `The text message would be ${length} characters; keep it to ${ANNOUNCEMENT_SMS_MAX}.`;
