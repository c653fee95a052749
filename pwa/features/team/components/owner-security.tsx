import { useState } from "react";
import { FormMessage, type Message } from "../../../components/ui/form-message.tsx";
import { ReplyView } from "../../../components/ui/reply-view.tsx";
import { useReply } from "../../../lib/use-reply.ts";
import { AddPasskeyButton } from "../passkey-buttons.tsx";
import {
  confirmOwnerTotp,
  getOwnerSecurity,
  type OwnerSecurityState,
  setSecondFactorRequired,
  startOwnerTotp,
} from "../team-api.ts";
import { RecoveryCodes } from "./recovery-codes.tsx";
import { TotpSetup } from "./totp-setup.tsx";

type Read = { status: "ready"; security: OwnerSecurityState } | { status: "error"; message: string };
/** Where the authenticator's set-up is: not started, the QR shown, the codes shown once. */
type Totp = { at: "idle" } | { at: "scan"; otpauthUri: string } | { at: "codes"; recoveryCodes: string[] };

const UNREACHABLE = "Couldn't reach the server. Try again.";
export const REQUIRE_LABEL = "Require a second factor for the owner password";

/**
 * The owner's own sign-in (issue 49): **Add a passkey**, an authenticator app (QR, then a code, then
 * the ten recovery codes once), and the switch **Require a second factor for the owner password**,
 * which stays off (the password's sign-in as it always was) and cannot be turned on until a passkey or the app exists.
 */
export function OwnerSecurity() {
  const read = useReply("owner-security", {
    load: async (): Promise<Read> => {
      const reply = await getOwnerSecurity();
      return reply.ok
        ? { status: "ready", security: reply.data }
        : { status: "error", message: "Couldn't load your sign-in settings." };
    },
    failed: (): Read => ({
      status: "error",
      message: "Couldn't load your sign-in settings: the server could not be reached.",
    }),
  });
  const [message, setMessage] = useState<Message>(null);

  return (
    <section className="team-section" aria-labelledby="owner-security-title">
      <h2 id="owner-security-title">Your sign-in</h2>
      <ReplyView
        state={read.state}
        loading={
          <p role="status" className="admin-loading">
            Loading your sign-in settings...
          </p>
        }
        onRetry={read.reload}
      >
        {({ security }) => (
          <OwnerFactors
            security={security}
            onMessage={setMessage}
            onChanged={() => {
              void read.refresh();
            }}
          />
        )}
      </ReplyView>
      <FormMessage message={message} />
    </section>
  );
}

type FactorsProps = { security: OwnerSecurityState; onMessage(message: Message): void; onChanged(): void };

/** The owner's passkeys and authenticator app, the set-up of either, and the switch. */
function OwnerFactors({ security, onMessage, onChanged }: FactorsProps) {
  const [totp, setTotp] = useState<Totp>({ at: "idle" });
  const [busy, setBusy] = useState(false);
  const hasFactor = security.passkeys > 0 || security.totp;

  const run = async (call: () => Promise<void>) => {
    if (busy) return;
    setBusy(true);
    onMessage(null);
    try {
      await call();
    } catch {
      onMessage({ kind: "error", text: UNREACHABLE });
    } finally {
      setBusy(false);
    }
  };

  const startTotp = () =>
    run(async () => {
      const reply = await startOwnerTotp();
      if (reply.ok) setTotp({ at: "scan", otpauthUri: reply.data.otpauthUri });
      else onMessage({ kind: "error", text: "Couldn't start the authenticator set-up." });
    });

  const toggle = (required: boolean) =>
    run(async () => {
      const reply = await setSecondFactorRequired(required);
      if (!reply.ok) onMessage({ kind: "error", text: "Add a passkey or an authenticator app first." });
      else
        onMessage({
          kind: "ok",
          text: required
            ? "The password alone no longer signs you in: a code or a passkey is asked too."
            : "The password alone signs you in again.",
        });
      onChanged();
    });

  const confirm = async (code: string) => {
    try {
      const reply = await confirmOwnerTotp(code);
      if (!reply.ok) return "That code is not the one the app shows now. Type the current code.";
      setTotp({ at: "codes", recoveryCodes: reply.data.recoveryCodes });
      return undefined;
    } catch {
      return UNREACHABLE;
    }
  };

  return (
    <>
      <ul className="owner-factors">
        <li>Passkeys: {security.passkeys === 0 ? "none yet" : security.passkeys}</li>
        <li>Authenticator app: {security.totp ? "set up" : "not set up"}</li>
      </ul>
      <AddPasskeyButton
        onAdded={() => {
          onMessage({ kind: "ok", text: "Your passkey is added." });
          onChanged();
        }}
      />
      {totp.at === "idle" && !security.totp ? (
        <button type="button" className="button" disabled={busy} onClick={() => void startTotp()}>
          Set up an authenticator app
        </button>
      ) : null}
      {totp.at === "scan" ? <TotpSetup otpauthUri={totp.otpauthUri} onCode={confirm} /> : null}
      {totp.at === "codes" ? (
        <RecoveryCodes
          codes={totp.recoveryCodes}
          onSaved={() => {
            setTotp({ at: "idle" });
            onMessage({ kind: "ok", text: "Your authenticator app is set up." });
            onChanged();
          }}
        />
      ) : null}
      <label className="admin-check owner-require">
        <input
          type="checkbox"
          role="switch"
          aria-checked={security.requireSecondFactor}
          checked={security.requireSecondFactor}
          disabled={busy || (!hasFactor && !security.requireSecondFactor)}
          aria-describedby="owner-require-hint"
          onChange={(e) => void toggle(e.target.checked)}
        />
        {REQUIRE_LABEL}
      </label>
      <p id="owner-require-hint" className="admin-hint">
        {hasFactor
          ? "When on, the password alone answers with a request for a code or a passkey."
          : "Add a passkey or an authenticator app first: then the password alone can be refused."}
      </p>
    </>
  );
}
