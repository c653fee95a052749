import { useState } from "react";
import { addPasskey, signInWithPasskey } from "./passkeys.ts";

// The two passkey buttons (issue 49) the admin pages place: on the set-up link's page and in the
// signed-in settings (Add a passkey), and in the sign-in modal (Sign in with a passkey). Each runs its
// ceremony (./passkeys.ts) and shows its own error; the page decides what happens after success.

type Props = {
  /** The set-up link's token: the button then finishes that member's set-up. */
  setupToken?: string;
  /** Called once the passkey is saved; during set-up with the member's ten recovery codes. */
  onAdded: (result: { recoveryCodes?: string[] }) => void;
};

/** **Add a passkey**: during set-up (with the link's token), or for the signed-in owner or member. */
export function AddPasskeyButton({ setupToken, onAdded }: Props) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const add = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    const outcome = await addPasskey(setupToken);
    setBusy(false);
    if (outcome.ok) onAdded(outcome.data);
    else setError(outcome.message);
  };
  return (
    <div className="passkey-button">
      <button type="button" className="button primary" disabled={busy} onClick={() => void add()}>
        Add a passkey
      </button>
      {error ? (
        <p role="alert" className="admin-message error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** **Sign in with a passkey**: opens an organiser session with a passkey this browser offers. */
export function SignInWithPasskeyButton({ onSignedIn }: { onSignedIn: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const signIn = async () => {
    if (busy) return;
    setBusy(true);
    setError(null);
    const outcome = await signInWithPasskey();
    setBusy(false);
    if (outcome.ok) onSignedIn();
    else setError(outcome.message);
  };
  return (
    <div className="passkey-button">
      <button type="button" className="button" disabled={busy} onClick={() => void signIn()}>
        Sign in with a passkey
      </button>
      {error ? (
        <p role="alert" className="admin-message error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
