// Issue 4 fills this in: create-checkout-session, then send the browser to the provider's page.
// The confirmation page (issue 3) calls it from "Proceed to Payment".
export type CheckoutUser = { userID: number; name: string; email: string; phone: string };
export type CheckoutEvent = { id: number; event_name: string; booking_amount: number };

export async function startCheckout(_user: CheckoutUser, _event: CheckoutEvent): Promise<void> {
  throw new Error("checkout is not available yet");
}
