import { useCallback, useEffect, useState } from "react";
import { getWaitlist, type WaitlistRow } from "./admin-api.ts";

export type WaitlistState = { status: "idle" | "loading" | "error" } | { status: "ready"; rows: WaitlistRow[] };

/** An event's waitlist for the organiser; `reload` after anything that may free a seat (a refund). */
export function useWaitlist(eventId: number | null) {
  const [state, setState] = useState<WaitlistState>({ status: "idle" });
  const load = useCallback(async (id: number) => {
    try {
      const reply = await getWaitlist(id);
      if (reply.ok) {
        setState({ status: "ready", rows: reply.data.waitlist });
      } else setState({ status: "error" });
    } catch (error) {
      console.warn(error);
      setState({ status: "error" });
    }
  }, []);
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
