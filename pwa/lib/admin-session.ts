import { useAdminStore } from "./admin-store.ts";
import { type ApiReply, api, send } from "./api.ts";

// The organiser's session, asked and opened by every staff screen (the admin panel, the door's gate and
// the login modal); lib/admin-store.ts mirrors its last answer. Three ways in (issue 49): the owner's
// password (with a code once the owner requires a second factor), a team member's email, password and
// code, and a passkey (features/team/passkeys.ts).
export const adminSession = () => send(api["admin-session"].$get());
export const adminLogin = (password: string, code?: string) =>
  send(api["admin-login"].$post({ json: code ? { password, code } : { password } }));
export const teamLogin = (email: string, password: string, code: string) =>
  send(api["team-login"].$post({ json: { email, password, code } }));
export const adminLogout = () => send(api["admin-logout"].$post());

/** Every staff call goes through here, so a lapsed session (401) locks the screen wherever it happens. */
export async function guarded<T>(call: Promise<ApiReply<T>>): Promise<ApiReply<T>> {
  const reply = await call;
  if (reply.status === 401) useAdminStore.getState().lock();
  return reply;
}

/** The sign-in's wrong-password line, the spec's words. */
export const INVALID_CREDENTIALS = "Invalid credentials. Please try again.";

/** What a sign-in's answer means for the modal: in, a code to ask for, or words to show. */
export type SignInOutcome =
  | { kind: "signed-in" }
  | { kind: "code-needed"; text: string }
  | { kind: "refused"; text: string; detail?: string };

/** A sign-in's refusal, as admin-login and team-login declare theirs. */
type Refusal = { code: string };

/** How long a lock lasts: the server counts failures per account and per address over 15 minutes. */
export const LOCK_MINUTES = 15;

/**
 * Reads a sign-in's reply (admin-login or team-login) by its status and `code`, never its text:
 * 200 is in; 401 `second_factor_required` asks for the code; 429 `account_locked` says the account
 * waits, `rate_limited` that this network does; anything else is the spec's "Invalid credentials".
 */
export function signInOutcome(reply: ApiReply<unknown, Refusal>): SignInOutcome {
  if (reply.ok) return { kind: "signed-in" };
  const { code } = reply.data;
  if (reply.status === 401 && code === "second_factor_required") {
    return {
      kind: "code-needed",
      text: "Enter the code from your authenticator app or a recovery code, or sign in with a passkey.",
    };
  }
  if (reply.status === 429) {
    const wait = `Wait ${LOCK_MINUTES} minutes before trying again.`;
    return {
      kind: "refused",
      text: INVALID_CREDENTIALS,
      detail:
        code === "account_locked"
          ? `This account is locked after too many wrong passwords or codes. ${wait}`
          : `Too many failed attempts. ${wait}`,
    };
  }
  return { kind: "refused", text: INVALID_CREDENTIALS };
}
