import { useCallback, useEffect, useRef, useState } from "react";
import { useOnline } from "../../lib/use-online.ts";
import { refreshTicketStatuses } from "./refresh-ticket-status.ts";
import { listTickets, type SavedTicket } from "./ticket-store.ts";

type State = { status: "loading" } | { status: "error" } | { status: "ready"; tickets: SavedTicket[] };

/**
 * The tickets kept on this device: read from IndexedDB first, so they show offline, then, while
 * online, each asks the server whether it is still valid (and again when the network returns).
 */
export function useSavedTickets() {
  const [state, setState] = useState<State>({ status: "loading" });
  const online = useOnline();
  const run = useRef(0);
  const load = useCallback(async (refresh: boolean) => {
    const mine = ++run.current;
    let tickets: SavedTicket[];
    try {
      tickets = await listTickets();
    } catch (error) {
      console.error(error);
      if (mine === run.current) setState({ status: "error" });
      return;
    }
    if (mine !== run.current) return;
    setState({ status: "ready", tickets });
    if (!refresh || tickets.length === 0) return;
    const fresh = await refreshTicketStatuses(tickets);
    if (mine === run.current) setState({ status: "ready", tickets: fresh });
  }, []);
  useEffect(() => {
    void load(online);
  }, [load, online]);
  const reload = useCallback(() => {
    setState({ status: "loading" });
    return load(navigator.onLine);
  }, [load]);
  /** Reads the list again in place, with no loading screen in between (after a cancel made here). */
  const refresh = useCallback(() => load(false), [load]);
  return { state, reload, refresh };
}
