import { useSyncExternalStore } from "react";

// globalThis, not window: api.ts imports this module, and the service worker (pwa/sw.ts) imports api.ts.
const subscribe = (onChange: () => void) => {
  globalThis.addEventListener("online", onChange);
  globalThis.addEventListener("offline", onChange);
  return () => {
    globalThis.removeEventListener("online", onChange);
    globalThis.removeEventListener("offline", onChange);
  };
};

/** Whether the browser believes it has a network. */
export function useOnline(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
}

let servedOffline = false;
const listeners = new Set<() => void>();

/** api.ts reports where each answer came from: the network (false) or the offline cache (true). */
export function noteAnswerSource(fromOfflineCache: boolean) {
  if (fromOfflineCache === servedOffline) return;
  servedOffline = fromOfflineCache;
  for (const listener of listeners) listener();
}

/** Whether the latest API answer came from the offline cache instead of the server. */
export function useServedOffline(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
    () => servedOffline,
    () => false,
  );
}
