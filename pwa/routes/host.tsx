import { HostView } from "../features/host/components/host-view.tsx";

/** What a host link opens: `/host?t={token}` signs the phone in; `/host` alone comes back to it. */
export function HostPage() {
  return <HostView />;
}
