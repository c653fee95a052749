import type { MailAddress, MailMessage } from "./types.ts";
import { MailSendError } from "./types.ts";

// Header injection (issue 35): a subject, a display name, a file name or a header value that holds a
// line break could end its header and start another (`Bcc: …`). Each is made one line here, before
// nodemailer sees it, and an address must be exactly one bare address: never a list, never a
// second recipient smuggled in. nodemailer encodes what is left (RFC 2047), so nothing is lost but
// the line breaks.

// Control characters (C0, DEL, C1) and the Unicode line and paragraph separators.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** One line: every run of control characters (CR, LF, tab, NUL…) becomes a single space. */
export const oneLine = (value: string) => value.replace(CONTROL, " ").trim();

// One address, no display name, no list: the local part and domain hold no space, comma, semicolon,
// angle bracket, quote or parenthesis (so no parser can read two addresses or a comment into it).
const BARE_ADDRESS = /^[^\s@<>,;:"()[\]\\]+@[^\s@<>,;:"()[\]\\]+$/;

export const isBareAddress = (address: string) => address.length <= 254 && BARE_ADDRESS.test(address);

/** A mailbox nodemailer cannot read as anything else: `{name, address}` with a one-line name. */
export function safeMailbox(mailbox: MailAddress): { name: string; address: string } {
  const { name, address } = typeof mailbox === "string" ? { name: "", address: mailbox } : mailbox;
  const trimmed = address.trim();
  if (!isBareAddress(trimmed)) {
    // The server's verdict would be the same for ever: a permanent failure, not a retry.
    throw new MailSendError("not a single deliverable address", true);
  }
  return { name: oneLine(name ?? "").slice(0, 200), address: trimmed };
}

const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+\-.^_`|~]{1,76}$/;
// Headers nodemailer writes itself from the message's fields: a custom one may not replace them.
const RESERVED = new Set([
  "to",
  "cc",
  "bcc",
  "from",
  "sender",
  "reply-to",
  "subject",
  "date",
  "message-id",
  "content-type",
  "content-transfer-encoding",
  "mime-version",
  "return-path",
]);

/** The message with every header-bound field made one line and every address checked. */
export function safeMessage(message: MailMessage, defaultFrom: MailAddress) {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers ?? {})) {
    if (!HEADER_NAME.test(name) || RESERVED.has(name.toLowerCase())) {
      throw new MailSendError(`header ${JSON.stringify(name.slice(0, 40))} may not be set`, true);
    }
    headers[name] = oneLine(value);
  }
  return {
    to: safeMailbox(message.to),
    from: safeMailbox(message.from ?? defaultFrom),
    subject: oneLine(message.subject),
    text: message.text,
    html: message.html,
    headers,
    attachments: (message.attachments ?? []).map((a) => ({
      filename: oneLine(a.filename),
      contentType: oneLine(a.contentType),
      content: a.content,
      ...(a.cid ? { cid: oneLine(a.cid) } : {}),
    })),
  };
}

/** Error text with every address-like word replaced: logs and Activity never carry an address. */
export const withoutAddresses = (text: string) => text.replace(/[^\s<>"'(),;:[\]]+@[^\s<>"'(),;:[\]]+/g, "[address]");
