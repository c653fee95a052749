import type { Booking } from "../../db/schema.ts";

/**
 * What a paid seat carries when it changes hands (a ticket given to a friend, a guest moved to another
 * night): the price and how it was made up, the payment, and the part paid by credit, so a later refund
 * gives the card only what the card paid and the credit back as credit (docs/decisions/057-credit.md).
 */
export const moneyOfSeat = (booking: Booking, now: number) => ({
  amountCents: booking.amountCents,
  creditCents: booking.creditCents,
  listPriceCents: booking.listPriceCents,
  earlyBirdCents: booking.earlyBirdCents,
  discountCents: booking.discountCents,
  promoCodeId: booking.promoCodeId,
  promoOverrun: booking.promoOverrun,
  paymentIntentId: booking.paymentIntentId,
  paidAt: booking.paidAt ?? now,
});
