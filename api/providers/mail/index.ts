import type { Env } from "../../env.ts";
import type { Logger } from "../../lib/log.ts";
import { createLocalMail } from "./local.ts";
import { createSmtpMail } from "./smtp.ts";
import type { DevMailbox, MailProvider } from "./types.ts";

export type MailSetup = { mail: MailProvider; devMailbox?: DevMailbox };

/** SMTP when SMTP_URL is configured, otherwise the local provider with the dev mailbox. */
export function createMailProvider(env: Env, log: Logger, now: () => number): MailSetup {
  if (env.SMTP_URL) return { mail: createSmtpMail({ url: env.SMTP_URL, from: env.MAIL_FROM }) };
  return createLocalMail({ from: env.MAIL_FROM, log, now });
}
