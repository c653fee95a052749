import { type ApiReply, api, CallFailed, type Ok, send } from "../../lib/api.ts";
import { BOOKING_CLOSED_MESSAGE } from "../events/index.ts";

// The confirmation page calls this from "Proceed to Payment".
export type CheckoutUser = { userID: number; name: string; email: string; phone: string };
export type CheckoutEvent = { id: number; name: string; priceCents: number };

/** Said when another checkout spent the credit meanwhile (409 `credit_changed`). */
export const CREDIT_CHANGED_MESSAGE = "Your credit changed; please try again.";

/**
 * Asks the API for a checkout session and sends the browser to the provider's payment page. The
 * amount is sent because the call has always carried it, but the server charges the event's own price.
 * With `useCredit` the number's credit pays first (issue 52, docs/decisions/057-credit.md): the
 * provider's page charges only the rest, and when credit pays it all there is no page at all, the
 * booking is paid and this answers `"paid-by-credit"` for the caller to show the ticket.
 * Throws an Error with a message fit to show when the payment cannot start.
 */
export async function startCheckout(
  user: CheckoutUser,
  event: CheckoutEvent,
  options: { useCredit?: boolean } = {},
): Promise<"paid-by-credit" | "to-provider"> {
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
          ...(options.useCredit ? { useCredit: true } : {}),
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
    if (reply.data.code === "credit_changed") throw new Error(CREDIT_CHANGED_MESSAGE);
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
  if ("paidByCredit" in reply.data) return "paid-by-credit";
  window.location.assign(reply.data.url);
  return "to-provider";
}

/** Where a booking paid wholly by credit shows its ticket: the success page, with no checkout to ask. */
export const paidByCreditPath = (target: { userID: number; eventID: number }) =>
  `/success?paid=credit&userID=${target.userID}&eventID=${target.eventID}`;
