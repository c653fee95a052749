import { api, CallFailed, send } from "../../lib/api.ts";
import { ticketKey } from "../../lib/offline-db.ts";
import { markTicket } from "./ticket-store.ts";

// Cancel my booking (docs/api.md, `POST /api/cancel-booking`; docs/decisions/028-cancellation-money-path.md),
// from /me and from the ticket itself.

export type CancelOutcome =
  | { kind: "done"; refundCents: number; creditCents: number; status: "refunded" | "cancelled" }
  | { kind: "too-late" }
  /** `as: "credit"` after the event's Credit until (409 `credit_closed`): only the refund is left. */
  | { kind: "credit-closed" }
  | { kind: "signed-out" }
  | { kind: "offline" }
  | { kind: "failed" };

/** How the guest takes what a cancel gives back (issue 52): money under the policy, or credit of the full price. */
export type CancelAs = "refund" | "credit";

/**
 * Cancels the booking for the signed-in guest. Once it is cancelled the ticket saved on this phone
 * stops being valid at once (no QR to scan), before `ticket-status` would next be asked.
 */
export async function cancelBooking(target: {
  eventID: number;
  userID: number;
  as?: CancelAs;
}): Promise<CancelOutcome> {
  let outcome: CancelOutcome;
  try {
    const reply = await send(api["cancel-booking"].$post({ json: target }));
    if (reply.ok) outcome = { kind: "done", ...reply.data };
    else if (reply.data.code === "too_late_to_cancel") outcome = { kind: "too-late" };
    else if (reply.data.code === "credit_closed") outcome = { kind: "credit-closed" };
    else if (reply.data.code === "guest_session_required") outcome = { kind: "signed-out" };
    else outcome = { kind: "failed" };
  } catch (error) {
    if (error instanceof CallFailed) return { kind: "offline" };
    throw error;
  }
  if (outcome.kind === "done") {
    const status = ticketStatusAfter(outcome);
    await markTicket(ticketKey(target.eventID, target.userID), status).catch((error: unknown) => console.error(error));
  }
  return outcome;
}

/** What a cancelled booking's ticket is now: refunded, or cancelled by its guest with nothing due. */
export const ticketStatusAfter = (done: { status: "refunded" | "cancelled" }) =>
  done.status === "refunded" ? ("refunded" as const) : ("booking_cancelled" as const);

/** Where a phone not signed in goes to cancel: /me, which opens this booking's cancel once signed in. */
export const cancelSignInPath = (target: { eventID: number; userID: number }) =>
  `/me?cancel=${target.eventID}-${target.userID}`;

/** The booking `/me?cancel=…` names, or null. */
export function readCancelTarget(search: URLSearchParams): { eventID: number; userID: number } | null {
  const match = /^([1-9]\d{0,15})-([1-9]\d{0,15})$/.exec(search.get("cancel") ?? "");
  return match ? { eventID: Number(match[1]), userID: Number(match[2]) } : null;
}
