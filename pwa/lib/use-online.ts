import { useSyncExternalStore } from "react";
import { lastAnswerServedOffline, onAnswerSourceChange, onOnlineChange } from "./served-offline.ts";

/** Whether the browser believes it has a network. */
export function useOnline(): boolean {
  return useSyncExternalStore(
    onOnlineChange,
    () => navigator.onLine,
    () => true,
  );
}

/** Whether the latest API answer came from the offline cache instead of the server. */
export function useServedOffline(): boolean {
  return useSyncExternalStore(onAnswerSourceChange, lastAnswerServedOffline, () => false);
}
