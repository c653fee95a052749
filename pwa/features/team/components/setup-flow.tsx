import { type FormEvent, useEffect, useRef, useState } from "react";
import { Link } from "react-router-dom";
import { paths } from "../../../app/paths.ts";
import { AddPasskeyButton } from "../passkey-buttons.tsx";
import { setupPassword, setupTotp } from "../team-api.ts";
import { PASSWORD_MAX, type PasswordErrors, passwordErrors } from "../team-forms.ts";
import { RecoveryCodes } from "./recovery-codes.tsx";
import { TotpSetup } from "./totp-setup.tsx";

type Step =
  | { step: "choose" }
  | { step: "password" }
  | { step: "totp"; otpauthUri: string }
  | { step: "codes"; recoveryCodes: string[] }
  | { step: "done" }
  | { step: "dead" };

/** What the page says of a link that no longer works: used, past its 72 hours, or its member removed. */
export const DEAD_LINK = "This set-up link no longer works";

const UNREACHABLE = "The server could not be reached. Check the connection and try again.";

/**
 * The set-up link's page (`/admin/setup?t={token}`, issue 49): the member chooses a passkey or a
 * password with an authenticator app, sees their ten recovery codes once, then goes to /admin. Any
 * call answering `setup_link_invalid` (410) shows the dead link's message instead.
 */
export function SetupFlow({ token }: { token: string | null }) {
  const [at, setAt] = useState<Step>(token ? { step: "choose" } : { step: "dead" });
  const [problem, setProblem] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // Each step replaces the one before: the focus starts again at its heading.
  useEffect(() => {
    if (at.step !== "choose" && at.step !== "codes") heading.current?.focus();
  }, [at.step]);

  /** A refused call: the dead link's page, or words beside the step. */
  const refused = (reply: { status: number; data: { code?: string; error?: string } }, fallback: string) => {
    if (reply.status === 410 || reply.data.code === "setup_link_invalid") setAt({ step: "dead" });
    else setProblem(fallback);
  };

  if (at.step === "dead" || !token) {
    return (
      <section className="team-setup" aria-labelledby="setup-title">
        <h2 id="setup-title" ref={heading} tabIndex={-1}>
          {DEAD_LINK}
        </h2>
        <p role="alert">
          It was already used, it is more than 72 hours old, or it was withdrawn. Ask the owner to press Resend on the
          Team tab: a new link comes by email.
        </p>
      </section>
    );
  }
  if (at.step === "codes") {
    return <RecoveryCodes codes={at.recoveryCodes} onSaved={() => setAt({ step: "done" })} />;
  }
  if (at.step === "done") {
    return (
      <section className="team-setup" aria-labelledby="setup-title">
        <h2 id="setup-title" ref={heading} tabIndex={-1}>
          You're set up
        </h2>
        <p>From now on, sign in at the admin page with your email and the way you chose.</p>
        <Link className="button primary" to={`${paths.admin}?sign-in=team`} replace>
          Go to the admin page
        </Link>
      </section>
    );
  }
  const totpStep = at.step === "totp" ? at : null;
  return (
    <section className="team-setup" aria-labelledby="setup-title">
      <h2 id="setup-title" ref={heading} tabIndex={-1}>
        {totpStep ? "Connect your authenticator app" : "Set up your sign-in"}
      </h2>
      {problem ? (
        <p role="alert" className="admin-message error">
          {problem}
        </p>
      ) : null}
      {at.step === "choose" ? (
        <Choose
          token={token}
          onCodes={(recoveryCodes) => setAt({ step: "codes", recoveryCodes })}
          onPassword={() => setAt({ step: "password" })}
        />
      ) : null}
      {at.step === "password" ? (
        <PasswordStep
          onSend={async (password) => {
            setProblem(null);
            try {
              const reply = await setupPassword(token, password);
              if (reply.ok) setAt({ step: "totp", otpauthUri: reply.data.otpauthUri });
              else refused(reply, "Couldn't save the password. Try another one.");
            } catch {
              setProblem(UNREACHABLE);
            }
          }}
        />
      ) : null}
      {totpStep ? (
        <TotpSetup
          otpauthUri={totpStep.otpauthUri}
          onCode={async (code) => {
            setProblem(null);
            try {
              const reply = await setupTotp(token, code);
              if (reply.ok) return void setAt({ step: "codes", recoveryCodes: reply.data.recoveryCodes });
              if (reply.status === 410) return void setAt({ step: "dead" });
              return "That code is not the one the app shows now. Type the current code.";
            } catch {
              return UNREACHABLE;
            }
          }}
        />
      ) : null}
    </section>
  );
}

/** A passkey (the quickest), or a password with an authenticator app. */
function Choose(props: { token: string; onCodes(codes: string[]): void; onPassword(): void }) {
  return (
    <div className="team-setup-choices">
      <div className="team-setup-choice">
        <h3>A passkey</h3>
        <p>Face ID, a fingerprint, your phone or a security key: nothing to type or remember.</p>
        <AddPasskeyButton setupToken={props.token} onAdded={(r) => props.onCodes(r.recoveryCodes ?? [])} />
      </div>
      <div className="team-setup-choice">
        <h3>A password and an authenticator app</h3>
        <p>A password you choose, then a code from an app on your phone each time you sign in.</p>
        <button type="button" className="button" onClick={props.onPassword}>
          Use a password and an app
        </button>
      </div>
    </div>
  );
}

/** The member's password, typed twice, checked here before it is sent. */
function PasswordStep({ onSend }: { onSend(password: string): Promise<void> }) {
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [errors, setErrors] = useState<PasswordErrors>({});
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const found = passwordErrors(password, confirm);
    setErrors(found);
    if (found.password || found.confirm) {
      document.getElementById(found.password ? "setup-password" : "setup-confirm")?.focus();
      return;
    }
    setBusy(true);
    await onSend(password);
    setBusy(false);
  };
  const field = (id: string, label: string, value: string, set: (v: string) => void, error?: string) => (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        type="password"
        autoComplete="new-password"
        maxLength={PASSWORD_MAX + 20}
        value={value}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => set(e.target.value)}
      />
      {error ? (
        <p id={`${id}-error`} className="message error">
          {error}
        </p>
      ) : null}
    </div>
  );
  return (
    <form className="form" noValidate onSubmit={(e) => void submit(e)}>
      {field("setup-password", "New password", password, setPassword, errors.password)}
      {field("setup-confirm", "Type it again", confirm, setConfirm, errors.confirm)}
      <button type="submit" className="button primary" disabled={busy}>
        Save the password
      </button>
    </form>
  );
}
