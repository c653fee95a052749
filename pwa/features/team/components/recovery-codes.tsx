import { useEffect, useRef } from "react";

/**
 * The ten recovery codes, shown this once (the server keeps only their hashes): each works one time
 * in place of an authenticator code. **I have saved these** moves on; nothing shows them again.
 */
export function RecoveryCodes({ codes, onSaved }: { codes: readonly string[]; onSaved(): void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The codes replace the form that was focused: the reader starts at their heading.
  useEffect(() => heading.current?.focus(), []);
  return (
    <section className="recovery-codes" aria-labelledby="recovery-codes-title">
      <h3 id="recovery-codes-title" ref={heading} tabIndex={-1}>
        Your recovery codes
      </h3>
      <p>
        Each code signs you in once if you lose your phone or passkey. Save them somewhere safe now (a password manager,
        or printed): they are not shown again.
      </p>
      <ol className="recovery-code-list" aria-label="Recovery codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <button type="button" className="button primary" onClick={onSaved}>
        I have saved these
      </button>
    </section>
  );
}
