import { useMemo } from "react";
import { useLocation, useSearchParams } from "react-router-dom";
import { readCancelledReturn, readHeldBooking } from "./held-booking.ts";
import type { ConfirmationState } from "./types.ts";

export type HeldBooking = {
  /** The booking to show, or null when this page was opened without one (a shared link, another tab). */
  state: ConfirmationState | null;
  /** Back from the payment page by its Cancel. */
  cancelled: boolean;
};

/**
 * What /confirmation shows: the navigation state the details form sent, or, on the way back from
 * the payment page's Cancel, the booking this tab kept, with the hold's end the server put in the URL.
 */
export function useHeldBooking(): HeldBooking {
  const location = useLocation();
  const [search] = useSearchParams();
  const navigationState = location.state as Partial<ConfirmationState> | null;
  return useMemo(() => {
    const back = readCancelledReturn(search);
    if (back) {
      const kept = readHeldBooking(back.userID, back.eventID);
      return { state: kept && { ...kept, holdExpiresAt: back.heldUntil }, cancelled: true };
    }
    if (navigationState?.user && navigationState.event) {
      return { state: navigationState as ConfirmationState, cancelled: false };
    }
    return { state: null, cancelled: false };
  }, [search, navigationState]);
}
