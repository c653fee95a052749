import { useEffect } from "react";
import { create } from "zustand";
import type { FeedbackValue } from "../../lib/offline-db.ts";
import type { FeedbackLink } from "./link.ts";
import { lateCount, loadChoices, pendingCount, recordTap, startTapSync, subscribe } from "./tap-queue.ts";

type Notice = { id: number; message: string };

type FeedbackState = {
  /** The page whose choices are shown; events for other pages are ignored. */
  link: FeedbackLink | null;
  choices: Record<number, FeedbackValue>;
  pending: number;
  /** Taps that arrived after ratings closed (dropped by the server, counted on the device). */
  late: number;
  notices: Notice[];
  open(link: FeedbackLink): Promise<void>;
  refresh(): Promise<void>;
  tap(partnerId: number, feedback: FeedbackValue): Promise<void>;
  dismiss(id: number): void;
};

let nextNoticeId = 1;

export const useFeedbackStore = create<FeedbackState>()((set, get) => ({
  link: null,
  choices: {},
  pending: 0,
  late: 0,
  notices: [],
  async open(link) {
    set({ link, choices: {}, pending: 0, late: 0, notices: [] });
    await get().refresh();
  },
  async refresh() {
    const link = get().link;
    if (!link) return;
    const [choices, pending, late] = await Promise.all([
      loadChoices(link.eventID, link.userID),
      pendingCount(link.eventID, link.userID),
      lateCount(link.eventID, link.userID),
    ]);
    if (get().link !== link) return;
    set({ choices: Object.fromEntries([...choices].map(([id, c]) => [id, c.feedback])), pending, late });
  },
  async tap(partnerId, feedback) {
    const link = get().link;
    if (!link) return;
    // recordTap resolves once the tap is on the device; the highlight follows from what was stored.
    let choice: Awaited<ReturnType<typeof recordTap>>;
    try {
      choice = await recordTap({
        eventID: link.eventID,
        fromUserID: link.userID,
        toUserID: partnerId,
        feedback,
        token: link.token,
      });
    } catch (error) {
      // Storage refused (private mode, a full disk): say so rather than pretend the tap was kept.
      console.warn(error);
      if (get().link !== link) return;
      set((s) => ({
        notices: [
          ...s.notices,
          { id: nextNoticeId++, message: "Couldn't save your choice on this device. Please try again." },
        ],
      }));
      return;
    }
    // The count is read before the highlight is shown, and both change together: a page showing the
    // tap never says "All choices saved" while it still waits to be sent (a guest closing the page
    // then would think it was).
    // A count that cannot be read leaves the last one, and the queue's next change event reads it again.
    const pending = await pendingCount(link.eventID, link.userID).catch(() => get().pending);
    if (get().link !== link) return;
    set((s) => ({ choices: { ...s.choices, [partnerId]: choice.feedback }, pending }));
  },
  dismiss(id) {
    set((s) => ({ notices: s.notices.filter((n) => n.id !== id) }));
  },
}));

/** Binds the store to a page's link: loads its stored choices, follows the queue and keeps it syncing. */
export function usePartnerFeedback(link: FeedbackLink | null) {
  useEffect(() => {
    if (!link) return;
    const store = useFeedbackStore.getState();
    const unsubscribe = subscribe((event) => {
      const current = useFeedbackStore.getState().link;
      if (!current || event.eventID !== current.eventID || event.fromUserID !== current.userID) return;
      if (event.type === "notice") {
        useFeedbackStore.setState((s) => ({ notices: [...s.notices, { id: nextNoticeId++, message: event.message }] }));
      } else {
        void useFeedbackStore.getState().refresh();
      }
    });
    void store.open(link);
    const stopSync = startTapSync();
    return () => {
      unsubscribe();
      stopSync();
    };
  }, [link]);
  return useFeedbackStore();
}
