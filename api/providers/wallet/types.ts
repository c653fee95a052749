/**
 * One update to a wallet pass, as the outbox hands it to the provider (docs/decisions/055-wallet-updates.md):
 * - `apns`: a push to one Apple device. It carries nothing: the device then asks the PassKit web
 *   service which of its passes changed and fetches them.
 * - `google_wallet`: a PATCH of one of Google's resources (`eventTicketObject` for a ticket,
 *   `eventTicketClass` for its event) by id, with the fields to change.
 */
export type WalletPush =
  | { channel: "apns"; pushToken: string }
  | {
      channel: "google_wallet";
      resource: GoogleWalletResource;
      id: string;
      patch: Record<string, unknown>;
    };

export const GOOGLE_WALLET_RESOURCES = ["eventTicketObject", "eventTicketClass"] as const;
export type GoogleWalletResource = (typeof GOOGLE_WALLET_RESOURCES)[number];

/**
 * A push or PATCH that failed. `permanent`: the other side's final word about this one (APNs' 410
 * Unregistered or 400 BadDeviceToken, Google's 404 for an object nobody saved), so the outbox stops
 * retrying, and for APNs forgets the device; anything else (a timeout, a 5xx, 429) is retried.
 */
export class WalletPushError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = "WalletPushError";
  }
}

/** What the outbox sends wallet updates with. Chosen once at start-up (providers/wallet/index.ts). */
export interface WalletPushProvider {
  /** Resolves with an id for the row (APNs' `apns-id`, or the resource's id), or rejects (WalletPushError). */
  send(push: WalletPush): Promise<{ id: string }>;
  /** Closes the HTTP/2 connection to APNs, if one is open (shutdown, end of a test). */
  close(): void;
}
