import { type ComponentType, lazy, Suspense, useSyncExternalStore } from "react";
import { useLocation } from "react-router-dom";
import { lastAnswerServedOffline, onAnswerSourceChange, onOnlineChange } from "../lib/served-offline.ts";

// The sentences are a chunk of their own, fetched (from the service worker's precache) only when the
// phone is offline, so they stay out of the home page's first download (docs/decisions/007-scale.md).
// A chunk that can't be had shows the first words alone.
const OfflineMessage = lazy<ComponentType<{ pathname: string }>>(() =>
  import("./offline-message.ts").then(
    (m) => ({ default: ({ pathname }: { pathname: string }) => <>{m.offlineMessage(pathname)}</> }),
    () => ({ default: () => null }),
  ),
);

/**
 * A visible, announced banner while offline (or while answers come from what this phone kept), below
 * the header, saying what still works on this page, so nobody wonders why nothing refreshes.
 */
export function OfflineIndicator() {
  // useOnline/useServedOffline's own lines, not an import of use-online.ts: with that module (shared
  // with lazy pages) in the first bundle, the bundler split React into a chunk of its own, 0.6 KB
  // gzipped more of the home page's first load (docs/decisions/007-scale.md).
  const online = useSyncExternalStore(
    onOnlineChange,
    () => navigator.onLine,
    () => true,
  );
  const servedOffline = useSyncExternalStore(onAnswerSourceChange, lastAnswerServedOffline, () => false);
  const { pathname } = useLocation();
  if (online && !servedOffline) return null;
  return (
    <div className="offline-indicator" role="status">
      <strong>You're offline.</strong>{" "}
      <Suspense fallback={null}>
        <OfflineMessage pathname={pathname} />
      </Suspense>
    </div>
  );
}
