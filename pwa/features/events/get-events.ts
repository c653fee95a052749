import { useCallback, useEffect, useState } from "react";
import { api, CallFailed, imageUrl, send } from "../../lib/api.ts";
import { keepForOffline } from "../../lib/offline-cache.ts";
import { isListed } from "./format.ts";
import type { EventSummary } from "./types.ts";

export const getEvents = () => send(api["get-events"].$get());
export const getEvent = (id: number) => send(api["get-event"][":id"].$get({ param: { id: String(id) } }));

type State = { status: "loading" } | { status: "error"; message: string } | { status: "ready"; events: EventSummary[] };

/** The events the home page lists (see isListed), soonest first (the API sorts). */
export function useUpcomingEvents() {
  const [state, setState] = useState<State>({ status: "loading" });
  const load = useCallback(async () => {
    setState({ status: "loading" });
    try {
      const reply = await getEvents();
      if (!reply.ok || !Array.isArray(reply.data)) {
        setState({ status: "error", message: "We couldn't load the events. Please try again." });
        return;
      }
      const now = Date.now();
      const events = reply.data.filter((e) => isListed(e, now));
      setState({ status: "ready", events });
      // Lazy-loaded pictures further down the list may never have been fetched; keep them all.
      void keepForOffline(
        "images",
        events.map((e) => imageUrl(e.event_image)),
      );
    } catch (error) {
      console.error(error);
      setState({
        status: "error",
        message:
          error instanceof CallFailed
            ? "You seem to be offline, and the events haven't been saved on this device yet."
            : "We couldn't load the events. Please try again.",
      });
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  return { state, reload: load };
}
