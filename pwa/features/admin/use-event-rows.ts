import { useCallback, useEffect, useState } from "react";
import type { ApiReply } from "../../lib/api.ts";

export type EventRowsState<R> = { status: "idle" | "loading" | "error" } | { status: "ready"; rows: R[] };

/**
 * One list the organiser reads per event (its waitlist, its promo codes): loading while the picked
 * event's rows come, an error to retry, and `reload` after a change that may alter them.
 */
export function useEventRows<T, R>(
  eventId: number | null,
  fetch: (eventId: number) => Promise<ApiReply<T>>,
  rowsOf: (data: T) => R[],
) {
  const [state, setState] = useState<EventRowsState<R>>({ status: "idle" });
  // `fetch` and `rowsOf` must be stable (module-level functions): a new one each render would reload.
  const load = useCallback(
    async (id: number) => {
      try {
        const reply = await fetch(id);
        setState(reply.ok ? { status: "ready", rows: rowsOf(reply.data) } : { status: "error" });
      } catch (error) {
        console.warn(error);
        setState({ status: "error" });
      }
    },
    [fetch, rowsOf],
  );
  useEffect(() => {
    if (eventId === null) {
      setState({ status: "idle" });
      return;
    }
    setState({ status: "loading" });
    void load(eventId);
  }, [eventId, load]);
  return { state, reload: () => (eventId === null ? Promise.resolve() : load(eventId)) };
}
