/** Every route of the PWA in one place: the original pages, then `/welcome`, `/admin/door`, `/tickets` and more. */
export const paths = {
  home: "/",
  welcome: "/welcome",
  /** Also `/admin/setup?t={token}`, a team member's set-up link (issue 49): the admin page shows it. */
  admin: "/admin",
  adminDoor: "/admin/door",
  otpVerification: "/otp-verification",
  confirmation: "/confirmation",
  success: "/success",
  confirmBooking: "/confirm-booking",
  participantFeedback: "/ParticipantFeedback",
  eventFeedback: "/EventFeedback",
  tickets: "/tickets",
  /** My nights: a guest signed in with their mobile sees every night of it (the header's My tickets). */
  me: "/me",
  /** The waitlist SMS link: `?o={offerId}&t={token}`. */
  waitlistOffer: "/waitlist-offer",
  /** A ticket given to a friend: `?t={token}`, the friend takes it (docs/decisions/058-ticket-transfer.md). */
  transfer: "/transfer",
  /** A guest's choice when their night was cancelled or moved: `?t={token}` (docs/decisions/059-short-of-numbers.md). */
  choose: "/choose",
  /** A host link: `?t={token}` signs a staff phone in to one night's Door and Rounds. */
  host: "/host",
  /** What is kept about attendees, for how long, and who sees what. */
  privacy: "/privacy",
  /** A marketing email's way out: `?c={contactId}&t={token}`, no sign-in (issue 36). */
  unsubscribe: "/unsubscribe",
  /** A ticked email box's confirmation: `?c={contactId}&t={token}`, no sign-in (docs/decisions/039). */
  confirmEmailConsent: "/confirm-email-consent",
} as const;

/**
 * A booking step's address: the product's route with the event it is for (`/otp-verification?eventID=7`),
 * so a reload or a new tab finds the event; `waitlist` when the card's Join waitlist opened it.
 */
export const bookingStepPath = (
  step: "otpVerification" | "confirmation",
  eventID: number,
  intent?: "book" | "waitlist",
) => `${paths[step]}?eventID=${eventID}${intent === "waitlist" ? "&intent=waitlist" : ""}`;
