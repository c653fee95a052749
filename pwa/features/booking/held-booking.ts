import { DEFAULT_TIME_ZONE, venueClock, zoneAbbreviation } from "../../../common/time-zone.ts";
import { useBookingStore } from "./booking-store.ts";
import type { AppliedPromo, ConfirmationState } from "./types.ts";

// The held booking survives the trip to the payment page and back: Cancel there (the local
// checkout's, or Stripe's cancel link) opens /confirmation afresh, so the booking store keeps it for
// this tab (sessionStorage). The URL carries only the ids and the hold's end
// (api/booking/checkout.ts, cancelUrl), never the name, email or phone.

export type { AppliedPromo };

export function rememberHeldBooking(state: ConfirmationState) {
  useBookingStore.getState().held(state);
}

/** The booking this tab held for `userID` at `eventID`, or null when it kept none. */
export function readHeldBooking(userID: number, eventID: number): ConfirmationState | null {
  const { hold } = useBookingStore.getState();
  return hold?.user.userID === userID && hold.event.id === eventID ? hold : null;
}

/**
 * The code this tab applied to its hold, and the total the server answered: the booking keeps the
 * price, and the page keeps saying so after a reload or a return from the payment page. A new hold is
 * a new userID, so an old code never shows on it.
 */
export function rememberAppliedPromo(userID: number, eventID: number, promo: AppliedPromo) {
  useBookingStore.getState().setPromo({ userID, eventID, ...promo });
}

export function readAppliedPromo(userID: number, eventID: number): AppliedPromo | null {
  const { promo } = useBookingStore.getState();
  if (promo?.userID !== userID || promo.eventID !== eventID) return null;
  return { code: promo.code, amount: promo.amount, discount: promo.discount };
}

/** What the return from the payment page says (`?payment=cancelled&userID=&eventID=&heldUntil=`). */
export type CancelledReturn = { userID: number; eventID: number; heldUntil: string | null };

export function readCancelledReturn(search: URLSearchParams): CancelledReturn | null {
  if (search.get("payment") !== "cancelled") return null;
  const userID = Number(search.get("userID"));
  const eventID = Number(search.get("eventID"));
  if (!Number.isInteger(userID) || userID <= 0 || !Number.isInteger(eventID) || eventID <= 0) return null;
  const heldUntil = search.get("heldUntil");
  return { userID, eventID, heldUntil: heldUntil && !Number.isNaN(Date.parse(heldUntil)) ? heldUntil : null };
}

/** `7:45 PM AEDT`: the hold's end on the venue's clock, with its zone as every time shown has. */
export function holdEndLabel(iso: string, zone: string | undefined): string {
  const ms = Date.parse(iso);
  const venueZone = zone ?? DEFAULT_TIME_ZONE;
  return `${venueClock(ms, venueZone)} ${zoneAbbreviation(ms, venueZone)}`;
}

/** `29 minutes left`, `1 minute left`, rounded up, so it never says 0 while the seat is still held. */
export function timeLeftLabel(untilMs: number, nowMs: number): string {
  const minutes = Math.max(1, Math.ceil((untilMs - nowMs) / 60_000));
  return `${minutes} ${minutes === 1 ? "minute" : "minutes"} left`;
}
