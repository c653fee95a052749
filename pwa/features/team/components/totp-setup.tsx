import { type FormEvent, useEffect, useRef, useState } from "react";
import { codeError, totpCode } from "../team-forms.ts";

/** The key inside an `otpauth://totp/…?secret=…` address, in fours, for typing into an app by hand. */
export function setupKey(otpauthUri: string): string {
  let secret = "";
  try {
    secret = new URL(otpauthUri).searchParams.get("secret") ?? "";
  } catch {
    return "";
  }
  return secret.replace(/(.{4})(?=.)/g, "$1 ");
}

type Props = {
  otpauthUri: string;
  /** Sends the code; answers the words to show beside the field when it is refused. */
  onCode(code: string): Promise<string | undefined>;
};

/**
 * An authenticator app's set-up: the QR code to scan (drawn here from the `otpauth://` address, with
 * `qrcode` loaded only now), the address as a link a phone opens in its app, the key to type by hand,
 * then the code the app shows, which proves the app has the key.
 */
export function TotpSetup({ otpauthUri, onCode }: Props) {
  const [qr, setQr] = useState<string | null>(null);
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    let live = true;
    import("qrcode")
      .then((QRCode) => QRCode.toDataURL(otpauthUri, { margin: 1, width: 220 }))
      .then((url) => live && setQr(url))
      .catch((e: unknown) => console.warn(e));
    return () => {
      live = false;
    };
  }, [otpauthUri]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (busy) return;
    const code = totpCode(typed);
    if (code === null) {
      setError(codeError(typed));
      input.current?.focus();
      return;
    }
    setBusy(true);
    setError(undefined);
    const refused = await onCode(code);
    setBusy(false);
    if (refused) {
      setError(refused);
      setTyped("");
      input.current?.focus();
    }
  };

  return (
    <div className="totp-setup">
      <p>Scan this code with your authenticator app (Google Authenticator, 1Password, Authy or another).</p>
      {qr ? (
        <img className="totp-qr" src={qr} width={220} height={220} alt="QR code for your authenticator app" />
      ) : null}
      <p className="admin-hint">
        On this phone? <a href={otpauthUri}>Open it in your authenticator app</a>. Or type this key in the app:{" "}
        <code className="totp-key">{setupKey(otpauthUri)}</code>
      </p>
      <form className="form" noValidate onSubmit={(e) => void submit(e)}>
        <div className="field">
          <label htmlFor="totp-code">Code from the app</label>
          <input
            ref={input}
            id="totp-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={9}
            value={typed}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "totp-code-error" : undefined}
            onChange={(e) => setTyped(e.target.value)}
          />
          {error ? (
            <p id="totp-code-error" className="message error" role="alert">
              {error}
            </p>
          ) : null}
        </div>
        <button type="submit" className="button primary" disabled={busy}>
          Confirm the code
        </button>
      </form>
    </div>
  );
}
