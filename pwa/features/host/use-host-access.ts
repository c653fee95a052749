import { useEffect, useState } from "react";
import { type HostAccess, useAdminStore } from "../../lib/admin-store.ts";
import { CallFailed } from "../../lib/api.ts";
import { hostLogin, hostSession, keepHost, keptHost } from "./host-api.ts";

export type HostState =
  | { status: "checking" }
  | { status: "ready"; host: HostAccess }
  /** Revoked or expired: the server said 401 (to the sign-in or to any call after it). */
  | { status: "ended" }
  /** The link in the address is not a host link (cut off when copied, say). */
  | { status: "invalid" }
  /** Offline with nothing kept: the first visit needs the network. */
  | { status: "offline" }
  /** Before the event's doors open the link does not sign in yet (the token stays in the address). */
  | { status: "not-open"; doorsOpenAt: string; timeZone: string };

/**
 * Signs this phone in with the link's token (`/host?t=…`), then drops the token from the address so
 * it stays out of the history; without a token, asks the server whether the session still lives.
 * Any 401 later (a door or rounds call) locks the admin store, which is read here as "access ended".
 */
export function useHostAccess(token: string | null, dropToken: () => void): HostState {
  const [state, setState] = useState<HostState>({ status: "checking" });
  const locked = useAdminStore((s) => s.status === "locked");

  useEffect(() => {
    let live = true;
    const { setHost, unlock } = useAdminStore.getState();
    const ready = (host: HostAccess) => {
      keepHost(host);
      setHost(host);
      unlock();
      setState({ status: "ready", host });
    };
    const ended = () => {
      keepHost(null);
      setHost(null);
      setState({ status: "ended" });
    };
    void (async () => {
      try {
        const reply = token ? await hostLogin(token) : await hostSession();
        if (!live) return;
        if (!reply.ok && reply.data.code === "host_link_not_open") {
          // Kept in the address, so a reload once the doors are open signs in.
          setState({ status: "not-open", doorsOpenAt: reply.data.doorsOpenAt, timeZone: reply.data.timeZone });
          return;
        }
        if (token) dropToken();
        if (reply.ok) ready(reply.data);
        else if (reply.status === 403) setState({ status: "invalid" });
        else ended();
      } catch (error) {
        if (!(error instanceof CallFailed)) throw error;
        if (!live) return;
        // Offline: what this phone kept from its last visit opens the door view; the queued
        // check-ins meet the server's check when the network is back.
        const kept = keptHost();
        if (kept) ready(kept);
        else setState({ status: "offline" });
      }
    })();
    return () => {
      live = false;
    };
  }, [token, dropToken]);

  useEffect(() => {
    if (locked && state.status === "ready") {
      keepHost(null);
      useAdminStore.getState().setHost(null);
      setState({ status: "ended" });
    }
  }, [locked, state.status]);

  return state;
}
