import { useSyncExternalStore } from "react";
import { lastAnswerServedOffline, onAnswerSourceChange } from "./served-offline.ts";

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

/** Whether the latest API answer came from the offline cache instead of the server. */
export function useServedOffline(): boolean {
  return useSyncExternalStore(onAnswerSourceChange, lastAnswerServedOffline, () => false);
}
