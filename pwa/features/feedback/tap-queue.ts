import { apiPost, CallFailed, replyError } from "../../lib/api.ts";
import {
  type FeedbackChoice,
  type FeedbackValue,
  offlineDb,
  type QueuedTap,
  tapKey,
  ticketKey,
} from "../../lib/offline-db.ts";

/**
 * The durable feedback queue. A tap is written to IndexedDB (the choice shown on screen and the
 * entry waiting to be sent, in one transaction) before anything goes over the network, so venue
 * Wi-Fi dropping, a closed tab or a reload loses nothing. The server's upsert keeps the newest
 * `clientTs`, so sending a tap twice is harmless; the queue only has to make sure it is sent at
 * least once, and never drops a newer tap because an older one was answered.
 *
 * Only startTapSync touches window (the sync request checks for it first), so a service worker
 * can import `flushQueue` too.
 */

export type TapInput = {
  eventID: number;
  fromUserID: number;
  toUserID: number;
  feedback: FeedbackValue;
  token: string;
};

export type QueueEvent =
  | { type: "changed"; eventID: number; fromUserID: number }
  | { type: "notice"; eventID: number; fromUserID: number; message: string };

type SaveReply = { success?: boolean; feedback?: FeedbackValue; clientTs?: number; error?: string };

const BASE_DELAY_MS = 1_000;
export const MAX_DELAY_MS = 60_000;

/** 1 s, 2 s, 4 s … capped at a minute, with a little jitter so phones in one room don't retry in step. */
export function backoffDelay(attempts: number): number {
  const delay = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(delay * (0.9 + Math.random() * 0.2));
}

const listeners = new Set<(event: QueueEvent) => void>();

export function subscribe(listener: (event: QueueEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit(event: QueueEvent) {
  for (const listener of listeners) listener(event);
}

/**
 * Records a tap and starts sending it. Resolves once the tap is stored on the device (the UI
 * highlights from the returned choice), not when the server has it.
 */
export async function recordTap(input: TapInput): Promise<FeedbackChoice> {
  const db = await offlineDb();
  const tx = db.transaction(["feedbackChoices", "feedbackQueue"], "readwrite");
  const key = tapKey(input.eventID, input.fromUserID, input.toUserID);
  const previous = await tx.objectStore("feedbackChoices").get(key);
  // Two taps in the same millisecond must still be ordered, or the server would keep the first.
  const clientTs = Math.max(Date.now(), (previous?.clientTs ?? 0) + 1);
  const choice: FeedbackChoice = {
    key,
    eventID: input.eventID,
    fromUserID: input.fromUserID,
    toUserID: input.toUserID,
    feedback: input.feedback,
    clientTs,
  };
  // Same key: a newer tap replaces the one still waiting, and starts with a clean backoff.
  const queued: QueuedTap = { ...choice, token: input.token, attempts: 0, nextAttemptAt: clientTs };
  await Promise.all([
    tx.objectStore("feedbackChoices").put(choice),
    tx.objectStore("feedbackQueue").put(queued),
    tx.done,
  ]);
  emit({ type: "changed", eventID: input.eventID, fromUserID: input.fromUserID });
  void flushQueue();
  return choice;
}

/** The choices shown for one participant's page, by partner id. */
export async function loadChoices(eventID: number, fromUserID: number): Promise<Map<number, FeedbackChoice>> {
  const db = await offlineDb();
  const all = await db.getAllFromIndex("feedbackChoices", "byEventUser", [eventID, fromUserID]);
  return new Map(all.map((c) => [c.toUserID, c]));
}

/** Taps of one participant's page still waiting for the server. */
export async function pendingCount(eventID: number, fromUserID: number): Promise<number> {
  const db = await offlineDb();
  const all = await db.getAll("feedbackQueue");
  return all.filter((t) => t.eventID === eventID && t.fromUserID === fromUserID).length;
}

let running: Promise<void> | undefined;
let again = false;
let timer: ReturnType<typeof setTimeout> | undefined;

/**
 * Sends what waits. Explicit flushes (a tap, `online`, page start, the service worker) try every
 * entry; the backoff timer, the fallback when nothing else happens, only those that are due.
 * Concurrent calls share one run, which goes round again if asked during it, so a tap made while
 * a send is in flight is never left behind.
 */
export function flushQueue(options: { dueOnly?: boolean } = {}): Promise<void> {
  if (running) {
    again = true;
    return running;
  }
  running = (async () => {
    try {
      let dueOnly = options.dueOnly ?? false;
      do {
        again = false;
        await flushOnce(dueOnly);
        dueOnly = false;
      } while (again);
    } finally {
      running = undefined;
      await scheduleNext();
    }
  })();
  return running;
}

/** Resolves when no flush is running (without asking for one). */
export async function whenIdle(): Promise<void> {
  while (running) await running;
}

async function flushOnce(dueOnly: boolean) {
  const db = await offlineDb();
  const now = Date.now();
  const waiting = dueOnly
    ? await db.getAllFromIndex("feedbackQueue", "byNextAttempt", IDBKeyRange.upperBound(now))
    : await db.getAll("feedbackQueue");
  const ordered = waiting.sort((a, b) => a.clientTs - b.clientTs);
  for (const [i, tap] of ordered.entries()) {
    if ((await send(tap)) === "offline") {
      // The rest would fail the same way: count it as their attempt too rather than hammering a dead link.
      for (const rest of ordered.slice(i + 1)) await retryLater(rest);
      break;
    }
  }
}

async function send(tap: QueuedTap): Promise<"sent" | "retry" | "offline" | "dropped"> {
  let reply: { ok: boolean; status: number; data: SaveReply | null };
  try {
    reply = await apiPost<SaveReply | null>("/api/save-feedback", {
      fromUserID: tap.fromUserID,
      toUserID: tap.toUserID,
      eventID: tap.eventID,
      feedback: tap.feedback,
      token: tap.token,
      clientTs: tap.clientTs,
    });
  } catch (error) {
    if (!(error instanceof CallFailed)) throw error;
    await retryLater(tap);
    return "offline";
  }
  if (reply.status >= 500) {
    await retryLater(tap);
    return "retry";
  }
  if (reply.ok) {
    await settle(tap, reply.data);
    return "sent";
  }
  await drop(tap, replyError(reply.data) ?? `error ${reply.status}`);
  return "dropped";
}

async function settle(tap: QueuedTap, data: SaveReply | null) {
  const db = await offlineDb();
  const tx = db.transaction(["feedbackQueue", "feedbackChoices"], "readwrite");
  // Removed only if it is still the tap that was sent: a newer tap made meanwhile must survive.
  const current = await tx.objectStore("feedbackQueue").get(tap.key);
  if (current?.clientTs === tap.clientTs) await tx.objectStore("feedbackQueue").delete(tap.key);
  // The server says what it kept; if that is newer than what this device shows (the same link
  // used on another phone), show the server's choice.
  const choice = await tx.objectStore("feedbackChoices").get(tap.key);
  if (
    choice &&
    (data?.feedback === "like" || data?.feedback === "dislike") &&
    typeof data.clientTs === "number" &&
    data.clientTs > choice.clientTs
  ) {
    await tx.objectStore("feedbackChoices").put({ ...choice, feedback: data.feedback, clientTs: data.clientTs });
  }
  await tx.done;
  emit({ type: "changed", eventID: tap.eventID, fromUserID: tap.fromUserID });
}

async function retryLater(tap: QueuedTap) {
  const db = await offlineDb();
  const tx = db.transaction("feedbackQueue", "readwrite");
  const current = await tx.store.get(tap.key);
  if (current?.clientTs === tap.clientTs) {
    const attempts = current.attempts + 1;
    await tx.store.put({ ...current, attempts, nextAttemptAt: Date.now() + backoffDelay(attempts) });
  }
  await tx.done;
}

async function drop(tap: QueuedTap, reason: string) {
  const db = await offlineDb();
  const tx = db.transaction(["feedbackQueue", "feedbackChoices", "partners"], "readwrite");
  const current = await tx.objectStore("feedbackQueue").get(tap.key);
  if (current?.clientTs === tap.clientTs) await tx.objectStore("feedbackQueue").delete(tap.key);
  // The highlight should not claim a choice the server refused.
  const choice = await tx.objectStore("feedbackChoices").get(tap.key);
  if (choice?.clientTs === tap.clientTs) await tx.objectStore("feedbackChoices").delete(tap.key);
  const cached = await tx.objectStore("partners").get(ticketKey(tap.eventID, tap.fromUserID));
  await tx.done;
  const name = cached?.partners.find((p) => p.id === tap.toUserID)?.username ?? "this partner";
  emit({ type: "changed", eventID: tap.eventID, fromUserID: tap.fromUserID });
  emit({
    type: "notice",
    eventID: tap.eventID,
    fromUserID: tap.fromUserID,
    message: `Your choice for ${name} couldn't be saved: ${reason}`,
  });
}

/** One timer for the earliest retry; replaced whenever the queue changes. */
async function scheduleNext() {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  const db = await offlineDb();
  const cursor = await db.transaction("feedbackQueue").store.index("byNextAttempt").openCursor();
  if (!cursor) return;
  requestBackgroundSync();
  const delay = Math.max(0, cursor.value.nextAttemptAt - Date.now());
  timer = setTimeout(() => {
    timer = undefined;
    void flushQueue({ dueOnly: true });
  }, delay);
}

/**
 * Taps are still waiting: ask the browser (where it has Background Sync) to wake the service worker
 * when the network is back, which then asks open pages to flush (pwa/sw.ts, "feedback-sync").
 */
function requestBackgroundSync() {
  if (typeof window === "undefined" || !("serviceWorker" in navigator)) return;
  void navigator.serviceWorker.ready
    .then((registration) => {
      const sync = (registration as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } })
        .sync;
      return sync?.register("feedback-sync");
    })
    .catch(() => undefined);
}

/**
 * For a page that rates partners: flush now (the app started), whenever the browser says the
 * network is back, and when the service worker passes on a Background Sync. Returns the cleanup.
 */
export function startTapSync(): () => void {
  const onOnline = () => void flushQueue();
  const onMessage = (event: MessageEvent) => {
    if ((event.data as { type?: unknown } | null)?.type === "FLUSH_FEEDBACK") void flushQueue();
  };
  window.addEventListener("online", onOnline);
  navigator.serviceWorker?.addEventListener("message", onMessage);
  void flushQueue();
  return () => {
    window.removeEventListener("online", onOnline);
    navigator.serviceWorker?.removeEventListener("message", onMessage);
  };
}

/** For tests: forget timers and in-flight runs between fresh databases. */
export function resetTapQueueForTests() {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  running = undefined;
  again = false;
  listeners.clear();
}
