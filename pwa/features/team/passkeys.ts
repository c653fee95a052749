import { guarded } from "../../lib/admin-session.ts";
import { type ApiReply, api, CallFailed, send } from "../../lib/api.ts";

// The browser's half of a passkey (issue 49, docs/decisions/051-passkeys.md): ask the server for
// options, hand them to the browser's WebAuthn prompt, send the answer back. @simplewebauthn/browser is
// imported here, on demand, so it loads with the admin pages that use a passkey and never with home.

/** What a passkey ceremony ends with: done, or a sentence the page shows as it is. */
export type PasskeyOutcome<T> = { ok: true; data: T } | { ok: false; message: string };

/** Shown when the browser's prompt was cancelled, timed out or refused. */
export const PASSKEY_CANCELLED = "The passkey was not used. Try again, or use another way to sign in.";
/** Shown when the authenticator already holds a passkey of this person's. */
export const PASSKEY_ALREADY_SAVED = "This device already holds one of your passkeys. Use another device or key.";
/** Shown when the server could not be reached. */
export const PASSKEY_UNREACHABLE = "The server could not be reached. Check the connection and try again.";
/** Shown when this browser has no WebAuthn at all. */
export const PASSKEY_UNSUPPORTED = "This browser cannot use passkeys. Use another way to sign in.";
/** Shown when a signed-in person's session ended before the passkey was saved. */
export const PASSKEY_SIGNED_OUT = "Your session has ended. Sign in again, then add the passkey.";

const webauthn = () => import("@simplewebauthn/browser");

const failed = (message: string) => ({ ok: false as const, message });

/** The browser's refusal in words: a passkey it already holds, or a prompt that was not completed. */
function promptFailed(error: unknown) {
  console.warn(error);
  const code = error instanceof Error && "code" in error ? error.code : undefined;
  return failed(code === "ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED" ? PASSKEY_ALREADY_SAVED : PASSKEY_CANCELLED);
}

/** The server's refusal in words: its own sentence (each passkey call's errors are written for people). */
function serverFailed(reply: ApiReply<unknown, { code: string; error: string }>) {
  if (reply.ok) return failed(PASSKEY_UNREACHABLE);
  return failed(reply.data.code === "admin_session_required" ? PASSKEY_SIGNED_OUT : reply.data.error);
}

/**
 * Runs a ceremony. A call that could not be made, or the passkey code that could not be fetched (an
 * import() while offline), is the "could not be reached" message; the buttons never stay busy.
 */
async function ceremony<T>(steps: () => Promise<PasskeyOutcome<T>>): Promise<PasskeyOutcome<T>> {
  try {
    return await steps();
  } catch (error) {
    if (!(error instanceof CallFailed)) console.warn(error);
    return failed(PASSKEY_UNREACHABLE);
  }
}

/**
 * Adds a passkey: with a set-up link's token, the member's first way in (the answer carries their ten
 * recovery codes); without, one more passkey for whoever is signed in (the owner or a member), whose
 * lapsed session locks the screen as any staff call's does.
 */
export function addPasskey(setupToken?: string): Promise<PasskeyOutcome<{ recoveryCodes?: string[] }>> {
  const call = <T>(request: Promise<ApiReply<T>>) => (setupToken === undefined ? guarded(request) : request);
  const token = { token: setupToken ?? null };
  return ceremony(async () => {
    const { browserSupportsWebAuthn, startRegistration } = await webauthn();
    if (!browserSupportsWebAuthn()) return failed(PASSKEY_UNSUPPORTED);
    const options = await call(send(api["passkey-register-options"].$post({ json: token })));
    if (!options.ok) return serverFailed(options);
    let response: Awaited<ReturnType<typeof startRegistration>>;
    try {
      response = await startRegistration({ optionsJSON: options.data });
    } catch (error) {
      return promptFailed(error);
    }
    const saved = await call(send(api["passkey-register"].$post({ json: { ...token, response } })));
    if (!saved.ok) return serverFailed(saved);
    return { ok: true, data: "recoveryCodes" in saved.data ? { recoveryCodes: saved.data.recoveryCodes } : {} };
  });
}

/** Signs in with a passkey the browser offers (a discoverable credential: no email asked). */
export function signInWithPasskey(): Promise<PasskeyOutcome<null>> {
  return ceremony(async () => {
    const { browserSupportsWebAuthn, startAuthentication } = await webauthn();
    if (!browserSupportsWebAuthn()) return failed(PASSKEY_UNSUPPORTED);
    const options = await send(api["passkey-login-options"].$post());
    if (!options.ok) return serverFailed(options);
    let response: Awaited<ReturnType<typeof startAuthentication>>;
    try {
      response = await startAuthentication({ optionsJSON: options.data });
    } catch (error) {
      return promptFailed(error);
    }
    const signedIn = await send(api["passkey-login"].$post({ json: { response } }));
    if (!signedIn.ok) return serverFailed(signedIn);
    return { ok: true, data: null };
  });
}
