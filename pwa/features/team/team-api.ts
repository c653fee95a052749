import { guarded } from "../../lib/admin-session.ts";
import { api, type Ok, send } from "../../lib/api.ts";

// The team's calls (issue 49), typed by the server's routes. The owner's
// calls go through guarded (lib/admin-session.ts): a lapsed session (401) brings the sign-in back.
// The set-up link's calls are the member's, before they have a session: a 401 there means nothing.

/** One row of the Team tab: `status` invited until the set-up link is used, `signIn` how they sign in. */
export type TeamMember = Ok<(typeof api)["team"]["$get"]>[number];
export type NewMember = Parameters<(typeof api)["team"]["$post"]>[0]["json"];

export const listTeam = () => guarded(send(api.team.$get()));
export const addMember = (member: NewMember) => guarded(send(api.team.$post({ json: member })));
export const removeMember = (id: number) => guarded(send(api["team-remove"].$post({ json: { id } })));
export const resendSetup = (id: number) => guarded(send(api["team-resend"].$post({ json: { id } })));
/** Ends every session of a member (`id`), or with no id the caller's own, this browser's included. */
export const signOutEverywhere = (id?: number) =>
  guarded(send(api["sign-out-everywhere"].$post({ json: id === undefined ? {} : { id } })));

// The set-up link: a password (then the authenticator app's code) or a passkey (passkey-buttons.tsx).
export const setupPassword = (token: string, password: string) =>
  send(api["team-setup"].$post({ json: { token, password } }));
export const setupTotp = (token: string, code: string) => send(api["team-setup-totp"].$post({ json: { token, code } }));

// The owner's own sign-in: passkeys (passkey-buttons.tsx), the authenticator app, and the switch.
export type OwnerSecurityState = Ok<(typeof api)["owner-security"]["$get"]>;
export const getOwnerSecurity = () => guarded(send(api["owner-security"].$get()));
export const startOwnerTotp = () => guarded(send(api["owner-totp"].$post()));
export const confirmOwnerTotp = (code: string) => guarded(send(api["owner-totp-confirm"].$post({ json: { code } })));
export const setSecondFactorRequired = (required: boolean) =>
  guarded(send(api["owner-second-factor"].$post({ json: { required } })));
