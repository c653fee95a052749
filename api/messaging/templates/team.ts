import { type Block, compose, type EmailContent, type Sender } from "./email-frame.ts";

// The team's emails (api/organiser/team.ts, docs/decisions/050-the-team.md): transactional, each
// about the member's own sign-in; none offers anything.

/** The set-up link for a new member (or a resent one): 72 hours, once. */
export function teamSetupEmail(input: {
  sender: Sender;
  name: string;
  roleLabel: string;
  setupUrl: string;
}): EmailContent {
  const blocks: Block[] = [
    { p: `Hi ${input.name},` },
    {
      p: `You have been added to ${input.sender.businessName}'s team as ${input.roleLabel}. Set up your sign-in with a passkey, or a password and an authenticator app.`,
    },
    { link: { href: input.setupUrl, text: "Set up my sign-in" } },
    { p: "The link works once, for 72 hours. If it has run out, ask for a new one." },
    { p: "If you were not expecting this, ignore this email: nothing happens until the link is used." },
  ];
  return compose(`Set up your sign-in for ${input.sender.businessName}`, blocks, input.sender);
}

/** Too many wrong passwords or codes for this member's account: it is locked for 15 minutes. */
export function accountLockedEmail(input: { sender: Sender; name: string }): EmailContent {
  const blocks: Block[] = [
    { p: `Hi ${input.name},` },
    {
      p: `There were 5 wrong passwords or codes for your ${input.sender.businessName} sign-in in the last 15 minutes, so it is locked for 15 minutes.`,
    },
    {
      p: "If that was you, wait and try again. If it was not, your password may be known to someone else: tell the owner, who can sign you out everywhere.",
    },
  ];
  return compose(`Your ${input.sender.businessName} sign-in is locked for 15 minutes`, blocks, input.sender);
}

/** Too many wrong passwords or codes for the owner's password: it is locked for 15 minutes. */
export function ownerLockedEmail(input: { sender: Sender }): EmailContent {
  const blocks: Block[] = [
    {
      p: `There were 5 wrong passwords or codes for the owner's ${input.sender.businessName} sign-in in the last 15 minutes, so the owner's password is locked for 15 minutes. Team members' sign-ins are not affected.`,
    },
    {
      p: "If that was you, wait and try again. If it was not, someone may be guessing the password: change ADMIN_PASSWORD (which also signs out every owner session) and turn on Require a second factor for the owner password.",
    },
  ];
  return compose(`The owner's ${input.sender.businessName} sign-in is locked for 15 minutes`, blocks, input.sender);
}
