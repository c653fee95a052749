import { createHash, randomUUID } from "node:crypto";
import type { Logger } from "../../lib/log.ts";
import { safeMessage } from "./safety.ts";
import { type DevMailbox, type MailAddress, type MailMessage, type MailProvider, MailSendError } from "./types.ts";

/** A short tag for a recipient: the same address gives the same tag, and the tag gives no address. */
export const recipientTag = (address: string) =>
  `rcpt_${createHash("sha256").update(address.trim().toLowerCase()).digest("hex").slice(0, 10)}`;

/**
 * The mail provider for development and tests (no SMTP_URL): nothing leaves the machine. Each email
 * is one log line (its subject and a recipient tag, never the body: it can hold a ticket link) and an
 * entry in an in-memory mailbox that GET /api/dev/mailbox shows. An address under the reserved
 * `.invalid` domain (RFC 2606: it can never exist) is refused as a real server would refuse a dead
 * mailbox, permanently, so the undeliverable path can be walked without SMTP.
 */
export function createLocalMail(deps: { from: MailAddress; log: Logger; now: () => number }): {
  mail: MailProvider;
  devMailbox: DevMailbox;
} {
  const sent: (MailMessage & { id: string; createdAt: string })[] = [];
  const mail: MailProvider = {
    name: "local",
    async send(message) {
      const safe = safeMessage(message, deps.from);
      if (safe.to.address.toLowerCase().endsWith(".invalid")) {
        throw new MailSendError("550 5.1.1 mailbox unavailable (a .invalid address)", true, 550);
      }
      const id = `local_${randomUUID()}`;
      const createdAt = new Date(deps.now()).toISOString();
      sent.push({ ...safe, id, createdAt });
      deps.log("info", `email to ${recipientTag(safe.to.address)}: ${safe.subject}`, { provider: "local" });
      return { id };
    },
  };
  const address = (to: MailAddress) => (typeof to === "string" ? to : to.address);
  const devMailbox: DevMailbox = {
    list: () =>
      sent.map((m) => ({
        to: address(m.to),
        subject: m.subject,
        text: m.text,
        html: m.html ?? null,
        attachments: (m.attachments ?? []).map((a) => a.filename),
        createdAt: m.createdAt,
      })),
    messages: () => sent.map((m) => ({ ...m, attachments: m.attachments?.map((a) => ({ ...a })) })),
  };
  return { mail, devMailbox };
}
