import { type ApnsOptions, createApnsClient } from "./apns.ts";
import { createGoogleWalletApi, type GoogleApiOptions } from "./google-api.ts";
import { WalletPushError, type WalletPushProvider } from "./types.ts";

export type WalletPushOptions = {
  /** Apple's side: absent when Apple Wallet is not configured. */
  apns?: ApnsOptions;
  /** Google's side: absent when Google Wallet is not configured. */
  google?: GoogleApiOptions;
};

/**
 * The outbox's sender for wallet updates: pushes to APNs and PATCHes to Google, each only where its
 * wallet is configured (an update for the other waits, as an email waits without a mail provider).
 * Undefined when neither is: the outbox then leaves wallet rows alone.
 */
export function createWalletPushProvider(options: WalletPushOptions): WalletPushProvider | undefined {
  if (!options.apns && !options.google) return undefined;
  const apns = options.apns ? createApnsClient(options.apns) : undefined;
  const google = options.google ? createGoogleWalletApi(options.google) : undefined;
  return {
    async send(push) {
      if (push.channel === "apns") {
        if (!apns) throw new WalletPushError("Apple Wallet is not configured", false);
        return apns.push(push.pushToken);
      }
      if (!google) throw new WalletPushError("Google Wallet is not configured", false);
      return google.patch(push.resource, push.id, push.patch);
    },
    close() {
      apns?.close();
    },
  };
}
