import { type ReactNode, useEffect, useState } from "react";
import { LoginModal } from "../../../components/ui/login-modal.tsx";
import { adminSession } from "../../../lib/admin-session.ts";
import { useAdminStore } from "../../../lib/admin-store.ts";
import { useOnline } from "../../../lib/use-online.ts";
// The modal's styles and the loading line's: the staff screens' shared shells (components/ui/ui.css).
import "../../../components/ui/ui.css";

/**
 * The admin session in front of the door view, with the admin panel's own password modal. Offline
 * the server cannot be asked: the door view then opens on what this phone kept from its last visit
 * with a session (the server still checks the session when the queued check-ins are sent).
 */
export function DoorGate({ children }: { children: ReactNode }) {
  const status = useAdminStore((s) => s.status);
  const lock = useAdminStore((s) => s.lock);
  const unlock = useAdminStore((s) => s.unlock);
  const online = useOnline();
  const [unreachable, setUnreachable] = useState(false);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `online` re-asks the server once the network is back
  useEffect(() => {
    if (status !== "checking") return;
    let live = true;
    adminSession()
      .then((reply) => {
        if (!live) return;
        setUnreachable(false);
        if (reply.ok && reply.data.admin) unlock();
        else lock();
      })
      .catch(() => live && setUnreachable(true));
    return () => {
      live = false;
    };
  }, [status, online, lock, unlock]);

  if (status === "locked") return <LoginModal />;
  if (status === "checking" && !unreachable) {
    return (
      <p role="status" className="door-loading">
        Checking your session...
      </p>
    );
  }
  return <>{children}</>;
}
