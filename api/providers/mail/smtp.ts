import { onFirstUse } from "../../lib/on-first-use.ts";
import { safeMessage } from "./safety.ts";
import { type MailAddress, type MailProvider, MailSendError } from "./types.ts";

export type SmtpConfig = {
  /** `smtps://user:pass@host:465` (TLS from the start) or `smtp://user:pass@host:587` (STARTTLS). */
  url: string;
  from: MailAddress;
};

/** An SMTP error as nodemailer reports it: `responseCode` is the server's reply code, if it gave one. */
type NodemailerError = Error & { code?: string; responseCode?: number };

/**
 * Permanent: the server answered 5xx about this message (550 no such mailbox, 552 too big, 554
 * refused). Not permanent, though 5xx: a refused login (535) or a server demanding one (530): that
 * is this server's configuration, which the organiser fixes, not the guest's address.
 */
export function toMailSendError(error: unknown): MailSendError {
  if (error instanceof MailSendError) return error;
  const e = error as NodemailerError;
  const code = typeof e?.responseCode === "number" ? e.responseCode : undefined;
  const login = e?.code === "EAUTH" || e?.code === "ENOAUTH" || code === 530 || code === 535;
  const permanent = code !== undefined && code >= 500 && code < 600 && !login;
  return new MailSendError(String(e?.message ?? error).slice(0, 500), permanent, code);
}

/** nodemailer's SMTP transport: one connection per message, which the outbox sends one at a time. */
export function createSmtpMail(config: SmtpConfig): MailProvider {
  const transport = onFirstUse(async () => {
    const { default: nodemailer } = await import("nodemailer");
    return nodemailer.createTransport({
      url: config.url,
      // A provider that hangs is a temporary failure, retried later; it never holds the outbox for minutes.
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 60_000,
      // The message is built from the app's own parts only: no file or URL is ever read for it.
      disableFileAccess: true,
      disableUrlAccess: true,
    });
  });
  return {
    name: "smtp",
    async send(message) {
      const safe = safeMessage(message, config.from);
      try {
        const info = await (await transport()).sendMail({
          ...safe,
          // The envelope is exactly the one checked address: nothing in a header can add to it.
          envelope: { from: safe.from.address, to: [safe.to.address] },
        });
        return { id: String(info.messageId ?? "") };
      } catch (error) {
        throw toMailSendError(error);
      }
    },
  };
}
