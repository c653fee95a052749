import type { EventView } from "../events/types.ts";

export type Gender = "male" | "female";

/** What /confirmation receives in navigation state, and hands to checkout. */
/** `nonbinary` at Mixed nights only; `unasked` at One group, which asks no gender (issue 37). */
export type PersonGender = Gender | "nonbinary" | "unasked";
export type BookingUser = { userID: number; name: string; email: string; phone: string; gender: PersonGender };
/**
 * The held booking /confirmation shows. `holdExpiresAt` (ISO UTC, from save-user-details) is until
 * when the seat is held; null once the server said the hold is gone; absent in a state saved before
 * the server told it.
 */
export type ConfirmationState = { user: BookingUser; event: EventView; holdExpiresAt?: string | null };

/**
 * A waitlist offer opened from its SMS link: the seat is kept for this gender until `expiresAt` (ISO
 * UTC); `name` is the one given when joining the line.
 */
export type OfferState = { gender?: Gender; name?: string; expiresAt: string };

/** "waitlist" from a sold-out event's Join waitlist: the flow ends in the waitlist form, not the details. */
export type BookingIntent = "book" | "waitlist";

/** What /otp-verification receives in navigation state, and keeps in its history entry as the flow goes. */
export type BookingPageState = {
  event: EventView;
  intent?: BookingIntent;
  offer?: OfferState;
  /** The side chosen first at a balanced event (Woman / Man). */
  side?: Gender;
  verifiedPhone?: string;
  waitlisted?: { position: number | null };
};

/** How the gender choices read: the values sent stay `male` / `female`. */
export const GENDER_LABELS: Record<Gender, string> = { male: "Male", female: "Female" };
