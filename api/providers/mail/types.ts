import { z } from "../../lib/openapi.ts";

/** A mailbox: a bare address, or one with a display name (the name is never trusted: see safety.ts). */
export type MailAddress = string | { name?: string; address: string };

export type MailAttachment = {
  filename: string;
  contentType: string;
  content: Buffer;
  /** Set for an inline part the HTML shows as `<img src="cid:…">` (the QR ticket). */
  cid?: string;
};

/** One email, as the app hands it to a provider. */
export type MailMessage = {
  to: MailAddress;
  /** Left out: the provider's sender (MAIL_FROM). */
  from?: MailAddress;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
  /** Extra headers (List-Unsubscribe and the like); names must be header tokens, values one line. */
  headers?: Record<string, string>;
};

/**
 * A send that failed. `permanent` is the server's final word about this message (an SMTP 5xx such as
 * 550 on RCPT TO: no such mailbox), so the outbox stops retrying; anything else (4xx, a refused or
 * dropped connection, a timeout, a login the server refused) is temporary and retried with backoff.
 */
export class MailSendError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
    readonly responseCode?: number,
  ) {
    super(message);
    this.name = "MailSendError";
  }
}

/** What the app needs from an email service. Chosen once at start-up (see providers/mail/index.ts). */
export interface MailProvider {
  readonly name: "smtp" | "local";
  /** Sends one email; resolves with the provider's message id, or rejects with a MailSendError. */
  send(message: MailMessage): Promise<{ id: string }>;
}

/** What GET /api/dev/mailbox answers for one email: `html` null for a text-only email, `attachments` their file names. */
export const mailboxEntry = z.strictObject({
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string().nullable(),
  attachments: z.array(z.string()),
  createdAt: z.iso.datetime(),
});
export type MailboxEntry = z.output<typeof mailboxEntry>;

/** The local provider also keeps what it "sent": for GET /api/dev/mailbox, and whole for in-process tests. */
export interface DevMailbox {
  /** Newest last, as GET /api/dev/mailbox answers. */
  list(): MailboxEntry[];
  /** Newest last, every part as it was handed over (attachments with their bytes); tests only. */
  messages(): (MailMessage & { id: string; createdAt: string })[];
}
