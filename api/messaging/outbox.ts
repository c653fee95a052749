import { and, asc, count, eq, gt, lt, lte, or, sql } from "drizzle-orm";
import { activityLog } from "../../db/access-schema.ts";
import type { Db, DbOrTx } from "../../db/client.ts";
import { preparedPerDb } from "../../db/prepared.ts";
import { bookings, type OutboxMessage, outboxMessages, type StoredAttachment } from "../../db/schema.ts";
import { walletRegistrations } from "../../db/wallet-schema.ts";
import type { Env } from "../env.ts";
import type { Logger } from "../lib/log.ts";
import { qrPng } from "../lib/qr.ts";
import { withoutAddresses } from "../providers/mail/safety.ts";
import { type MailAttachment, type MailProvider, MailSendError } from "../providers/mail/types.ts";
import type { SmsProvider } from "../providers/sms/types.ts";
import {
  GOOGLE_WALLET_RESOURCES,
  type WalletPush,
  WalletPushError,
  type WalletPushProvider,
} from "../providers/wallet/types.ts";
import { hasConsent } from "./consent.ts";
import { walletBadgePng } from "./wallet-badges.ts";

// 30 s, 1, 2, 4 … minutes, then hourly: 20 tries cover about half a day of provider outage.
const MAX_ATTEMPTS = 20;
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 60 * 60_000;

// A send in flight is skipped by other delivery runs (the scheduler beside a request that sends at
// once, or a second server); if the process dies mid-send, the message is tried again after this.
const SEND_LEASE_MS = 60_000;

// A marketing message claimed by a run that never finished (a crash mid-send) may have gone: it is
// not sent again, so nobody gets an announcement twice (issue 36). A transactional message is (a
// ticket matters more than a rare second copy).
const IN_FLIGHT = "in flight";

export const retryDelay = (attempts: number) => Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));

/**
 * Queues a text message. Call it inside the transaction that makes the message true (a payment
 * confirmed, an event started), so the message exists exactly when the change does. The same
 * `dedupeKey` twice queues one message: replays and double clicks send nothing more.
 */
export function enqueueSms(db: DbOrTx, message: { dedupeKey: string; to: string; body: string }): void {
  db.insert(outboxMessages).values(message).onConflictDoNothing({ target: outboxMessages.dedupeKey }).run();
}

/**
 * Marketing (an announcement, issue 36): sent only if the address still consents when its turn comes,
 * and at most INVITE_RATE_PER_MINUTE a minute. The text or email must already carry its sender and
 * its way out (api/messaging/templates/announcement.ts builds them).
 */
export type Marketing = { announcementId: number };

/** Queues a marketing text, once per `dedupeKey`. */
export function enqueueMarketingSms(
  db: DbOrTx,
  message: { dedupeKey: string; to: string; body: string },
  marketing: Marketing,
): void {
  db.insert(outboxMessages)
    .values({ ...message, purpose: "marketing", announcementId: marketing.announcementId })
    .onConflictDoNothing({ target: outboxMessages.dedupeKey })
    .run();
}

/** An email to queue. `attachments` as the outbox keeps them (bytes as base64, or a document id). */
export type EmailToQueue = {
  dedupeKey: string;
  /** One bare address (the buyer's email). */
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments?: StoredAttachment[];
  /** The booking the email is about: an address that refuses it for good is noted there. */
  bookingId?: number | null;
  /** Extra headers (a marketing email's List-Unsubscribe pair); made one line when sent. */
  headers?: Record<string, string>;
};

/**
 * Queues an email, as `enqueueSms` queues a text: inside the transaction that makes it true, once per
 * `dedupeKey`. With `EMAIL=off` (the organiser chose no email) it queues nothing and answers false;
 * `email` is the app's Env (or just its EMAIL), required so no caller can forget the organiser's choice.
 */
export function enqueueEmail(
  db: DbOrTx,
  message: EmailToQueue,
  email: Pick<Env, "EMAIL">,
  marketing?: Marketing,
): boolean {
  if (email.EMAIL === "off") return false;
  const { text, attachments, bookingId, headers, ...rest } = message;
  db.insert(outboxMessages)
    .values({
      ...rest,
      channel: "email",
      body: text,
      attachments: attachments ?? [],
      bookingId: bookingId ?? null,
      headers: headers ?? null,
      ...(marketing ? { purpose: "marketing" as const, announcementId: marketing.announcementId } : {}),
    })
    .onConflictDoNothing({ target: outboxMessages.dedupeKey })
    .run();
  return true;
}

/**
 * Queues a wallet update (docs/decisions/055-wallet-updates.md) inside the transaction that changed
 * the pass, once per `dedupeKey`: `to` is the device's push token or Google's resource id, `subject`
 * which of Google's resources, `body` what is sent (`{}` to APNs, the PATCH's JSON to Google).
 */
export function enqueueWalletUpdate(db: DbOrTx, dedupeKey: string, push: WalletPush): void {
  const row =
    push.channel === "apns"
      ? { channel: push.channel, to: push.pushToken, body: "{}" }
      : { channel: push.channel, to: push.id, subject: push.resource, body: JSON.stringify(push.patch) };
  db.insert(outboxMessages)
    .values({ dedupeKey, ...row })
    .onConflictDoNothing({ target: outboxMessages.dedupeKey })
    .run();
}

/** The queued row as the provider takes it. */
function walletPushOf(message: OutboxMessage): WalletPush {
  if (message.channel === "apns") return { channel: "apns", pushToken: message.to };
  const resource = GOOGLE_WALLET_RESOURCES.find((r) => r === message.subject);
  if (!resource) throw new WalletPushError(`no Google Wallet resource named ${message.subject}`, true);
  return { channel: "google_wallet", resource, id: message.to, patch: JSON.parse(message.body) };
}

const isWallet = (channel: OutboxMessage["channel"]): channel is WalletPush["channel"] =>
  channel === "apns" || channel === "google_wallet";

/** What the outbox sends with: texts by `sms`, emails by `mail`, wallet updates by `walletPush`. */
export type OutboxDeps = {
  db: Db;
  sms: SmsProvider;
  /**
   * Absent, emails are left queued for a run that has it (the scheduler's always does; a caller whose
   * deps are the app's passes it along). Texts never wait for it.
   */
  mail?: MailProvider;
  /** A document's PDF (receipt, tax invoice) by id, for attachments that name one (issue 35, part 3). */
  documentPdf?: (documentId: number) => Promise<Uint8Array>;
  /** Absent (no wallet configured, or a caller without it), wallet updates wait for a run that has it. */
  walletPush?: WalletPushProvider;
  log: Logger;
  now: () => number;
  /** Marketing messages sent in any minute at most (INVITE_RATE_PER_MINUTE); 60 when absent. */
  marketingPerMinute?: number;
};

export const DEFAULT_MARKETING_PER_MINUTE = 60;
const MINUTE = 60_000;

/**
 * How many more marketing messages may go now: the rate less those sent in the last minute and those
 * in flight (claimed by a run that has not finished), so two runs side by side share one budget.
 */
function marketingBudget(deps: OutboxDeps): number {
  const now = deps.now();
  const used = deps.db
    .select({ n: count() })
    .from(outboxMessages)
    .where(
      and(
        eq(outboxMessages.purpose, "marketing"),
        or(
          gt(outboxMessages.sentAt, now - MINUTE),
          // Claimed and not finished; a failed try waiting for its retry does not hold a place.
          and(
            eq(outboxMessages.status, "pending"),
            eq(outboxMessages.lastError, IN_FLIGHT),
            gt(outboxMessages.nextAttemptAt, now),
          ),
        ),
      ),
    )
    .get()!.n;
  return Math.max(0, (deps.marketingPerMinute ?? DEFAULT_MARKETING_PER_MINUTE) - used);
}

/**
 * Sends the pending messages whose keys start with `dedupePrefix` (one event's news) and counts the
 * texts among them: those not sent stay queued for the retry loop.
 */
export async function deliverBatch(
  deps: Parameters<typeof deliverPending>[0],
  dedupePrefix: string,
): Promise<{ sent: number; failed: number }> {
  // The counts are of texts, as the replies that carry them say; the batch's emails go too.
  const texts = (await deliverPending(deps, { dedupePrefix })).filter((m) => m.channel === "sms");
  const sent = texts.filter((m) => m.status === "sent").length;
  return { sent, failed: texts.length - sent };
}

/**
 * Messages due a try at `now`, oldest first: asked after every action that queues one and at every
 * tick, so built once (db/prepared.ts).
 */
const pendingQuery = preparedPerDb((db) =>
  db
    .select()
    .from(outboxMessages)
    .where(
      and(
        eq(outboxMessages.status, "pending"),
        lt(outboxMessages.attempts, MAX_ATTEMPTS),
        lte(outboxMessages.nextAttemptAt, sql.placeholder("now")),
      ),
    )
    .orderBy(asc(outboxMessages.id))
    .prepare(),
);

/**
 * Sends what is pending, one message at a time, and records each result on its own row: one
 * failing number never stops the rest, and a failure is retried on the next delivery run.
 * Returns the messages it handled, with their final state.
 */
export async function deliverPending(
  deps: OutboxDeps,
  filter: { dedupePrefix?: string; channels?: readonly OutboxMessage["channel"][] } = {},
): Promise<OutboxMessage[]> {
  const { db, log } = deps;
  const pending = pendingQuery(db)
    .all({ now: deps.now() })
    .filter((m) => !filter.dedupePrefix || m.dedupeKey.startsWith(filter.dedupePrefix))
    .filter((m) => !filter.channels || filter.channels.includes(m.channel))
    .filter((m) => m.channel === "sms" || (isWallet(m.channel) ? deps.walletPush : deps.mail) !== undefined);
  const handled: OutboxMessage[] = [];
  let marketingLeft = pending.some((m) => m.purpose === "marketing") ? marketingBudget(deps) : 0;
  for (const message of pending) {
    if (message.purpose === "marketing") {
      // Over the minute's budget, it waits for a later run (the scheduler ticks every few seconds).
      if (marketingLeft <= 0) continue;
      // Suppression is checked now, not when queued: someone who opted out mid-send gets nothing more.
      // Marketing is texts and emails only: a wallet update is never one.
      if (!isWallet(message.channel) && !hasConsent(db, message.channel, message.to)) {
        const suppressed = db
          .update(outboxMessages)
          .set({ status: "suppressed", lastError: "no marketing consent when sent" })
          .where(and(eq(outboxMessages.id, message.id), eq(outboxMessages.status, "pending")))
          .run();
        if (suppressed.changes === 1) handled.push({ ...message, status: "suppressed" });
        continue;
      }
      if (message.attempts > 0 && message.lastError === IN_FLIGHT) {
        db.update(outboxMessages)
          .set({ status: "failed", lastError: "interrupted mid-send: not sent again, so nobody gets it twice" })
          .where(and(eq(outboxMessages.id, message.id), eq(outboxMessages.attempts, message.attempts)))
          .run();
        continue;
      }
      marketingLeft--;
    }
    // Claim the row first so two delivery runs never send the same message twice: the lease keeps
    // it out of every other run's selection while this one awaits the provider.
    const claimed = db
      .update(outboxMessages)
      .set({
        attempts: message.attempts + 1,
        nextAttemptAt: deps.now() + SEND_LEASE_MS,
        ...(message.purpose === "marketing" ? { lastError: IN_FLIGHT } : {}),
      })
      .where(
        and(
          eq(outboxMessages.id, message.id),
          eq(outboxMessages.attempts, message.attempts),
          eq(outboxMessages.status, "pending"),
        ),
      )
      .run();
    if (claimed.changes !== 1) continue;
    try {
      const { id } = await send(deps, message);
      db.update(outboxMessages)
        .set({ status: "sent", sentAt: deps.now(), providerId: id, lastError: null })
        .where(eq(outboxMessages.id, message.id))
        .run();
    } catch (error) {
      // An email the server refused for good (an SMTP 5xx) is not tried again: the address is dead.
      const permanent = (error instanceof MailSendError || error instanceof WalletPushError) && error.permanent;
      const failedForGood = permanent || message.attempts + 1 >= MAX_ATTEMPTS;
      // A server's reason can quote the address: the row, the booking and the log keep it blanked.
      const reason = withoutAddresses(String(error));
      db.transaction((tx) => {
        tx.update(outboxMessages)
          .set({
            status: failedForGood ? "failed" : "pending",
            lastError: reason.slice(0, 500),
            nextAttemptAt: deps.now() + retryDelay(message.attempts + 1),
          })
          .where(eq(outboxMessages.id, message.id))
          .run();
        if (permanent && message.channel === "email") noteUndeliverable(tx, message, reason, deps.now());
        // APNs says the token is dead (the pass was removed): the device is forgotten, as unregistering does.
        if (permanent && message.channel === "apns")
          tx.delete(walletRegistrations).where(eq(walletRegistrations.pushToken, message.to)).run();
      });
      log("warn", `${message.channel} not sent`, {
        outboxId: message.id,
        attempt: message.attempts + 1,
        ...(message.channel === "email" ? { permanent } : {}),
        error: reason.slice(0, 200),
      });
    }
    handled.push(db.select().from(outboxMessages).where(eq(outboxMessages.id, message.id)).get()!);
  }
  return handled;
}

async function send(deps: OutboxDeps, message: OutboxMessage): Promise<{ id: string }> {
  if (message.channel === "sms") return deps.sms.send(message.to, message.body);
  // Selected only when deps.walletPush is present (above).
  if (isWallet(message.channel)) return (deps.walletPush as WalletPushProvider).send(walletPushOf(message));
  // Selected only when deps.mail is present (above).
  const mail = deps.mail as MailProvider;
  return mail.send({
    to: message.to,
    subject: message.subject ?? "",
    text: message.body,
    html: message.html ?? undefined,
    ...(message.headers ? { headers: message.headers } : {}),
    attachments: await attachmentsOf(deps, message.attachments ?? []),
  });
}

/**
 * The stored attachments as bytes; a document's PDF, a ticket's QR and a wallet's badge are made now
 * (without a PDF maker the send waits).
 */
async function attachmentsOf(deps: OutboxDeps, stored: StoredAttachment[]): Promise<MailAttachment[]> {
  const parts: MailAttachment[] = [];
  for (const a of stored) {
    let content: Buffer;
    if ("document" in a) {
      if (!deps.documentPdf) throw new MailSendError(`document ${a.document} cannot be made yet`, false);
      content = Buffer.from(await deps.documentPdf(a.document));
    } else if ("qr" in a) {
      // The same QR as the ticket page shows (ticket.ts): the door link, drawn now.
      content = await qrPng(a.qr);
    } else if ("badge" in a) {
      // A wallet's own badge artwork (wallet-badges.ts), drawn from the package's SVG.
      content = await walletBadgePng(a.badge);
    } else content = Buffer.from(a.base64, "base64");
    parts.push({ filename: a.filename, contentType: a.contentType, content, ...(a.cid ? { cid: a.cid } : {}) });
  }
  return parts;
}

/**
 * The buyer's address refused an email for good: noted on the booking (the first time; a later
 * email refused too keeps the first note) and once in the event's Activity, which names the booking's
 * person by id and never the address. The booking itself stands.
 */
function noteUndeliverable(tx: DbOrTx, message: OutboxMessage, reason: string, now: number) {
  if (message.bookingId === null) return;
  const booking = tx
    .select({ eventId: bookings.eventId, userId: bookings.userId, emailFailedAt: bookings.emailFailedAt })
    .from(bookings)
    .where(eq(bookings.id, message.bookingId))
    .get();
  if (!booking || booking.emailFailedAt !== null) return;
  tx.update(bookings)
    .set({ emailFailedAt: now, emailError: reason.slice(0, 300) })
    .where(eq(bookings.id, message.bookingId))
    .run();
  // Written here rather than through organiser/activity.ts (messaging imports no other room); the
  // action is one of its ACTIVITY_ACTIONS, and the key makes it one entry per booking, whatever happens.
  tx.insert(activityLog)
    .values({
      at: now,
      actor: "system",
      actorKind: "system",
      action: "email undeliverable",
      eventId: booking.eventId,
      userId: booking.userId,
      detail: "The guest's email address could not be delivered to.",
      windowKey: `email-undeliverable:${message.bookingId}`,
    })
    .onConflictDoNothing({ target: activityLog.windowKey })
    .run();
}
