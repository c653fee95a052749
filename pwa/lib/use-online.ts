import { useSyncExternalStore } from "react";

const subscribe = (onChange: () => void) => {
  window.addEventListener("online", onChange);
  window.addEventListener("offline", onChange);
  return () => {
    window.removeEventListener("online", onChange);
    window.removeEventListener("offline", onChange);
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
