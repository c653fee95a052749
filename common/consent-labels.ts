// The marketing boxes' sentences (issue 36), one copy for the forms that show them (the details form,
// the waitlist, /me) and the server that stores which wording each choice answered
// (api/messaging/consent.ts: change CONSENT_WORDING_VERSION with them).
export const MARKETING_LABELS = {
  sms: "Text me about future events",
  email: "Email me about future events",
} as const;
