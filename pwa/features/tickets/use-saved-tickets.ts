import { useEffect, useRef } from "react";
import { useOnline } from "../../lib/use-online.ts";
import { useReply } from "../../lib/use-reply.ts";
import { refreshTicketStatuses } from "./refresh-ticket-status.ts";
import { listTickets, type SavedTicket } from "./ticket-store.ts";

type Shown = { status: "error" } | { status: "ready"; tickets: SavedTicket[] };

/**
 * How long to wait before asking again about tickets whose call could not be made while the browser
 * said it was online: the `online` event often comes before the network carries anything (a phone
 * joining the venue's Wi-Fi), and one lost ask would leave a refunded ticket showing its QR.
 */
const ASK_AGAIN_MS = [1_000, 3_000, 10_000, 30_000];

/**
 * The tickets kept on this device: read from IndexedDB first, so they show offline, then, while
 * online, each asks the server whether it is still valid (and again when the network returns, and
 * a few times more while a call cannot be made).
 */
export function useSavedTickets() {
  const online = useOnline();
  // Whether the next read asks the server too: not for a refresh after a change made here.
  const ask = useRef(online);
  const askAgain = useRef<{ tries: number; timer?: ReturnType<typeof setTimeout> }>({ tries: 0 });
  const { state, reload, refresh } = useReply("tickets", {
    async load(_: string, show: (first: Shown) => void): Promise<Shown> {
      const tickets = await listTickets();
      if (!ask.current || tickets.length === 0) return { status: "ready", tickets };
      show({ status: "ready", tickets });
      let unreached = false;
      const fresh = await refreshTicketStatuses(tickets, () => {
        unreached = true;
      });
      const again = askAgain.current;
      clearTimeout(again.timer);
      const wait = ASK_AGAIN_MS[again.tries];
      if (!unreached || !navigator.onLine || wait === undefined) again.tries = 0;
      else {
        again.tries += 1;
        again.timer = setTimeout(() => {
          ask.current = true;
          void refresh();
        }, wait);
      }
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
    clearTimeout(askAgain.current.timer);
    askAgain.current.tries = 0;
    ask.current = online;
    void refresh();
  }, [online, refresh]);
  useEffect(() => () => clearTimeout(askAgain.current.timer), []);
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
