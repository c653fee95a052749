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

/** `E` is the entry type, `S` the database schema (the store must hold exactly `E`s), `R` the server's reply. */
export function createOfflineQueue<E extends QueueEntry, S extends DBSchema, R = unknown>(
  options: OfflineQueueOptions<E, S, R>,
): OfflineQueue<E> {
  const judge = options.judge ?? defaultJudge;
  // idb cannot follow a store name that is itself a type parameter; inside the engine the store is
  // read through idb's untyped view, and every value in it is an E by QueueStoreName's constraint.
  const store: string = options.store;
  const open = async () => (await options.open()) as unknown as IDBPDatabase;

  let running: Promise<void> | undefined;
  let again = false;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const fresh = <T extends Omit<E, "attempts" | "nextAttemptAt">>(fields: T) => ({
    ...fields,
    attempts: 0,
    nextAttemptAt: (fields as unknown as QueueEntry).clientTs,
  });

  async function enqueue(fields: Omit<E, "attempts" | "nextAttemptAt">): Promise<E> {
    const entry = fresh(fields) as unknown as E;
    await (await open()).put(store, entry);
    kick();
    return entry;
  }

  function kick() {
    void flush();
  }

  function flush(flushOptions: { dueOnly?: boolean } = {}): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      try {
        let dueOnly = flushOptions.dueOnly ?? false;
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

  async function whenIdle() {
    while (running) await running;
  }

  async function entries(): Promise<E[]> {
    const all = (await (await open()).getAll(store)) as E[];
    return all.sort((a, b) => a.clientTs - b.clientTs);
  }

  async function flushOnce(dueOnly: boolean) {
    const db = await open();
    const waiting = (
      dueOnly
        ? await db.getAllFromIndex(store, "byNextAttempt", IDBKeyRange.upperBound(Date.now()))
        : await db.getAll(store)
    ) as E[];
    const ordered = waiting.sort((a, b) => a.clientTs - b.clientTs);
    for (const [i, entry] of ordered.entries()) {
      if ((await send(entry)) === "wait") {
        // The rest would fail the same way: count it as their attempt too rather than hammering.
        for (const rest of ordered.slice(i + 1)) await retryLater(rest);
        break;
      }
    }
  }

  async function send(entry: E): Promise<Verdict> {
    let reply: ApiReply<R>;
    try {
      reply = await options.send(entry);
    } catch (error) {
      if (!(error instanceof CallFailed)) throw error;
      await retryLater(entry);
      return "wait";
    }
    const verdict = judge(reply);
    if (verdict === "sent") {
      await removeIfCurrent(entry);
      // A judge may count a refusal as delivered; only a success has an answer to hand on.
      if (reply.ok) await options.onSent?.(entry, reply.data);
    } else if (verdict === "drop") {
      await removeIfCurrent(entry);
      await options.onDropped?.(entry, reply);
    } else {
      await retryLater(entry);
      if (verdict === "wait") options.onWait?.(entry, reply);
    }
    return verdict;
  }

  /** Removed only if it is still the entry that was sent: a newer one written meanwhile must survive. */
  async function removeIfCurrent(entry: E) {
    const tx = (await open()).transaction(store, "readwrite");
    const current = (await tx.store.get(entry.key)) as E | undefined;
    if (current?.clientTs === entry.clientTs) await tx.store.delete(entry.key);
    await tx.done;
  }

  async function retryLater(entry: E) {
    const tx = (await open()).transaction(store, "readwrite");
    const current = (await tx.store.get(entry.key)) as E | undefined;
    if (current?.clientTs === entry.clientTs) {
      const attempts = current.attempts + 1;
      await tx.store.put({ ...current, attempts, nextAttemptAt: Date.now() + backoffDelay(attempts) });
    }
    await tx.done;
  }

  /** One timer for the earliest retry; replaced whenever the queue changes. */
  async function scheduleNext() {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    const cursor = await (await open()).transaction(store).store.index("byNextAttempt").openCursor();
    if (!cursor) return;
    requestBackgroundSync();
    const delay = Math.max(0, (cursor.value as E).nextAttemptAt - Date.now());
    timer = setTimeout(() => {
      timer = undefined;
      void flush({ dueOnly: true });
    }, delay);
  }

  /**
   * Entries are still waiting: ask the browser (where it has Background Sync) to wake the service
   * worker when the network is back, which then asks open pages to flush, or flushes itself.
   */
  function requestBackgroundSync() {
    if (!("document" in globalThis) || !("serviceWorker" in navigator)) return;
    void navigator.serviceWorker.ready
      .then((registration) => {
        const sync = (registration as ServiceWorkerRegistration & { sync?: { register(tag: string): Promise<void> } })
          .sync;
        return sync?.register(options.syncTag);
      })
      .catch(() => undefined);
  }

  function start(): () => void {
    const onOnline = () => void flush();
    const onMessage = (event: MessageEvent) => {
      const data = event.data as Partial<FlushQueueMessage> | null;
      if (data?.type === "FLUSH_QUEUE" && data.tag === options.syncTag) void flush();
    };
    globalThis.addEventListener("online", onOnline);
    navigator.serviceWorker?.addEventListener("message", onMessage);
    void flush();
    return () => {
      globalThis.removeEventListener("online", onOnline);
      navigator.serviceWorker?.removeEventListener("message", onMessage);
    };
  }

  function reset() {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    running = undefined;
    again = false;
  }

  return {
    fresh: fresh as OfflineQueue<E>["fresh"],
    enqueue,
    kick,
    flush,
    whenIdle,
    entries,
    start,
    reset,
  };
}
