import type { ApiReply } from "../../lib/api.ts";
import { type ReplyState, useReply } from "../../lib/use-reply.ts";

type Rows<R> = { status: "error" } | { status: "ready"; rows: R[] };
export type EventRowsState<R> = ReplyState<Rows<R>>;

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
    async load(id: number): Promise<Rows<R>> {
      const reply = await fetch(id);
      return reply.ok ? { status: "ready", rows: rowsOf(reply.data) } : { status: "error" };
    },
    failed(error): Rows<R> {
      console.warn(error);
      return { status: "error" };
    },
  });
  return { state, reload: refresh };
}
