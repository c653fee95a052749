import { useEffect, useRef } from "react";
import { type HostAccess, useAdminStore } from "../../lib/admin-store.ts";
import { CallFailed } from "../../lib/api.ts";
import { useReply } from "../../lib/use-reply.ts";
import { hostLogin, hostSession, keepHost, keptHost } from "./host-api.ts";

type Settled =
  | { status: "ready"; host: HostAccess }
  /** Revoked or expired: the server said 401 (to the sign-in or to any call after it). */
  | { status: "ended" }
  /** The link in the address is not a host link (cut off when copied, say). */
  | { status: "invalid" }
  /** Offline with nothing kept: the first visit needs the network. */
  | { status: "offline" }
  /** Before the event's doors open the link does not sign in yet (the token stays in the address). */
  | { status: "not-open"; doorsOpenAt: string; timeZone: string };

export type HostState = { status: "checking" } | Settled;

/**
 * Signs this phone in with the link's token (`/host?t=…`), then drops the token from the address so
 * it stays out of the history; without a token, asks the server whether the session still lives.
 * Read through useReply, whose loading state is `checking` here. Any 401 later (a door or rounds
 * call) locks the admin store, which is read here as "access ended".
 */
export function useHostAccess(token: string | null, dropToken: () => void): HostState {
  const locked = useAdminStore((s) => s.status === "locked");
  // A page left before the server answered signs nobody in.
  const mounted = useRef(true);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const ready = (host: HostAccess): Settled => {
    if (mounted.current) {
      const { setHost, unlock } = useAdminStore.getState();
      keepHost(host);
      setHost(host);
      unlock();
    }
    return { status: "ready", host };
  };
  const ended = (): Settled => {
    if (mounted.current) {
      keepHost(null);
      useAdminStore.getState().setHost(null);
    }
    return { status: "ended" };
  };

  // The page reads the token once, so the key never changes while it is open.
  const { state, setState } = useReply<Settled, string>(token ?? "session", {
    async load(): Promise<Settled> {
      const reply = token ? await hostLogin(token) : await hostSession();
      if (!reply.ok && reply.data.code === "host_link_not_open") {
        // Kept in the address, so a reload once the doors are open signs in.
        return { status: "not-open", doorsOpenAt: reply.data.doorsOpenAt, timeZone: reply.data.timeZone };
      }
      if (token && mounted.current) dropToken();
      if (reply.ok) return ready(reply.data);
      if (reply.status === 403) return { status: "invalid" };
      return ended();
    },
    failed(error) {
      if (!(error instanceof CallFailed)) throw error;
      // Offline: what this phone kept from its last visit opens the door view; the queued
      // check-ins meet the server's check when the network is back.
      const kept = keptHost();
      return kept ? ready(kept) : { status: "offline" };
    },
  });

  useEffect(() => {
    if (locked && state.status === "ready") {
      keepHost(null);
      useAdminStore.getState().setHost(null);
      setState({ status: "ended" });
    }
  }, [locked, state.status, setState]);

  return state.status === "loading" ? { status: "checking" } : state;
}
