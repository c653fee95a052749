import { type ComponentType, type FormEvent, type RefObject, useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router-dom";
import { adminLogin, INVALID_CREDENTIALS, signInOutcome, teamLogin } from "../../lib/admin-session.ts";
import { useAdminStore } from "../../lib/admin-store.ts";
import { CallFailed } from "../../lib/api.ts";
import "./ui.css";

/** A passkey's sign-in button, handed in by the page (features/team's SignInWithPasskeyButton). */
export type PasskeySignIn = ComponentType<{ onSignedIn: () => void }>;

type Mode = "owner" | "member";
type Shown = { kind: "error" | "ask"; text: string; detail?: string } | null;

/**
 * The organiser's sign-in, asked by every staff screen while the session is locked. It opens as
 * SPEC.md's modal (the owner's password and Submit); a team member switches to their email, password
 * and code (issue 49); the owner's password answered `second_factor_required` asks for a code too.
 * `PasskeySignIn` is the page's: components/ui imports no feature, so the admin page hands it in.
 */
export function LoginModal({ PasskeySignIn }: { PasskeySignIn?: PasskeySignIn } = {}) {
  const navigate = useNavigate();
  const unlock = useAdminStore((s) => s.unlock);
  // The set-up page's last step links to `/admin?sign-in=team`: the member's form, not the owner's.
  const [mode, setMode] = useState<Mode>(() =>
    new URLSearchParams(window.location.search).get("sign-in") === "team" ? "member" : "owner",
  );
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  // The owner's password was right but a second factor is on: the code field shows, the password stays.
  const [ownerCode, setOwnerCode] = useState(false);
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<Shown>(null);
  const first = useRef<HTMLInputElement>(null);
  const codeInput = useRef<HTMLInputElement>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the mode is what moves the focus
  useEffect(() => {
    first.current?.focus();
  }, [mode]);
  useEffect(() => {
    if (ownerCode) codeInput.current?.focus();
  }, [ownerCode]);

  const close = () => {
    // react-router numbers its history entries; with nothing to go back to, home is the way out.
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) navigate(-1);
    else navigate("/");
  };

  const switchTo = (next: Mode) => {
    setMode(next);
    setOwnerCode(false);
    setPassword("");
    setCode("");
    setShown(null);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setShown(null);
    try {
      const reply =
        mode === "member"
          ? await teamLogin(email.trim(), password, code.trim())
          : await adminLogin(password, ownerCode ? code.trim() : undefined);
      const outcome = signInOutcome(reply);
      if (outcome.kind === "signed-in") return unlock();
      if (outcome.kind === "code-needed") {
        setOwnerCode(true);
        setCode("");
        setShown({ kind: "ask", text: outcome.text });
        return;
      }
      setShown({ kind: "error", text: outcome.text, detail: outcome.detail });
      setPassword("");
      setCode("");
    } catch (err) {
      console.warn(err);
      setShown({
        kind: "error",
        text: INVALID_CREDENTIALS,
        detail: err instanceof CallFailed ? "The server could not be reached." : undefined,
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="admin-modal-backdrop">
      <div
        className="admin-modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby="admin-login-title"
        onKeyDown={(e) => {
          if (e.key === "Escape") close();
        }}
      >
        <div className="admin-modal-head">
          <h2 id="admin-login-title">{mode === "member" ? "Team sign-in" : "Admin login"}</h2>
          <button type="button" className="admin-close" aria-label="Close" onClick={close}>
            ×
          </button>
        </div>
        <form className="form" onSubmit={(e) => void submit(e)}>
          {mode === "member" ? (
            <div className="field">
              <label htmlFor="admin-email">Email</label>
              <input
                ref={first}
                id="admin-email"
                type="email"
                autoComplete="username"
                required
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
            </div>
          ) : null}
          <div className="field">
            <label htmlFor="admin-password">Password</label>
            <input
              ref={mode === "owner" ? first : undefined}
              id="admin-password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </div>
          {mode === "member" || ownerCode ? <CodeField input={codeInput} value={code} onChange={setCode} /> : null}
          <ShownMessage shown={shown} />
          <button type="submit" className="button primary" disabled={busy}>
            Submit
          </button>
        </form>
        <div className="login-other-ways">
          {PasskeySignIn ? <PasskeySignIn onSignedIn={unlock} /> : null}
          <button
            type="button"
            className="button link-button"
            onClick={() => switchTo(mode === "owner" ? "member" : "owner")}
          >
            {mode === "owner" ? "Sign in as a team member" : "Sign in with the owner's password"}
          </button>
        </div>
      </div>
    </div>
  );
}

/** A code from an authenticator app, or one of the ten recovery codes. */
function CodeField(props: { input: RefObject<HTMLInputElement | null>; value: string; onChange(v: string): void }) {
  return (
    <div className="field">
      <label htmlFor="admin-code">Code</label>
      <input
        ref={props.input}
        id="admin-code"
        autoComplete="one-time-code"
        autoCapitalize="off"
        spellCheck={false}
        required
        maxLength={40}
        aria-describedby="admin-code-hint"
        value={props.value}
        onChange={(e) => props.onChange(e.target.value)}
      />
      <p id="admin-code-hint" className="field-hint">
        The 6 digits your authenticator app shows, or one of your recovery codes.
      </p>
    </div>
  );
}

/** A refusal interrupts (alert); the request for a code is said politely (status). */
function ShownMessage({ shown }: { shown: Shown }) {
  if (!shown) return null;
  return (
    <div role={shown.kind === "error" ? "alert" : "status"} className={`admin-message ${shown.kind === "error" ? "error" : "ok"}`}>
      <p className="message">{shown.text}</p>
      {shown.detail ? <p className="admin-message-detail">{shown.detail}</p> : null}
    </div>
  );
}
