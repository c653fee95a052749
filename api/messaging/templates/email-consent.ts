import { type Block, compose, type EmailContent, type Sender } from "./email-frame.ts";

// The email-consent confirmation (api/messaging/consent.ts).

/**
 * The one email a ticked **Email me about future events** sends
 * (docs/decisions/039-consent-confirmation-and-erasure.md): the address's own confirmation, asked of
 * the address itself. Transactional (it offers nothing), no name in it
 * (whoever ticked the box may not be the address's owner), and saying what to do if it was not them.
 */
export function emailConsentConfirmation(input: { sender: Sender; confirmUrl: string }): EmailContent {
  const blocks: Block[] = [
    { p: `Someone asked for emails about future events from ${input.sender.businessName} to be sent to this address.` },
    { p: "If that was you, confirm below. Until you do, we send this address no news of future events." },
    { link: { href: input.confirmUrl, text: "Yes, email me about future events" } },
    { p: "If it was not you, ignore this email: nothing more will come of it." },
  ];
  return compose("Confirm you'd like emails about future events", blocks, input.sender);
}
