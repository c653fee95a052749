import type { EventView } from "../events/index.ts";

export type Gender = "male" | "female";

/** `nonbinary` at Mixed nights only; `unasked` at One group, which asks no gender (issue 37). */
export type PersonGender = Gender | "nonbinary" | "unasked";
export type BookingUser = { userID: number; name: string; email: string; phone: string; gender: PersonGender };
/**
 * The held booking /confirmation shows (booking-store.ts keeps it) and hands to checkout.
 * `holdExpiresAt` (ISO UTC, from save-user-details) is until when the seat is held; null once the
 * server said the hold is gone; absent in a state saved before the server told it.
 */
export type ConfirmationState = { user: BookingUser; event: EventView; holdExpiresAt?: string | null };

/**
 * A waitlist offer opened from its SMS link: the seat is kept for this gender until `expiresAt` (ISO
 * UTC); `name` is the one given when joining the line.
 */
export type OfferState = { gender?: Gender; name?: string; expiresAt: string };

/** "waitlist" from a sold-out event's Join waitlist: the flow ends in the waitlist form, not the details. */
export type BookingIntent = "book" | "waitlist";

/** A promo code applied to a hold: the code, the total the server answered, and what it took off. */
export type AppliedPromo = { code: string; amount: number; discount: number };

/** How the gender choices read: the values sent stay `male` / `female`. */
export const GENDER_LABELS: Record<Gender, string> = { male: "Male", female: "Female" };
