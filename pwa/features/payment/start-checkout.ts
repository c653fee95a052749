import { type ApiReply, api, CallFailed, type Ok, send } from "../../lib/api.ts";
import { BOOKING_CLOSED_MESSAGE } from "../events/index.ts";

// The confirmation page calls this from "Proceed to Payment".
export type CheckoutUser = { userID: number; name: string; email: string; phone: string };
export type CheckoutEvent = { id: number; name: string; priceCents: number };

/**
 * Asks the API for a checkout session and sends the browser to the provider's payment page. The
 * amount is sent because the call has always carried it, but the server charges the event's own price.
 * Throws an Error with a message fit to show when the payment cannot start.
 */
export async function startCheckout(user: CheckoutUser, event: CheckoutEvent): Promise<void> {
  let reply: ApiReply<Ok<(typeof api)["create-checkout-session"]["$post"]>>;
  try {
    reply = await send(
      api["create-checkout-session"].$post({
        json: {
          userID: user.userID,
          eventID: event.id,
          amount: event.priceCents / 100,
          userEmail: user.email,
          eventName: event.name,
        },
      }),
    );
  } catch (error) {
    console.error(error);
    throw new Error(
      error instanceof CallFailed
        ? "You seem to be offline. Please reconnect and try again."
        : "Could not start the payment. Please try again.",
    );
  }
  if (!reply.ok) {
    // The product's rule: a reply without a session id is only logged.
    console.log("No session id in the checkout response", reply.data.error ?? reply.status);
    if (reply.data.code === "booking_closed") throw new Error(BOOKING_CLOSED_MESSAGE);
    // The photo is stored after the seat is held; one that could not be read gave the seat back.
    if (reply.data.code === "not_an_image")
      throw new Error(
        "Your photo could not be read, so the seat was given back. Please book again with another photo.",
      );
    throw new Error(
      reply.status === 409
        ? "Your seat hold has expired. Please book again from the events page."
        : "Could not start the payment. Please try again.",
    );
  }
  window.location.assign(reply.data.url);
}
