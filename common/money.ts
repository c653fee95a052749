/** Cents as people read dollars in a text message: `$45.00`. */
export const audFromCents = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/** How long a card refund takes to show, as every refund text says. */
export const REFUND_ARRIVES = "it can take 5-10 business days to show";
