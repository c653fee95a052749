import type { Db } from "../db/client.ts";
import type { Env } from "./env.ts";
import type { Logger } from "./lib/log.ts";
import type { DevMailbox, MailProvider } from "./providers/mail/types.ts";
import type { PaymentsProvider } from "./providers/payments/types.ts";
import type { DevOutbox, SmsProvider } from "./providers/sms/types.ts";

/** Everything createApp needs; tests build their own with a temporary database. */
export type AppDeps = {
  db: Db;
  env: Env;
  sms: SmsProvider;
  payments: PaymentsProvider;
  /** Present only with the console SMS provider; exposes GET /api/dev/outbox. */
  devOutbox?: DevOutbox;
  /** SMTP when SMTP_URL is set, otherwise the local provider (providers/mail/index.ts). */
  mail: MailProvider;
  /** Present only with the local mail provider; exposes GET /api/dev/mailbox. */
  devMailbox?: DevMailbox;
  /**
   * A receipt's or tax invoice's PDF by document id, for outbox emails whose attachments name a
   * document (issue 35, part 3). Absent, such an email waits in the outbox (a temporary failure).
   */
  documentPdf?: (documentId: number) => Promise<Uint8Array>;
  log: Logger;
  /** Epoch ms; tests move time forward to expire holds and codes. */
  now: () => number;
  /**
   * Waits without blocking the event loop; the admin login's slowdown uses it. Absent, a real timer.
   * Tests pass one that records the wait instead of taking it.
   */
  sleep?: (ms: number) => Promise<void>;
  /** The built PWA; when absent (API tests) only /api is served. */
  staticDir?: string;
  /**
   * Check each reply of a declared route against its declaration (docs/decisions/026). Absent: on
   * outside production. The benchmark turns it off, to measure what production serves.
   */
  checkReplies?: boolean;
};
