/**
 * The header the service worker puts on an answer it took from its cache because the network did
 * not answer. Browsers often keep `navigator.onLine` true on a dead or captive Wi-Fi ("lie-fi"), so
 * the last API answer's source is the better sign that the page is showing saved data. Its own
 * module, with the last answer's source, so the service worker and the API client import no React.
 */
export const SERVED_OFFLINE_HEADER = "x-sdt-served-offline";

let servedOffline = false;
const listeners = new Set<() => void>();

/** api-reply.ts reports where each answer came from: the network (false) or the offline cache (true). */
export function noteAnswerSource(fromOfflineCache: boolean) {
  if (fromOfflineCache === servedOffline) return;
  servedOffline = fromOfflineCache;
  for (const listener of listeners) listener();
}

/** Whether the latest API answer came from the offline cache instead of the server. */
export const lastAnswerServedOffline = () => servedOffline;

/** Calls `onChange` whenever that changes; returns the unsubscribe. */
export function onAnswerSourceChange(onChange: () => void): () => void {
  listeners.add(onChange);
  return () => listeners.delete(onChange);
}

/**
 * Calls `onChange` whenever the browser's idea of having a network changes; returns the unsubscribe.
 * Here, without React, so the offline banner in the first bundle and the hooks in use-online.ts share
 * it while use-online.ts stays out of that bundle (docs/decisions/007-scale.md).
 */
export function onOnlineChange(onChange: () => void): () => void {
  globalThis.addEventListener("online", onChange);
  globalThis.addEventListener("offline", onChange);
  return () => {
    globalThis.removeEventListener("online", onChange);
    globalThis.removeEventListener("offline", onChange);
  };
}
