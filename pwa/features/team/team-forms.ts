import type { TeamRole } from "./team-roles.ts";

// The team's forms, checked before they are sent (the server checks the same and answers 400): each
// field's error in words beside it, so the owner or the member fixes it there.

/** The longest name and email the server takes (api/organiser/team-routes.ts). */
export const NAME_MAX = 100;
export const EMAIL_MAX = 254;
/** The set-up password's length: long enough that a guessed one is unlikely, as the server asks. */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 200;

export type MemberDraft = { name: string; email: string; role: TeamRole | "" };
export type MemberErrors = Partial<Record<keyof MemberDraft, string>>;

// One @, something on each side, a dot in the domain: the server's mailer decides the rest.
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** **Add member**'s fields: each one's error, none when it can be sent. */
export function memberErrors(draft: MemberDraft): MemberErrors {
  const errors: MemberErrors = {};
  const name = draft.name.trim();
  const email = draft.email.trim();
  if (name === "") errors.name = "Enter the person's name.";
  else if (name.length > NAME_MAX) errors.name = `Keep the name to ${NAME_MAX} characters.`;
  if (email === "") errors.email = "Enter the email their set-up link goes to.";
  else if (email.length > EMAIL_MAX || !EMAIL.test(email)) errors.email = "Enter an email like priya@example.com.";
  if (draft.role === "") errors.role = "Choose what they may do: Manager, Finance or Door.";
  return errors;
}

/** The message shown on the email field when the server says the address is already on the team. */
export const EMAIL_TAKEN = "Someone on the team already has this email.";

export type PasswordErrors = { password?: string; confirm?: string };

/** The set-up page's password and its repeat. */
export function passwordErrors(password: string, confirm: string): PasswordErrors {
  const errors: PasswordErrors = {};
  if (password.length < PASSWORD_MIN) errors.password = `Use at least ${PASSWORD_MIN} characters.`;
  else if (password.length > PASSWORD_MAX) errors.password = `Keep the password to ${PASSWORD_MAX} characters.`;
  if (!errors.password && confirm !== password) errors.confirm = "The two passwords are not the same.";
  return errors;
}

/** An authenticator app's code as typed (`123 456`), as sent (`123456`); null when it is not six digits. */
export function totpCode(typed: string): string | null {
  const digits = typed.replace(/[\s-]/g, "");
  return /^\d{6}$/.test(digits) ? digits : null;
}

/** The error beside the code field, or none. */
export const codeError = (typed: string) =>
  totpCode(typed) === null ? "Enter the 6 digits your authenticator app shows." : undefined;
