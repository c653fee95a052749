import { useCallback, useEffect, useState } from "react";
import { apiGet, apiPost, CallFailed } from "../../lib/api.ts";

export type EventDetails = { eventName: string; eventDate: string; eventLocation: string; time_zone?: string };
type DetailsReply = { event?: EventDetails; uniqueCode?: string | null };

export const CONFIRMED = "Booking confirmed! Thank you!";
export const INVALID = "Invalid code. Please try again.";

type DetailsState =
  | { status: "loading" }
  | { status: "error"; message: string; canRetry: boolean }
  | { status: "ready"; event: EventDetails };

/** The header of the door check: which event this booking is for. */
export function useEventDetails(eventID: number | null, userID: number | null) {
  const [state, setState] = useState<DetailsState>({ status: "loading" });
  const load = useCallback(async () => {
    if (!eventID || !userID) {
      setState({ status: "error", message: "This link is missing the booking it is for.", canRetry: false });
      return;
    }
    setState({ status: "loading" });
    try {
      const reply = await apiGet<DetailsReply>(`/api/get-event-details?eventID=${eventID}&userID=${userID}`);
      if (reply.ok && reply.data?.event) setState({ status: "ready", event: reply.data.event });
      else if (reply.status === 404 || reply.status === 400)
        setState({ status: "error", message: "We couldn't find this booking.", canRetry: false });
      else setState({ status: "error", message: "We couldn't load the event details.", canRetry: true });
    } catch (error) {
      console.error(error);
      setState({
        status: "error",
        message:
          error instanceof CallFailed
            ? "You seem to be offline. Reconnect to check the code."
            : "We couldn't load the event details.",
        canRetry: true,
      });
    }
  }, [eventID, userID]);
  useEffect(() => {
    void load();
  }, [load]);
  return { state, reload: load };
}

export type CheckResult = { confirmed: boolean; message: string };

/** Sends the typed code to the server, which compares it; the browser never sees the real one. */
export async function confirmBookingCode(eventID: number, userID: number, uniqueCode: string): Promise<CheckResult> {
  try {
    const reply = await apiPost<{ confirmed?: boolean }>("/api/confirm-booking", { eventID, userID, uniqueCode });
    if (reply.ok)
      return reply.data?.confirmed ? { confirmed: true, message: CONFIRMED } : { confirmed: false, message: INVALID };
    if (reply.status === 429) {
      return {
        confirmed: false,
        message: "Too many wrong codes for this ticket. Please wait a few minutes and try again.",
      };
    }
    return { confirmed: false, message: INVALID };
  } catch (error) {
    console.error(error);
    return { confirmed: false, message: "Could not check the code. Please check the connection and try again." };
  }
}
