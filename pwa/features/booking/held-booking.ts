import { eventOfReply } from "../../../common/event-wire.ts";
import { DEFAULT_TIME_ZONE, venueClock, zoneAbbreviation } from "../../../common/time-zone.ts";
import type { ConfirmationState } from "./types.ts";

// The held booking survives the trip to the payment page and back: Cancel there (the local
// checkout's, or Stripe's cancel link) opens /confirmation afresh, without the navigation state it
// came with, so this tab keeps the booking in sessionStorage. The URL carries only the ids and the
// hold's end (api/booking/checkout.ts, cancelUrl), never the name, email or phone.
const KEY = "saathi-held-booking";

export function rememberHeldBooking(state: ConfirmationState) {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(state));
  } catch {
    // Storage refused (private mode): Back still works; a return from the payment page cannot.
  }
}

/** The booking this tab held for `userID` at `eventID`, or null when it kept none. */
export function readHeldBooking(userID: number, eventID: number): ConfirmationState | null {
  try {
    const saved = JSON.parse(sessionStorage.getItem(KEY) ?? "null") as Partial<ConfirmationState> | null;
    // The event by the names of the code; one a tab kept before the PWA mapped its replies is mapped here.
    if (saved?.user?.userID === userID && saved.event?.id === eventID)
      return { ...saved, event: eventOfReply(saved.event) } as ConfirmationState;
  } catch {
    // Unreadable: as if nothing was kept.
  }
  return null;
}

const PROMO_KEY = "saathi-applied-promo";

export type AppliedPromo = { code: string; amount: number; discount: number };

/**
 * The code this tab applied to its hold, and the total the server answered: the booking keeps the
 * price, and the page keeps saying so after a reload or a return from the payment page. A new hold is
 * a new userID, so an old code never shows on it.
 */
export function rememberAppliedPromo(userID: number, eventID: number, promo: AppliedPromo) {
  try {
    sessionStorage.setItem(PROMO_KEY, JSON.stringify({ userID, eventID, ...promo }));
  } catch {
    // Storage refused: the total shows until the page is left, and the checkout charges it anyway.
  }
}

export function readAppliedPromo(userID: number, eventID: number): AppliedPromo | null {
  try {
    const saved = JSON.parse(sessionStorage.getItem(PROMO_KEY) ?? "null") as
      | (AppliedPromo & { userID: number; eventID: number })
      | null;
    if (saved?.userID !== userID || saved.eventID !== eventID) return null;
    return { code: saved.code, amount: saved.amount, discount: saved.discount };
  } catch {
    return null;
  }
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
