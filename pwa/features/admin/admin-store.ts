import { create } from "zustand";

/**
 * Whether the panel is unlocked. The server holds the real session (an HttpOnly cookie this code
 * cannot read); this only mirrors its last answer so any 401 can bring the password modal back.
 */
type AdminState = {
  status: "checking" | "locked" | "unlocked";
  lock(): void;
  unlock(): void;
};

export const useAdminStore = create<AdminState>((set) => ({
  status: "checking",
  lock: () => set({ status: "locked" }),
  unlock: () => set({ status: "unlocked" }),
}));
