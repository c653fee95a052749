import { useEffect, useRef, useState } from "react";
import { useNavigationType, useSearchParams } from "react-router-dom";
import { CallFailed } from "../../lib/api.ts";
import { type ReplyState, useReply } from "../../lib/use-reply.ts";
import { type EventView, getEvent } from "../events/index.ts";
import { useBookingStore } from "./booking-store.ts";
import { idFrom } from "./use-held-booking.ts";

type Settled =
  | { status: "ready"; event: EventView }
  /** No event in the address, or none by that id. */
  | { status: "missing" }
  /** get-event could not be reached: **Try again**. */
  | { status: "error" };

/** `idle`: the flow was resumed, its event not (yet) in the booking store: the page says it loads. */
export type FlowEvent = ReplyState<Settled, null>;

/**
 * The event of /otp-verification?eventID=…: the flow this tab already runs for it (Back, Forward, a
 * reload, a waitlist offer just claimed), or, opened anew (a card's **Book Tickets**, a new tab),
 * get-event's answer read through useReply, with the flow begun at its first step. The page keys its
 * content by the history entry, so each navigation decides afresh, and the address (the key) never
 * changes while it is shown.
 */
export function useFlowEvent(): { flow: FlowEvent; retry: () => void } {
  const [search] = useSearchParams();
  const eventID = idFrom(search.get("eventID"));
  const intent = search.get("intent") === "waitlist" ? "waitlist" : "book";
  // A push is a new start (a card, Book again); a pop (Back, Forward, a reload) or a replace resumes.
  const fresh = useNavigationType() === "PUSH";
  const event = useBookingStore((s) => (s.eventID === eventID ? s.event : null));
  const [resumed] = useState(() => !fresh && event !== null);
  // A page left before get-event answered begins no flow: another page may run one by then.
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const { state, reload } = useReply<Settled, string | null>(
    resumed || eventID === null ? null : `${eventID}:${intent}`,
    {
      async load(): Promise<Settled> {
        const reply = await getEvent(eventID ?? 0);
        if (!reply.ok) return { status: "missing" };
        if (mounted.current) useBookingStore.getState().begin(reply.data, { intent });
        return { status: "ready", event: reply.data };
      },
      failed(error) {
        if (!(error instanceof CallFailed)) console.warn(error);
        return { status: "error" };
      },
    },
  );
  const retry = () => void reload();

  if (eventID === null) return { flow: { status: "missing" }, retry };
  // The flow's event is the store's, as begun (here or before a reload).
  if (event && (resumed || state.status === "ready")) return { flow: { status: "ready", event }, retry };
  return { flow: state, retry };
}
