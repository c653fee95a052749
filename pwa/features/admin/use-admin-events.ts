import { useCallback, useEffect, useState } from "react";
import { type AdminEventSummary, listEvents } from "./admin-api.ts";

type State =
  | { status: "loading" }
  | { status: "error"; message: string }
  | { status: "ready"; events: AdminEventSummary[] };

/** Every event, ended ones included (an organiser still refunds and reviews them). */
export function useAdminEvents() {
  const [state, setState] = useState<State>({ status: "loading" });
  const load = useCallback(async () => {
    try {
      const reply = await listEvents();
      if (!reply.ok || !Array.isArray(reply.data)) {
        setState({ status: "error", message: "Couldn't load the events." });
        return;
      }
      setState({ status: "ready", events: reply.data });
    } catch (error) {
      console.warn(error);
      setState({ status: "error", message: "Couldn't reach the server to load the events." });
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);
  return { state, reload: load };
}
