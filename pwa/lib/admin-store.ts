import { create } from "zustand";

/** A phone signed in through a host link: one event's Door and Rounds (docs/decisions/022-host-access.md). */
export type HostAccess = { eventID: number; eventName: string; timeZone: string; label: string; expiresAt: string };

/**
 * Whether the panel is unlocked. The server holds the real session (an HttpOnly cookie this code
 * cannot read); this only mirrors its last answer so any 401 can bring the password modal back.
 * On a host's phone `host` is set: the door and the rounds then read that one event, and a 401
 * (`lock`) means the host's access ended.
 */
type AdminState = {
  status: "checking" | "locked" | "unlocked";
  host: HostAccess | null;
  lock(): void;
  unlock(): void;
  setHost(host: HostAccess | null): void;
};

export const useAdminStore = create<AdminState>((set) => ({
  status: "checking",
  host: null,
  lock: () => set({ status: "locked" }),
  unlock: () => set({ status: "unlocked" }),
  setHost: (host) => set({ host }),
}));
