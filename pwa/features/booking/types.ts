import type { EventSummary } from "../events/types.ts";

export type Gender = "male" | "female";

/** What /confirmation receives in navigation state, and hands to checkout. */
export type BookingUser = { userID: number; name: string; email: string; phone: string; gender: Gender };
export type ConfirmationState = { user: BookingUser; event: EventSummary };

/** A waitlist offer opened from its SMS link: the seat is kept for this gender until `expiresAt` (ISO UTC). */
export type OfferState = { gender: Gender; expiresAt: string };

/** "waitlist" from a sold-out event's Join waitlist: the flow ends in the waitlist form, not the details. */
export type BookingIntent = "book" | "waitlist";

/** What /otp-verification receives in navigation state, and keeps in its history entry as the flow goes. */
export type BookingPageState = {
  event: EventSummary;
  intent?: BookingIntent;
  offer?: OfferState;
  verifiedPhone?: string;
  waitlisted?: { position: number | null };
};
