import { useCallback, useEffect, useRef, useState } from "react";
import { useOnline } from "../../lib/use-online.ts";
import { saveTicket, ticketFromReply } from "../tickets/index.ts";
import { getMyNights, type MeOutcome, signOut } from "./me-api.ts";

export type MeState = { kind: "loading" } | MeOutcome | { kind: "deleted" };

/**
 * /me's state: loading, signed out, signed in with the number's nights, offline or failed. Each
 * upcoming night's ticket is saved on this phone as soon as it arrives, as the success page and the
 * texted link save theirs, so it shows at the door without a network (docs/decisions/004-offline.md).
 * Loads again when the network comes back.
 */
export function useMyNights() {
  const [state, setState] = useState<MeState>({ kind: "loading" });
  const online = useOnline();
  const run = useRef(0);
  const load = useCallback(async () => {
    const mine = ++run.current;
    const outcome = await getMyNights();
    if (mine !== run.current) return;
    setState(outcome);
    if (outcome.kind === "signed-in") await saveUpcoming(outcome);
  }, []);
  useEffect(() => {
    if (online) void load();
    else setState((current) => (current.kind === "loading" ? { kind: "offline" } : current));
  }, [load, online]);
  const reload = useCallback(() => {
    setState({ kind: "loading" });
    return load();
  }, [load]);
  const leave = useCallback(async () => {
    const ended = await signOut();
    if (ended) {
      run.current++;
      setState({ kind: "signed-out" });
    }
    return ended;
  }, []);
  /** After **Delete my details**: the session is over; the page says the details are gone. */
  const deleted = useCallback(() => {
    run.current++;
    setState({ kind: "deleted" });
  }, []);
  const sessionGone = useCallback(() => {
    run.current++;
    setState({ kind: "signed-out" });
  }, []);
  // After a change made here (a cancel), the list is read again in place: no loading screen in between.
  const refresh = useCallback(() => void load(), [load]);
  return { state, reload, refresh, signOut: leave, deleted, sessionGone };
}

async function saveUpcoming(outcome: Extract<MeOutcome, { kind: "signed-in" }>) {
  for (const night of outcome.data.nights) {
    if (night.standing !== "upcoming") continue;
    try {
      await saveTicket(ticketFromReply(night.ticket));
    } catch (error) {
      // A browser that refuses storage (private mode, full disk) still shows the ticket on the page.
      console.error(error);
    }
  }
}
