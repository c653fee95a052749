import { api, type Ok, send } from "../../lib/api.ts";
import { checkInKey, type OfflineSchema, offlineDb, type QueuedCheckIn } from "../../lib/offline-db.ts";
import { createOfflineQueue, type Verdict } from "../../lib/offline-queue.ts";

/**
 * Door check-ins on the shared offline queue (pwa/lib/offline-queue.ts). A tap is stored on the phone
 * first and shown at once; the server records the tap's own time and keeps the earliest check-in of
 * a booking, so a late or repeated send never moves it. One entry per booking: undoing a check-in
 * still waiting replaces it, and the last action on this phone is what gets sent.
 *
 * No React or window here: the service worker imports this module to flush on Background Sync.
 */

/** The Background Sync tag of door check-ins (pwa/sw.ts). */
export const CHECK_IN_SYNC_TAG = "door-sync";

export type CheckInAction = QueuedCheckIn["action"];

export type CheckInEvent =
  /** The queue changed on this phone (a tap, a refused entry). */
  | { type: "changed"; eventID: number }
  /** The server has an entry; the kept roster now shows what the server kept. */
  | { type: "synced"; eventID: number; userID: number; checkedInAt: string | null }
  | { type: "notice"; eventID: number; message: string }
  /** The admin session lapsed: nothing can be sent until someone logs in again. Nothing is lost. */
  | { type: "session-lapsed" };

/** What the server kept: the booking's check-in time, or null after an undo. */
type CheckInReply = Ok<(typeof api)["check-in"]["$post"]> | Ok<(typeof api)["undo-check-in"]["$post"]>;

const listeners = new Set<(event: CheckInEvent) => void>();

export function subscribeCheckIns(listener: (event: CheckInEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit(event: CheckInEvent) {
  for (const listener of listeners) listener(event);
}

function judge(reply: { ok: boolean; status: number }): Verdict {
  if (reply.ok) return "sent";
  // Keep the entry through a lapsed session: after the next login it goes through.
  if (reply.status === 401) return "wait";
  if (reply.status >= 500 || reply.status === 429) return "retry";
  return "drop";
}

async function nameOf(eventID: number, userID: number): Promise<string> {
  const roster = await (await offlineDb()).get("doorRosters", eventID);
  return (
    roster?.attendees.find((a) => a.userID === userID)?.name ??
    roster?.refunded.find((a) => a.userID === userID)?.name ??
    "this attendee"
  );
}

const queue = createOfflineQueue<QueuedCheckIn, OfflineSchema, CheckInReply>({
  open: offlineDb,
  store: "checkInQueue",
  syncTag: CHECK_IN_SYNC_TAG,
  judge,
  send: (entry) =>
    entry.action === "check-in"
      ? send(
          api["check-in"].$post({ json: { eventID: entry.eventID, userID: entry.userID, clientTs: entry.clientTs } }),
        )
      : send(api["undo-check-in"].$post({ json: { eventID: entry.eventID, userID: entry.userID } })),
  onSent: async (entry, kept) => {
    const checkedInAt = entry.action === "undo" ? null : (kept.checkedInAt ?? new Date(entry.clientTs).toISOString());
    // The kept roster follows the server at once, so a reload offline shows what the server has.
    const db = await offlineDb();
    const tx = db.transaction("doorRosters", "readwrite");
    const roster = await tx.store.get(entry.eventID);
    if (roster) {
      await tx.store.put({
        ...roster,
        attendees: roster.attendees.map((a) => (a.userID === entry.userID ? { ...a, checkedInAt } : a)),
      });
    }
    await tx.done;
    emit({ type: "synced", eventID: entry.eventID, userID: entry.userID, checkedInAt });
  },
  onDropped: async (entry, reply) => {
    const name = await nameOf(entry.eventID, entry.userID);
    const reason = (!reply.ok && reply.data.error) || `error ${reply.status}`;
    emit({ type: "changed", eventID: entry.eventID });
    emit({
      type: "notice",
      eventID: entry.eventID,
      message:
        entry.action === "check-in"
          ? `Couldn't check in ${name}: ${reason}`
          : `Couldn't undo the check-in of ${name}: ${reason}`,
    });
  },
  onWait: (_entry, reply) => {
    if (reply.status === 401) emit({ type: "session-lapsed" });
  },
});

/**
 * Records a check-in (or its undo) on the phone and starts sending it. Resolves once it is stored,
 * with the entry; the screen shows it from then on, whether or not the server has it yet.
 */
export async function recordCheckIn(eventID: number, userID: number, action: CheckInAction): Promise<QueuedCheckIn> {
  const db = await offlineDb();
  const tx = db.transaction("checkInQueue", "readwrite");
  const key = checkInKey(eventID, userID);
  const previous = await tx.store.get(key);
  // Entries with one key must stay ordered even when two taps share a millisecond.
  const clientTs = Math.max(Date.now(), (previous?.clientTs ?? 0) + 1);
  const entry: QueuedCheckIn = queue.fresh({ key, eventID, userID, action, clientTs });
  await Promise.all([tx.store.put(entry), tx.done]);
  emit({ type: "changed", eventID });
  queue.kick();
  return entry;
}

/** What waits for one event, oldest first. */
export async function pendingCheckIns(eventID: number): Promise<QueuedCheckIn[]> {
  const db = await offlineDb();
  const waiting = await db.getAllFromIndex("checkInQueue", "byEvent", eventID);
  return waiting.sort((a, b) => a.clientTs - b.clientTs);
}

export const flushCheckIns = queue.flush;
export const whenCheckInsIdle = queue.whenIdle;
/** For the door view: flush now, on `online`, and when the service worker relays a Background Sync. */
export const startCheckInSync = queue.start;

/** For tests: forget timers, in-flight runs and listeners between fresh databases. */
export function resetCheckInQueueForTests() {
  queue.reset();
  listeners.clear();
}
