import { useOnline, useServedOffline } from "../lib/use-online.ts";

/** A visible, announced banner while offline, so nobody wonders why nothing refreshes. */
export function OfflineIndicator() {
  const online = useOnline();
  const servedOffline = useServedOffline();
  if (online && !servedOffline) return null;
  return (
    <div className="offline-indicator" role="status">
      You're offline. Saved tickets and events still work; your choices will sync when you're back online.
    </div>
  );
}
