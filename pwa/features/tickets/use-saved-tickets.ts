import { useCallback, useEffect, useState } from "react";
import { listTickets, type SavedTicket } from "./ticket-store.ts";

type State = { status: "loading" } | { status: "error" } | { status: "ready"; tickets: SavedTicket[] };

/** The tickets kept on this device. Reads IndexedDB only, so it works offline. */
export function useSavedTickets() {
  const [state, setState] = useState<State>({ status: "loading" });
  const load = useCallback(async () => {
    setState({ status: "loading" });
    try {
      setState({ status: "ready", tickets: await listTickets() });
    } catch (error) {
      console.error(error);
      setState({ status: "error" });
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  return { state, reload: load };
}
