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
 * The organiser's modal as it always was (the owner's password and Submit); a team member switches to their email, password
 * and code (issue 49); the owner's password answered `second_factor_required` asks for a code too.
 * `PasskeySignIn` is the page's: components/ui imports no feature, so the admin page hands it in.
 */
export function LoginModal({ PasskeySignIn }: { PasskeySignIn?: PasskeySignIn } = {}) {
  const navigate = useNavigate();
  const unlock = useAdminStore((s) => s.unlock);
  const form = useSignIn(unlock);
  const { mode, fields, ownerCode, busy, shown, submit, switchTo } = form;
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
                value={fields.email}
                onChange={(e) => form.set("email", e.target.value)}
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
              value={fields.password}
              onChange={(e) => form.set("password", e.target.value)}
            />
          </div>
          {mode === "member" || ownerCode ? (
            <CodeField input={codeInput} value={fields.code} onChange={(v) => form.set("code", v)} />
          ) : null}
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

type Fields = { email: string; password: string; code: string };
const EMPTY: Fields = { email: "", password: "", code: "" };

/**
 * The sign-in's fields and what each answer does: in (`onSignedIn`), the owner's code asked (the
 * password kept), or the refusal's words with the secrets cleared.
 */
function useSignIn(onSignedIn: () => void) {
  // The set-up page's last step links to `/admin?sign-in=team`: the member's form, not the owner's.
  const [mode, setMode] = useState<Mode>(() =>
    new URLSearchParams(window.location.search).get("sign-in") === "team" ? "member" : "owner",
  );
  const [fields, setFields] = useState<Fields>(EMPTY);
  // The owner's password was right but a second factor is on: the code field shows, the password stays.
  const [ownerCode, setOwnerCode] = useState(false);
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<Shown>(null);
  const set = (key: keyof Fields, value: string) => setFields((f) => ({ ...f, [key]: value }));

  const switchTo = (next: Mode) => {
    setMode(next);
    setOwnerCode(false);
    setFields((f) => ({ ...EMPTY, email: f.email }));
    setShown(null);
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setShown(null);
    const { email, password, code } = fields;
    try {
      const reply =
        mode === "member"
          ? await teamLogin(email.trim(), password, code.trim())
          : await adminLogin(password, ownerCode ? code.trim() : undefined);
      const outcome = signInOutcome(reply);
      if (outcome.kind === "signed-in") return onSignedIn();
      setFields((f) => (outcome.kind === "code-needed" ? { ...f, code: "" } : { ...f, password: "", code: "" }));
      if (outcome.kind === "code-needed") setOwnerCode(true);
      setShown(
        outcome.kind === "code-needed"
          ? { kind: "ask", text: outcome.text }
          : { kind: "error", text: outcome.text, detail: outcome.detail },
      );
    } catch (err) {
      console.warn(err);
      setShown({
        kind: "error",
        text: INVALID_CREDENTIALS,
        detail: err instanceof CallFailed ? "The server could not be reached." : undefined,
      });
      setFields((f) => ({ ...f, password: "", code: "" }));
    } finally {
      setBusy(false);
    }
  };
  return { mode, fields, set, ownerCode, busy, shown, submit, switchTo };
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
    <div
      role={shown.kind === "error" ? "alert" : "status"}
      className={`admin-message ${shown.kind === "error" ? "error" : "ok"}`}
    >
      <p className="message">{shown.text}</p>
      {shown.detail ? <p className="admin-message-detail">{shown.detail}</p> : null}
    </div>
  );
}
