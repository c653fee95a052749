import { apiPost, CallFailed, replyError } from "../../lib/api.ts";
import { BOOKING_CLOSED, BOOKING_CLOSED_MESSAGE } from "../events/format.ts";

// The confirmation page (issue 3) calls this from "Proceed to Payment".
export type CheckoutUser = { userID: number; name: string; email: string; phone: string };
export type CheckoutEvent = { id: number; event_name: string; booking_amount: number };

export type CheckoutReply = { sessionId?: string; paymentIntentId?: string | null; url?: string };

/**
 * Asks the API for a checkout session and sends the browser to the provider's payment page. The
 * amount is sent because SPEC.md's call carries it, but the server charges the event's own price.
 * Throws an Error with a message fit to show when the payment cannot start.
 */
export async function startCheckout(user: CheckoutUser, event: CheckoutEvent): Promise<void> {
  let reply: Awaited<ReturnType<typeof apiPost<CheckoutReply>>>;
  try {
    reply = await apiPost<CheckoutReply>("/api/create-checkout-session", {
      userID: user.userID,
      eventID: event.id,
      amount: event.booking_amount,
      userEmail: user.email,
      eventName: event.event_name,
    });
  } catch (error) {
    console.error(error);
    throw new Error(
      error instanceof CallFailed
        ? "You seem to be offline. Please reconnect and try again."
        : "Could not start the payment. Please try again.",
    );
  }
  const { sessionId, url } = reply.data ?? {};
  if (!sessionId || !url) {
    // SPEC.md section 8: a reply without a session id is only logged.
    console.log("No session id in the checkout response", replyError(reply.data) ?? reply.status);
    if (replyError(reply.data) === BOOKING_CLOSED) throw new Error(BOOKING_CLOSED_MESSAGE);
    throw new Error(
      reply.status === 409
        ? "Your seat hold has expired. Please book again from the events page."
        : "Could not start the payment. Please try again.",
    );
  }
  window.location.assign(url);
}
