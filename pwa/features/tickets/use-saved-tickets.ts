import { useEffect, useRef } from "react";
import { useAskAgain } from "../../lib/ask-again.ts";
import { useOnline } from "../../lib/use-online.ts";
import { useReply } from "../../lib/use-reply.ts";
import { refreshTicketStatuses } from "./refresh-ticket-status.ts";
import { listTickets, type SavedTicket } from "./ticket-store.ts";

type Shown = { status: "error" } | { status: "ready"; tickets: SavedTicket[] };

/**
 * The tickets kept on this device: read from IndexedDB first, so they show offline, then, while
 * online, each asks the server whether it is still valid (and again when the network returns, and a
 * few times more while a call cannot be made: lib/ask-again.ts), so a refunded ticket never keeps
 * showing its QR.
 */
export function useSavedTickets() {
  const online = useOnline();
  // Whether the next read asks the server too: not for a refresh after a change made here.
  const ask = useRef(online);
  const { missed, reached } = useAskAgain(() => {
    ask.current = true;
    void refresh();
  });
  const { state, reload, refresh } = useReply("tickets", {
    async load(_: string, show: (first: Shown) => void): Promise<Shown> {
      const tickets = await listTickets();
      if (!ask.current || tickets.length === 0) return { status: "ready", tickets };
      show({ status: "ready", tickets });
      let unreached = false;
      const fresh = await refreshTicketStatuses(tickets, () => {
        unreached = true;
      });
      if (unreached) missed();
      else reached();
      return { status: "ready", tickets: fresh };
    },
    failed(error): Shown {
      console.error(error);
      return { status: "error" };
    },
  });
  // Back online: the list in place, each ticket asking the server again (the first read already asks).
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    reached();
    ask.current = online;
    void refresh();
  }, [online, refresh, reached]);
  return {
    state,
    reload: () => {
      ask.current = navigator.onLine;
      return reload();
    },
    /** Reads the list again in place, with no loading screen in between (after a cancel made here). */
    refresh: () => {
      ask.current = false;
      return refresh();
    },
  };
}
