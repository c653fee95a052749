import { api, type Ok, send } from "../../lib/api.ts";
import {
  type FeedbackChoice,
  type FeedbackValue,
  type OfflineSchema,
  offlineDb,
  type QueuedTap,
  tapKey,
  ticketKey,
} from "../../lib/offline-db.ts";
import { createOfflineQueue } from "../../lib/offline-queue.ts";

/**
 * The durable feedback queue, on the shared engine (pwa/lib/offline-queue.ts). A tap is written to
 * IndexedDB (the choice shown on screen and the entry waiting to be sent, in one transaction) before
 * anything goes over the network. The server's upsert keeps the newest `clientTs`, so sending a tap
 * twice is harmless; the engine makes sure it is sent at least once, and never drops a newer tap
 * because an older one was answered.
 *
 * Only startTapSync touches window, so the service worker can import `flushQueue` too.
 */

export { backoffDelay, MAX_DELAY_MS } from "../../lib/offline-queue.ts";

/** The Background Sync tag of feedback taps (pwa/sw.ts). */
export const FEEDBACK_SYNC_TAG = "feedback-sync";

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

const listeners = new Set<(event: QueueEvent) => void>();

export function subscribe(listener: (event: QueueEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit(event: QueueEvent) {
  for (const listener of listeners) listener(event);
}

/** What the server kept for a tap: the newest choice of that pair, which may be another phone's. */
type Kept = Ok<(typeof api)["save-feedback"]["$post"]>;

const queue = createOfflineQueue<QueuedTap, OfflineSchema, Kept>({
  open: offlineDb,
  store: "feedbackQueue",
  syncTag: FEEDBACK_SYNC_TAG,
  send: (tap) =>
    send(
      api["save-feedback"].$post({
        json: {
          fromUserID: tap.fromUserID,
          toUserID: tap.toUserID,
          eventID: tap.eventID,
          feedback: tap.feedback,
          token: tap.token,
          clientTs: tap.clientTs,
        },
      }),
    ),
  onSent: async (tap, kept) => {
    // The server says what it kept; if that is newer than what this device shows (the same link
    // used on another phone), show the server's choice.
    const db = await offlineDb();
    const tx = db.transaction("feedbackChoices", "readwrite");
    const choice = await tx.store.get(tap.key);
    if (choice && kept.clientTs > choice.clientTs) {
      await tx.store.put({ ...choice, feedback: kept.feedback, clientTs: kept.clientTs });
    }
    await tx.done;
    emit({ type: "changed", eventID: tap.eventID, fromUserID: tap.fromUserID });
  },
  onDropped: async (tap, reply) => {
    const db = await offlineDb();
    const tx = db.transaction(["feedbackChoices", "partners"], "readwrite");
    // The highlight should not claim a choice the server refused.
    const choice = await tx.objectStore("feedbackChoices").get(tap.key);
    if (choice?.clientTs === tap.clientTs) await tx.objectStore("feedbackChoices").delete(tap.key);
    const pageKey = ticketKey(tap.eventID, tap.fromUserID);
    const cached = await tx.objectStore("partners").get(pageKey);
    // Too late (the results are out): counted on the device, so the page says so even when the
    // service worker sent it with no page open (docs/decisions/021-results.md).
    const late = !reply.ok && reply.status === 409 && reply.data.code === "ratings_closed";
    if (late) {
      const kept = cached ?? { key: pageKey, partners: [], savedAt: 0 };
      await tx.objectStore("partners").put({ ...kept, lateTaps: (kept.lateTaps ?? 0) + 1 });
    }
    await tx.done;
    if (late) {
      emit({ type: "changed", eventID: tap.eventID, fromUserID: tap.fromUserID });
      return;
    }
    const name = cached?.partners.find((p) => p.id === tap.toUserID)?.username ?? "this partner";
    const reason = (!reply.ok && reply.data.error) || `error ${reply.status}`;
    emit({ type: "changed", eventID: tap.eventID, fromUserID: tap.fromUserID });
    emit({
      type: "notice",
      eventID: tap.eventID,
      fromUserID: tap.fromUserID,
      message: `Your choice for ${name} couldn't be saved: ${reason}`,
    });
  },
});

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
  const queued: QueuedTap = queue.fresh({ ...choice, token: input.token });
  await Promise.all([
    tx.objectStore("feedbackChoices").put(choice),
    tx.objectStore("feedbackQueue").put(queued),
    tx.done,
  ]);
  emit({ type: "changed", eventID: input.eventID, fromUserID: input.fromUserID });
  queue.kick();
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
  const all = await queue.entries();
  return all.filter((t) => t.eventID === eventID && t.fromUserID === fromUserID).length;
}

/** Taps of one page that reached the server after the results were out (and so were not counted). */
export async function lateCount(eventID: number, fromUserID: number): Promise<number> {
  return (await (await offlineDb()).get("partners", ticketKey(eventID, fromUserID)))?.lateTaps ?? 0;
}

export const flushQueue = queue.flush;
export const whenIdle = queue.whenIdle;

/**
 * For a page that rates partners: flush now (the app started), whenever the browser says the
 * network is back, and when the service worker passes on a Background Sync. Returns the cleanup.
 */
export const startTapSync = queue.start;

/** For tests: forget timers and in-flight runs between fresh databases. */
export function resetTapQueueForTests() {
  queue.reset();
  listeners.clear();
}
