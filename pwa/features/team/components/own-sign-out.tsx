import { useState } from "react";
import { useConfirm } from "../../../components/ui/confirm-dialog.tsx";
import { useAdminStore } from "../../../lib/admin-store.ts";
import { signOutEverywhere } from "../team-api.ts";
import "../team.css";

/**
 * **Sign out everywhere** for whoever is signed in (the owner's password, or a member): after a second
 * look, every one of their sessions ends, this browser's too, so the sign-in comes back here.
 */
export function SignOutEverywhereButton({ who }: { who: "owner" | "member" }) {
  const lock = useAdminStore((s) => s.lock);
  const { confirm, dialog } = useConfirm();
  const [error, setError] = useState<string | null>(null);
  const onSignOut = async () => {
    const go = await confirm({
      title: "Sign out everywhere?",
      lines: [
        who === "owner"
          ? "Every session opened with the owner's password ends: on this device and on any other."
          : "Every session of yours ends: on this device and on any other.",
      ],
      confirmLabel: "Sign out everywhere",
    });
    if (!go) return;
    setError(null);
    try {
      const reply = await signOutEverywhere();
      if (reply.ok) lock();
      else setError("Couldn't sign out everywhere. Try again.");
    } catch {
      setError("Couldn't reach the server. Try again.");
    }
  };
  return (
    <>
      <button type="button" className="button admin-logout" onClick={() => void onSignOut()}>
        Sign out everywhere
      </button>
      {error ? (
        <p role="alert" className="admin-message error">
          {error}
        </p>
      ) : null}
      {dialog}
    </>
  );
}
