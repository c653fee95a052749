import type { DBSchema, IDBPDatabase, IndexNames, StoreNames, StoreValue } from "idb";
import { type ApiReply, CallFailed } from "./api.ts";

/**
 * One engine for every "write to IndexedDB first, send with backoff, drop when the server has it"
 * queue (feedback taps, door check-ins). An entry is stored on the device before anything goes over
 * the network, so a dropped connection, a closed tab or a reload loses nothing. Sending twice must
 * be harmless on the server (every queue here talks to an idempotent call); the engine only makes
 * sure each entry is sent at least once, and never removes a newer entry because an older one with
 * the same key was answered: entries are compared by `clientTs`, which the writer keeps increasing.
 *
 * Nothing here touches `window` unless it exists, so the service worker can flush queues too.
 */

export type QueueEntry = {
  /** One entry per key: a newer write replaces the one still waiting. */
  key: string;
  /** When the user acted, on the device's clock; also the entry's version. */
  clientTs: number;
  attempts: number;
  nextAttemptAt: number;
};

/** The stores of schema `S` that hold entries of type `E` and have the `byNextAttempt` index. */
export type QueueStoreName<S extends DBSchema, E extends QueueEntry> = {
  [N in StoreNames<S> & string]: [StoreValue<S, N>] extends [E]
    ? [E] extends [StoreValue<S, N>]
      ? "byNextAttempt" extends IndexNames<S, N>
        ? N
        : never
      : never
    : never;
}[StoreNames<S> & string];

/**
 * What a reply means for its entry: `sent` (the server has it), `retry` (later, with backoff),
 * `drop` (it will never be accepted), `wait` (nothing will get through now, e.g. the session
 * lapsed: back off this entry and every other one waiting, as when offline).
 */
export type Verdict = "sent" | "retry" | "drop" | "wait";

export type OfflineQueueOptions<E extends QueueEntry, S extends DBSchema, R> = {
  open(): Promise<IDBPDatabase<S>>;
  store: QueueStoreName<S, E>;
  /** The Background Sync tag; the service worker maps it back to this queue (pwa/sw.ts). */
  syncTag: string;
  /** Makes the call. Throws `CallFailed` when it could not be made at all (offline). */
  send(entry: E): Promise<ApiReply<R>>;
  /** Default: 2xx sent, 5xx retry, any other reply drop. */
  judge?(reply: ApiReply<R>): Verdict;
  /** After the entry left the queue because the server has it; `data` is the server's answer. */
  onSent?(entry: E, data: R): Promise<void> | void;
  /** After a refused entry left the queue; say so to the user here. */
  onDropped?(entry: E, reply: ApiReply<R>): Promise<void> | void;
  /** After a `wait` verdict (not after a plain network failure). */
  onWait?(entry: E, reply: ApiReply<R>): void;
};

export type OfflineQueue<E extends QueueEntry> = {
  /** A new entry, ready for the next send: the writer adds its own fields and puts it in the store. */
  fresh<T extends Omit<E, "attempts" | "nextAttemptAt">>(fields: T): T & Pick<QueueEntry, "attempts" | "nextAttemptAt">;
  /** Stores an entry (replacing a waiting one with its key) and starts sending; resolves once stored. */
  enqueue(fields: Omit<E, "attempts" | "nextAttemptAt">): Promise<E>;
  /** For a writer that stored the entry in its own transaction: send it now. */
  kick(): void;
  /**
   * Sends what waits. Explicit flushes (a write, `online`, page start, the service worker) try every
   * entry; the backoff timer only those that are due. Concurrent calls share one run, which goes
   * round again if asked during it, so an entry written while a send is in flight is never left behind.
   */
  flush(options?: { dueOnly?: boolean }): Promise<void>;
  /** Resolves when no flush is running (without asking for one). */
  whenIdle(): Promise<void>;
  /** Everything waiting, oldest first. */
  entries(): Promise<E[]>;
  /** For a page that writes to this queue: flush now, on `online`, and when the service worker asks. */
  start(): () => void;
  /** For tests: forget timers and in-flight runs. */
  reset(): void;
};

const BASE_DELAY_MS = 1_000;
export const MAX_DELAY_MS = 60_000;

/** 1 s, 2 s, 4 s … capped at a minute, with a little jitter so phones in one room don't retry in step. */
export function backoffDelay(attempts: number): number {
  const delay = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(delay * (0.9 + Math.random() * 0.2));
}

/** The message the service worker posts to open pages when Background Sync fires for `tag`. */
export type FlushQueueMessage = { type: "FLUSH_QUEUE"; tag: string };

const defaultJudge = (reply: ApiReply<unknown>): Verdict =>
  reply.ok ? "sent" : reply.status >= 500 ? "retry" : "drop";

/**
 * What one queue's steps share: its calls, the open database, the flush lock and the retry timer.
 * The steps are the functions below, each taking the queue's engine; `createOfflineQueue` makes one.
 */
type Engine<E extends QueueEntry, R> = {
  calls: Omit<OfflineQueueOptions<E, DBSchema, R>, "open" | "store" | "judge">;
  judge: (reply: ApiReply<R>) => Verdict;
  store: string;
  open: () => Promise<IDBPDatabase>;
  /** The flush in progress: later calls share it. */
  running: Promise<void> | undefined;
  /** A flush was asked for during the one running: it goes round again. */
  again: boolean;
  /** One timer for the earliest retry. */
  timer: ReturnType<typeof setTimeout> | undefined;
};

/** `E` is the entry type, `S` the database schema (the store must hold exactly `E`s), `R` the server's reply. */
export function createOfflineQueue<E extends QueueEntry, S extends DBSchema, R = unknown>(
  options: OfflineQueueOptions<E, S, R>,
): OfflineQueue<E> {
  const q: Engine<E, R> = {
    calls: options,
    judge: options.judge ?? defaultJudge,
    // idb cannot follow a store name that is itself a type parameter; inside the engine the store is
    // read through idb's untyped view, and every value in it is an E by QueueStoreName's constraint.
    store: options.store,
    open: async () => (await options.open()) as unknown as IDBPDatabase,
    running: undefined,
    again: false,
    timer: undefined,
  };

  const fresh = <T extends Omit<E, "attempts" | "nextAttemptAt">>(fields: T) => ({
    ...fields,
    attempts: 0,
    nextAttemptAt: (fields as unknown as QueueEntry).clientTs,
  });

  return {
    fresh: fresh as OfflineQueue<E>["fresh"],
    async enqueue(fields) {
      const entry = fresh(fields) as unknown as E;
      await (await q.open()).put(q.store, entry);
      void flush(q);
      return entry;
    },
    kick: () => void flush(q),
    flush: (flushOptions) => flush(q, flushOptions),
    async whenIdle() {
      while (q.running) await q.running;
    },
    async entries() {
      const all = (await (await q.open()).getAll(q.store)) as E[];
      return all.sort((a, b) => a.clientTs - b.clientTs);
    },
    start: () => listen(q),
    reset() {
      if (q.timer !== undefined) clearTimeout(q.timer);
      q.timer = undefined;
      q.running = undefined;
      q.again = false;
    },
  };
}

function flush<E extends QueueEntry, R>(q: Engine<E, R>, flushOptions: { dueOnly?: boolean } = {}): Promise<void> {
  if (q.running) {
    q.again = true;
    return q.running;
  }
  q.running = (async () => {
    try {
      let dueOnly = flushOptions.dueOnly ?? false;
      do {
        q.again = false;
        await flushOnce(q, dueOnly);
        dueOnly = false;
      } while (q.again);
    } finally {
      q.running = undefined;
      await scheduleNext(q);
    }
  })();
  return q.running;
}

async function flushOnce<E extends QueueEntry, R>(q: Engine<E, R>, dueOnly: boolean) {
  const db = await q.open();
  const waiting = (
    dueOnly
      ? await db.getAllFromIndex(q.store, "byNextAttempt", IDBKeyRange.upperBound(Date.now()))
      : await db.getAll(q.store)
  ) as E[];
  const ordered = waiting.sort((a, b) => a.clientTs - b.clientTs);
  for (const [i, entry] of ordered.entries()) {
    if ((await send(q, entry)) === "wait") {
      // The rest would fail the same way: count it as their attempt too rather than hammering.
      for (const rest of ordered.slice(i + 1)) await retryLater(q, rest);
      break;
    }
  }
}

async function send<E extends QueueEntry, R>(q: Engine<E, R>, entry: E): Promise<Verdict> {
  let reply: ApiReply<R>;
  try {
    reply = await q.calls.send(entry);
  } catch (error) {
    if (!(error instanceof CallFailed)) throw error;
    await retryLater(q, entry);
    return "wait";
  }
  const verdict = q.judge(reply);
  if (verdict === "sent") {
    await removeIfCurrent(q, entry);
    // A judge may count a refusal as delivered; only a success has an answer to hand on.
    if (reply.ok) await q.calls.onSent?.(entry, reply.data);
  } else if (verdict === "drop") {
    await removeIfCurrent(q, entry);
    await q.calls.onDropped?.(entry, reply);
  } else {
    await retryLater(q, entry);
    if (verdict === "wait") q.calls.onWait?.(entry, reply);
  }
  return verdict;
}

/** Removed only if it is still the entry that was sent: a newer one written meanwhile must survive. */
async function removeIfCurrent<E extends QueueEntry, R>(q: Engine<E, R>, entry: E) {
  const tx = (await q.open()).transaction(q.store, "readwrite");
  const current = (await tx.store.get(entry.key)) as E | undefined;
  if (current?.clientTs === entry.clientTs) await tx.store.delete(entry.key);
  await tx.done;
}

async function retryLater<E extends QueueEntry, R>(q: Engine<E, R>, entry: E) {
  const tx = (await q.open()).transaction(q.store, "readwrite");
  const current = (await tx.store.get(entry.key)) as E | undefined;
  if (current?.clientTs === entry.clientTs) {
    const attempts = current.attempts + 1;
    await tx.store.put({ ...current, attempts, nextAttemptAt: Date.now() + backoffDelay(attempts) });
  }
  await tx.done;
}

/** One timer for the earliest retry; replaced whenever the queue changes. */
async function scheduleNext<E extends QueueEntry, R>(q: Engine<E, R>) {
  if (q.timer !== undefined) clearTimeout(q.timer);
  q.timer = undefined;
  const cursor = await (await q.open()).transaction(q.store).store.index("byNextAttempt").openCursor();
  if (!cursor) return;
  requestBackgroundSync(q.calls.syncTag);
  const delay = Math.max(0, (cursor.value as E).nextAttemptAt - Date.now());
  q.timer = setTimeout(() => {
    q.timer = undefined;
    void flush(q, { dueOnly: true });
  }, delay);
}

/**
 * Entries are still waiting: ask the browser (where it has Background Sync) to wake the service
 * worker when the network is back, which then asks open pages to flush, or flushes itself.
 */
function requestBackgroundSync(syncTag: string) {
  if (!("document" in globalThis) || !("serviceWorker" in navigator)) return;
  void navigator.serviceWorker.ready
    .then((registration) => {
      const sync = (registration as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } })
        .sync;
      return sync?.register(syncTag);
    })
    .catch(() => undefined);
}

/** The queue's `start`: flush now, on `online`, and when the service worker asks; returns the stop. */
function listen<E extends QueueEntry, R>(q: Engine<E, R>): () => void {
  const onOnline = () => void flush(q);
  const onMessage = (event: MessageEvent) => {
    const data = event.data as Partial<FlushQueueMessage> | null;
    if (data?.type === "FLUSH_QUEUE" && data.tag === q.calls.syncTag) void flush(q);
  };
  globalThis.addEventListener("online", onOnline);
  navigator.serviceWorker?.addEventListener("message", onMessage);
  void flush(q);
  return () => {
    globalThis.removeEventListener("online", onOnline);
    navigator.serviceWorker?.removeEventListener("message", onMessage);
  };
}
