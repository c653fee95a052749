import { useCallback, useEffect, useRef, useState } from "react";

/**
 * A reply being read: nothing to read yet (`idle`, only where the key can be null), on its way
 * (`loading`), or what it settled on, which the screen defines (`ready` with its data, `error` with
 * its words, `not-yet`, …).
 */
export type ReplyState<S, K = null> = (null extends K ? { status: "idle" } : never) | { status: "loading" } | S;

type Read<S, K> = {
  /**
   * Reads the reply for `key` and says what to show; `show` puts up a first answer while it reads on
   * (the tickets kept on the device, then the server's word on each).
   */
  load(key: NonNullable<K>, show: (first: NoInfer<S>) => void): Promise<S>;
  /** What to show when `load` threw (CallFailed: the call could not be made): an `error` state. */
  failed(error: unknown): NoInfer<S>;
  /** The copy this device kept, shown instead of `failed` when there is one (a reload at the venue). */
  cached?(): Promise<NoInfer<S> | undefined>;
};

/**
 * The one way a screen loads a reply (docs/decisions/049-one-hook-for-a-reply.md). `key` names what is
 * read (an event's id, say); a new key reads again, and `null` reads nothing (`idle`). `reload` shows
 * the loading state again (**Try again**); `refresh` reads in place and, if that fails, keeps what is
 * shown. Only the latest read lands, so a slow answer for the previous key never replaces the new one.
 */
export function useReply<S extends { status: string }, K extends string | number | null>(key: K, read: Read<S, K>) {
  const [state, setState] = useState<ReplyState<S>>({ status: key === null ? "idle" : "loading" });
  const latest = useRef(read);
  latest.current = read;
  const runs = useRef(0);
  const go = useCallback(
    async (quiet?: boolean) => {
      const run = ++runs.current;
      if (key === null) return setState({ status: "idle" });
      if (!quiet) setState({ status: "loading" });
      const { load, failed, cached } = latest.current;
      let next: S;
      try {
        next = await load(key, (first) => run === runs.current && setState(first));
      } catch (error) {
        next = (quiet ? undefined : await cached?.().catch(() => undefined)) ?? failed(error);
      }
      if (run === runs.current)
        setState((shown) => (quiet && next.status === "error" && shown.status !== "loading" ? shown : next));
    },
    [key],
  );
  useEffect(() => {
    void go();
  }, [go]);
  const reload = useCallback(() => go(), [go]);
  const refresh = useCallback(() => go(true), [go]);
  // A key that is never null never reads nothing: its screens need no idle case.
  return { state: state as ReplyState<S, K>, setState, reload, refresh };
}
