import { useSearchParams } from "react-router-dom";
import { useBookingStore } from "./booking-store.ts";
import { readCancelledReturn } from "./held-booking.ts";
import type { ConfirmationState } from "./types.ts";

export type HeldBooking = {
  /** The booking to show, or null when this tab holds none for the event in the address. */
  state: ConfirmationState | null;
  /** The event the address names (`?eventID=`), for the way back to it; null when none. */
  eventID: number | null;
  /** Back from the payment page by its Cancel. */
  cancelled: boolean;
};

/** A positive whole id from the address, or null. */
export function idFrom(value: string | null): number | null {
  const id = Number(value);
  return value && Number.isInteger(id) && id > 0 ? id : null;
}

/**
 * What /confirmation?eventID=… shows: the seat this tab holds at that event (booking-store.ts), or,
 * on the way back from the payment page's Cancel, that hold with the end the server put in the URL.
 */
export function useHeldBooking(): HeldBooking {
  const [search] = useSearchParams();
  const hold = useBookingStore((s) => s.hold);
  const back = readCancelledReturn(search);
  const eventID = back?.eventID ?? idFrom(search.get("eventID"));
  if (back) {
    const kept = hold?.user.userID === back.userID && hold.event.id === back.eventID ? hold : null;
    return { state: kept && { ...kept, holdExpiresAt: back.heldUntil }, eventID, cancelled: true };
  }
  return { state: hold && hold.event.id === eventID ? hold : null, eventID, cancelled: false };
}
