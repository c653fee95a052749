// Checkout, started from the booking flow's Proceed to Payment.
export { useSignedInCredit } from "./signed-in-credit.ts";
export { type CheckoutUser, paidByCreditPath, startCheckout } from "./start-checkout.ts";
