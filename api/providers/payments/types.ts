/** What the app needs from a card payment provider. Chosen once at start-up (providers/payments/index.ts). */
export interface PaymentsProvider {
  readonly name: "stripe" | "local";
  createCheckout(input: CreateCheckoutInput): Promise<CheckoutInfo>;
  retrieveCheckout(sessionId: string): Promise<CheckoutInfo>;
  /**
   * Refunds the whole payment, or `amountCents` of it (a guest's cancel under the event's policy). The same idempotency key always gives back the same refund, for as
   * long as the provider remembers the key (Stripe: 24 hours); asked again after that, a payment it
   * has refunded throws AlreadyRefunded, and `findRefund` names the refund it has.
   */
  refund(paymentIntentId: string, idempotencyKey: string, amountCents?: number): Promise<{ refundId: string }>;
  /** The refund the payment already has at the provider, or null when it has none. */
  findRefund(paymentIntentId: string): Promise<{ refundId: string } | null>;
  /**
   * Checks a webhook delivery's signature and reads it. Only providers that send webhooks have it;
   * a bad signature throws BadRequest.
   */
  verifyWebhook?(payload: string, signature: string | undefined): Promise<PaymentEvent>;
}

/** The provider refused a refund because the payment has been refunded already. */
export class AlreadyRefunded extends Error {
  constructor(paymentIntentId: string, options?: ErrorOptions) {
    super(`payment ${paymentIntentId} is refunded already`, options);
    this.name = "AlreadyRefunded";
  }
}

export type CreateCheckoutInput = {
  amountCents: number;
  currency: "aud";
  productName: string;
  customerEmail: string;
  /** May hold the literal `{CHECKOUT_SESSION_ID}`, which the provider replaces with the session's id. */
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

/** A webhook delivery, reduced to what the app acts on. */
export type PaymentEvent = {
  id: string;
  type: string;
  /** Present for checkout.session.* events. */
  checkout?: CheckoutInfo;
};
