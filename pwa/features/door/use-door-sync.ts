import { useEffect } from "react";
import { useAdminStore } from "../../lib/admin-store.ts";
import { flushCheckIns, startCheckInSync, subscribeCheckIns } from "./check-in-queue.ts";
import { useDoorStore } from "./door-store.ts";

/** Two phones at one door see each other's check-ins at least this often while online. */
export const SYNC_EVERY_MS = 30_000;

/**
 * Binds the door view to the queue and the server: loads the events, follows the queue, sends what
 * waits (now, on `online`, on Background Sync) and, every 30 seconds while online, sends and then
 * fetches the roster again.
 */
export function useDoorSync() {
  useEffect(() => {
    void useDoorStore.getState().loadEvents();
    const unsubscribe = subscribeCheckIns((event) => {
      const store = useDoorStore.getState();
      if (event.type === "session-lapsed") {
        useAdminStore.getState().lock();
        return;
      }
      if (event.eventID !== store.eventID) return;
      if (event.type === "notice") store.notify(event.message);
      else if (event.type === "synced") void store.synced();
      else void store.reloadPending();
    });
    const stopQueue = startCheckInSync();
    let busy = false;
    const sync = async () => {
      if (busy || !navigator.onLine) return;
      busy = true;
      try {
        await flushCheckIns();
        await useDoorStore.getState().refresh({ quiet: true });
      } finally {
        busy = false;
      }
    };
    const timer = setInterval(() => void sync(), SYNC_EVERY_MS);
    const onOnline = () => void sync();
    window.addEventListener("online", onOnline);
    return () => {
      unsubscribe();
      stopQueue();
      clearInterval(timer);
      window.removeEventListener("online", onOnline);
    };
  }, []);
}
