import { type FormEvent, useEffect, useRef, useState } from "react";
import { useNavigate } from "react-router-dom";
import { adminLogin } from "../../lib/admin-session.ts";
import { useAdminStore } from "../../lib/admin-store.ts";
import { CallFailed } from "../../lib/api.ts";
import "./ui.css";

/** The organiser's password, asked by every staff screen while the session is locked. */
export function LoginModal() {
  const navigate = useNavigate();
  const unlock = useAdminStore((s) => s.unlock);
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ text: string; detail?: string } | null>(null);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    input.current?.focus();
  }, []);

  const close = () => {
    // react-router numbers its history entries; with nothing to go back to, home is the way out.
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) navigate(-1);
    else navigate("/");
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const reply = await adminLogin(password);
      if (reply.status === 200) {
        unlock();
        return;
      }
      setError({
        text: "Invalid credentials. Please try again.",
        detail: reply.status === 429 ? "Too many failed attempts. Wait 15 minutes before trying again." : undefined,
      });
    } catch (err) {
      console.warn(err);
      setError({
        text: "Invalid credentials. Please try again.",
        detail: err instanceof CallFailed ? "The server could not be reached." : undefined,
      });
    } finally {
      setBusy(false);
      setPassword("");
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
          <h2 id="admin-login-title">Admin login</h2>
          <button type="button" className="admin-close" aria-label="Close" onClick={close}>
            ×
          </button>
        </div>
        <form className="form" onSubmit={(e) => void submit(e)}>
          <div className="field">
            <label htmlFor="admin-password">Password</label>
            <input
              ref={input}
              id="admin-password"
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          </div>
          {error ? (
            <div role="alert" className="admin-message error">
              <p className="message">{error.text}</p>
              {error.detail ? <p className="admin-message-detail">{error.detail}</p> : null}
            </div>
          ) : null}
          <button type="submit" className="button primary" disabled={busy}>
            Submit
          </button>
        </form>
      </div>
    </div>
  );
}
