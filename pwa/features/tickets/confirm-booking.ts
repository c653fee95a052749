import { type EventOfReply, eventOfReply } from "../../../common/event-wire.ts";
import { api, CallFailed, type Ok, send } from "../../lib/api.ts";
import { useReply } from "../../lib/use-reply.ts";

/** The booking's event, its fields by the names of the code (mapped as it arrives, common/event-wire.ts). */
export type EventDetails = EventOfReply<Ok<(typeof api)["get-event-details"]["$get"]>["event"]>;

export const CONFIRMED = "Booking confirmed! Thank you!";
export const INVALID = "Invalid code. Please try again.";

type DetailsState = { status: "error"; message: string; canRetry: boolean } | { status: "ready"; event: EventDetails };

/** The header of the door check: which event this booking is for. */
export function useEventDetails(eventID: number | null, userID: number | null) {
  return useReply(`${eventID}:${userID}`, {
    async load(): Promise<DetailsState> {
      if (!eventID || !userID)
        return { status: "error", message: "This link is missing the booking it is for.", canRetry: false };
      const reply = await send(
        api["get-event-details"].$get({ query: { eventID: String(eventID), userID: String(userID) } }),
      );
      if (reply.ok) return { status: "ready", event: eventOfReply(reply.data.event) };
      if (reply.data.code === "not_found" || reply.data.code === "invalid_request")
        return { status: "error", message: "We couldn't find this booking.", canRetry: false };
      return { status: "error", message: "We couldn't load the event details.", canRetry: true };
    },
    failed(error): DetailsState {
      console.error(error);
      return {
        status: "error",
        message:
          error instanceof CallFailed
            ? "You seem to be offline. Reconnect to check the code."
            : "We couldn't load the event details.",
        canRetry: true,
      };
    },
  });
}

/**
 * `notArrived`: the code is right but no arrival was recorded (an attendee checking their own code
 * before the night), so the page says where the check-in really happens.
 */
export type CheckResult = {
  confirmed: boolean;
  message: string;
  notArrived?: boolean;
  /** For staff only: whose ticket it is, and, before the doors open, when they do (ISO). */
  name?: string;
  doorsOpenAt?: string;
};

export const SHOW_AT_THE_DOOR = "You're not checked in yet: show your ticket at the door on the night.";

/** Sends the typed code to the server, which compares it; the browser never sees the real one. */
export async function confirmBookingCode(eventID: number, userID: number, uniqueCode: string): Promise<CheckResult> {
  try {
    const reply = await send(api["confirm-booking"].$post({ json: { eventID, userID, uniqueCode } }));
    if (reply.ok) {
      if (!reply.data.confirmed) return { confirmed: false, message: INVALID };
      const { name, doorsOpenAt } = reply.data;
      return {
        confirmed: true,
        message: CONFIRMED,
        notArrived: !reply.data.checkedIn,
        ...(name ? { name } : {}),
        ...(doorsOpenAt ? { doorsOpenAt } : {}),
      };
    }
    if (reply.data.code === "rate_limited") {
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
