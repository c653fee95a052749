/** Every route of the PWA in one place (SPEC.md section 2 plus CONTRACT.md's additions). */
export const paths = {
  home: "/",
  welcome: "/welcome",
  admin: "/admin",
  adminDoor: "/admin/door",
  otpVerification: "/otp-verification",
  confirmation: "/confirmation",
  success: "/success",
  confirmBooking: "/confirm-booking",
  participantFeedback: "/ParticipantFeedback",
  eventFeedback: "/EventFeedback",
  tickets: "/tickets",
  /** The waitlist SMS link: `?o={offerId}&t={token}`. */
  waitlistOffer: "/waitlist-offer",
} as const;
