import { and, asc, eq, lt, lte } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client.ts";
import { type OutboxMessage, outboxMessages } from "../../db/schema.ts";
import type { Logger } from "../lib/log.ts";
import type { SmsProvider } from "../providers/sms/types.ts";

// 30 s, 1, 2, 4 … minutes, then hourly: 20 tries cover about half a day of provider outage.
const MAX_ATTEMPTS = 20;
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 60 * 60_000;

// A send in flight is skipped by other delivery runs (the scheduler beside a request that sends at
// once, or a second server); if the process dies mid-send, the message is tried again after this.
const SEND_LEASE_MS = 60_000;

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
 * Sends the pending texts whose keys start with `dedupePrefix` (one event's news) and counts them:
 * those not sent stay queued for the retry loop.
 */
export async function deliverBatch(
  deps: Parameters<typeof deliverPending>[0],
  dedupePrefix: string,
): Promise<{ sent: number; failed: number }> {
  const handled = await deliverPending(deps, { dedupePrefix });
  const sent = handled.filter((m) => m.status === "sent").length;
  return { sent, failed: handled.length - sent };
}

/**
 * Sends what is pending, one message at a time, and records each result on its own row: one
 * failing number never stops the rest, and a failure is retried on the next delivery run.
 * Returns the messages it handled, with their final state.
 */
export async function deliverPending(
  deps: { db: Db; sms: SmsProvider; log: Logger; now: () => number },
  filter: { dedupePrefix?: string } = {},
): Promise<OutboxMessage[]> {
  const { db, sms, log } = deps;
  const pending = db
    .select()
    .from(outboxMessages)
    .where(
      and(
        eq(outboxMessages.status, "pending"),
        lt(outboxMessages.attempts, MAX_ATTEMPTS),
        lte(outboxMessages.nextAttemptAt, deps.now()),
      ),
    )
    .orderBy(asc(outboxMessages.id))
    .all()
    .filter((m) => !filter.dedupePrefix || m.dedupeKey.startsWith(filter.dedupePrefix));
  const handled: OutboxMessage[] = [];
  for (const message of pending) {
    // Claim the row first so two delivery runs never send the same message twice: the lease keeps
    // it out of every other run's selection while this one awaits the provider.
    const claimed = db
      .update(outboxMessages)
      .set({ attempts: message.attempts + 1, nextAttemptAt: deps.now() + SEND_LEASE_MS })
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
      const { id } = await sms.send(message.to, message.body);
      db.update(outboxMessages)
        .set({ status: "sent", sentAt: deps.now(), providerId: id, lastError: null })
        .where(eq(outboxMessages.id, message.id))
        .run();
    } catch (error) {
      const failedForGood = message.attempts + 1 >= MAX_ATTEMPTS;
      db.update(outboxMessages)
        .set({
          status: failedForGood ? "failed" : "pending",
          lastError: String(error).slice(0, 500),
          nextAttemptAt: deps.now() + retryDelay(message.attempts + 1),
        })
        .where(eq(outboxMessages.id, message.id))
        .run();
      log("warn", "sms not sent", {
        outboxId: message.id,
        attempt: message.attempts + 1,
        error: String(error).slice(0, 200),
      });
    }
    handled.push(db.select().from(outboxMessages).where(eq(outboxMessages.id, message.id)).get()!);
  }
  return handled;
}
