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
import { createWalletPushProvider } from "./providers/wallet/index.ts";
import type { WalletPushProvider } from "./providers/wallet/types.ts";
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
  /**
   * Sends the outbox's wallet updates (pushes to APNs, PATCHes to Google; docs/decisions/055), made
   * from `wallet`'s keys; absent when neither wallet is configured.
   */
  walletPush?: WalletPushProvider;
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
  const wallet = loadWalletKeys(env);
  return {
    ...base,
    sms,
    devOutbox,
    mail,
    devMailbox,
    payments,
    wallet,
    walletPush: createWalletPush(env, wallet, now),
    documentPdf: (documentId) => documentPdf({ db }, documentId),
  };
}

/**
 * The wallet updates' sender for these keys: APNs with the Pass Type ID certificate at APNS_BASE_URL,
 * Google's REST API with the service account at GOOGLE_WALLET_API_BASE. `apnsCa` is for tests only:
 * the throwaway CA of their local APNs stand-in.
 */
export function createWalletPush(
  env: Pick<Env, "APNS_BASE_URL" | "GOOGLE_WALLET_API_BASE">,
  wallet: WalletKeys,
  now: () => number,
  options: { apnsCa?: string } = {},
): WalletPushProvider | undefined {
  const { apple, google } = wallet;
  return createWalletPushProvider({
    ...(apple && {
      apns: {
        baseUrl: env.APNS_BASE_URL,
        passTypeId: apple.passTypeId,
        cert: apple.signerCert,
        key: apple.signerKey,
        ...(apple.signerKeyPassphrase ? { passphrase: apple.signerKeyPassphrase } : {}),
        ...(options.apnsCa ? { ca: options.apnsCa } : {}),
      },
    }),
    ...(google && {
      google: {
        apiBase: env.GOOGLE_WALLET_API_BASE,
        clientEmail: google.clientEmail,
        privateKey: google.privateKey,
        ...(google.privateKeyId ? { privateKeyId: google.privateKeyId } : {}),
        tokenUri: google.tokenUri,
        now,
      },
    }),
  });
}
