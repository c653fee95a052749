import type { ApiReply } from "../../lib/api.ts";
import { useReply } from "../../lib/use-reply.ts";

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
  const { state, refresh } = useReply(eventId, {
    async load(id) {
      const reply = await fetch(id);
      return reply.ok ? ({ status: "ready", rows: rowsOf(reply.data) } as const) : ({ status: "error" } as const);
    },
    failed(error) {
      console.warn(error);
      return { status: "error" } as const;
    },
  });
  const shown: EventRowsState<R> = state;
  return { state: shown, reload: refresh };
}
