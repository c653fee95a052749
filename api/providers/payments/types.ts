/** What the app needs from a card payment provider. Chosen once at start-up (providers/payments/index.ts). */
export interface PaymentsProvider {
  readonly name: "stripe" | "local";
  createCheckout(input: CreateCheckoutInput): Promise<CheckoutInfo>;
  retrieveCheckout(sessionId: string): Promise<CheckoutInfo>;
  /** Refunds the whole payment. The same idempotency key always gives back the same refund. */
  refund(paymentIntentId: string, idempotencyKey: string): Promise<{ refundId: string }>;
}

export type CreateCheckoutInput = {
  amountCents: number;
  currency: "aud";
  productName: string;
  customerEmail: string;
  successUrl: string;
  cancelUrl: string;
  /** Epoch ms; the session stops accepting payment then (matches the seat hold). */
  expiresAt: number;
  metadata: Record<string, string>;
  idempotencyKey: string;
};

export type CheckoutInfo = {
  id: string;
  url: string;
  status: "open" | "complete" | "expired";
  paid: boolean;
  paymentIntentId: string | null;
  amountCents: number;
  metadata: Record<string, string>;
};
