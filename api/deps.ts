import type { Db } from "../db/client.ts";
import { documentPdf } from "./booking/documents-pdf.ts";
import type { PhotoTurn } from "./booking/save-details.ts";
import type { Env } from "./env.ts";
import type { Logger } from "./lib/log.ts";
import { createMailProvider } from "./providers/mail/index.ts";
import type { DevMailbox, MailProvider } from "./providers/mail/types.ts";
import { createPaymentsProvider } from "./providers/payments/index.ts";
import type { PaymentsProvider } from "./providers/payments/types.ts";
import { createSmsProvider } from "./providers/sms/index.ts";
import type { DevOutbox, SmsProvider } from "./providers/sms/types.ts";
import { loadWalletKeys, type WalletKeys } from "./wallet/keys.ts";

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
  /** The organiser's Apple and Google Wallet keys, read at start (api/wallet/keys.ts); null where not configured. */
  wallet: WalletKeys;
  log: Logger;
  /** Epoch ms; tests move time forward to expire holds and codes. */
  now: () => number;
  /**
   * Waits without blocking the event loop; the admin login's slowdown uses it. Absent, a real timer.
   * Tests pass one that records the wait instead of taking it.
   */
  sleep?: (ms: number) => Promise<void>;
  /**
   * How a details form's photo takes its turn to be decoded and stored, which happens after a first
   * save is answered (api/booking/photo-jobs.ts). Absent: as many at a time as the machine has cores,
   * less the one that answers requests. Tests pass one that holds the photos back.
   */
  photoTurn?: PhotoTurn;
  /** The built PWA; when absent (API tests) only /api is served. */
  staticDir?: string;
  /**
   * Check each reply of a declared route against its declaration (docs/decisions/026). Absent: on
   * outside production. The benchmark turns it off, to measure what production serves.
   */
  checkReplies?: boolean;
};

/**
 * The deps the app runs with, as its environment chooses them: the SMS, mail and payment providers
 * (real or local), and the PDF maker for emails that attach a document (docs/decisions/032). One
 * place, so the server, the test harness and the benchmark's servers run the same wiring.
 */
export function createAppDeps(base: Pick<AppDeps, "db" | "env" | "log" | "now">): AppDeps {
  const { db, env, log, now } = base;
  const { sms, devOutbox } = createSmsProvider(env, db, log, now);
  const { mail, devMailbox } = createMailProvider(env, log, now);
  const payments = createPaymentsProvider(env, db, now);
  return {
    ...base,
    sms,
    devOutbox,
    mail,
    devMailbox,
    payments,
    wallet: loadWalletKeys(env),
    documentPdf: (documentId) => documentPdf({ db }, documentId),
  };
}
