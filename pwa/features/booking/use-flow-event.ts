import { useCallback, useEffect, useState } from "react";
import { useNavigationType, useSearchParams } from "react-router-dom";
import { CallFailed } from "../../lib/api.ts";
import { type EventView, getEvent } from "../events/index.ts";
import { useBookingStore } from "./booking-store.ts";
import { idFrom } from "./use-held-booking.ts";

export type FlowEvent =
  | { kind: "ready"; event: EventView }
  | { kind: "loading" }
  /** No event in the address, or none by that id. */
  | { kind: "missing" }
  | { kind: "failed"; retry: () => void };

/**
 * The event of /otp-verification?eventID=…: the flow this tab already runs for it (Back, Forward, a
 * reload, a waitlist offer just claimed), or, opened anew (a card's **Book Tickets**, a new tab),
 * get-event's answer, with the flow begun at its first step. The page keys its content by the
 * history entry, so each navigation decides afresh.
 */
export function useFlowEvent(): FlowEvent {
  const [search] = useSearchParams();
  const eventID = idFrom(search.get("eventID"));
  const intent = search.get("intent") === "waitlist" ? "waitlist" : "book";
  // A push is a new start (a card, Book again); a pop (Back, Forward, a reload) or a replace resumes.
  const fresh = useNavigationType() === "PUSH";
  const event = useBookingStore((s) => (s.eventID === eventID ? s.event : null));
  const [started, setStarted] = useState(() => !fresh && event !== null);
  const [problem, setProblem] = useState<"missing" | "failed" | null>(eventID === null ? "missing" : null);

  const load = useCallback(
    async (live: () => boolean) => {
      if (eventID === null) return;
      setProblem(null);
      try {
        const reply = await getEvent(eventID);
        if (!live()) return;
        if (!reply.ok) return setProblem("missing");
        useBookingStore.getState().begin(reply.data, { intent });
        setStarted(true);
      } catch (error) {
        if (!live()) return;
        if (!(error instanceof CallFailed)) console.warn(error);
        setProblem("failed");
      }
    },
    [eventID, intent],
  );

  useEffect(() => {
    if (started) return;
    let live = true;
    void load(() => live);
    return () => {
      live = false;
    };
  }, [started, load]);

  if (problem === "missing") return { kind: "missing" };
  if (problem === "failed") return { kind: "failed", retry: () => void load(() => true) };
  return started && event ? { kind: "ready", event } : { kind: "loading" };
}
