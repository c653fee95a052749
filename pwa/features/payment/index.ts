// Checkout, started from the booking flow's Proceed to Payment.
export { type CheckoutUser, startCheckout } from "./start-checkout.ts";
