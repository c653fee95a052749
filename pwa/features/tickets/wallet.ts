import type { api, Ok } from "../../lib/api.ts";
import { CallFailed, getJson } from "../../lib/api-reply.ts";

// The ticket in Apple Wallet and Google Wallet (docs/decisions/054-wallet-buttons.md): which wallets
// the server has keys for, which badge a phone sees first, and the Google save link.

export type Wallet = "apple" | "google";
export type WalletConfig = Ok<(typeof api)["public-config"]["$get"]>["wallet"];

let config: Promise<WalletConfig> | null = null;

/**
 * Which wallets are set up, read once per page load and shared by every ticket on the screen. A
 * config the service worker cached before it said (or no answer at all) shows no button.
 */
export function walletConfig(): Promise<WalletConfig> {
  config ??= getJson<Ok<(typeof api)["public-config"]["$get"]>>("/api/public-config")
    .then((reply) => {
      // A config the service worker cached before it said has no `wallet`: then no button.
      const data: { wallet?: Partial<WalletConfig> } = reply.ok ? reply.data : {};
      return { apple: data.wallet?.apple === true, google: data.wallet?.google === true };
    })
    .catch(() => {
      config = null;
      return { apple: false, google: false };
    });
  return config;
}

/**
 * Android phones see Google's badge first; iPhones and iPads (an iPad may say "Macintosh") and
 * everyone else Apple's then Google's.
 */
export const walletOrder = (userAgent: string): Wallet[] =>
  /Android/i.test(userAgent) ? ["google", "apple"] : ["apple", "google"];

/** The .pkpass download: the ticket link's token is the proof, so it works wherever the ticket was saved. */
export const appleWalletHref = (bookingId: number, token: string) =>
  `/api/wallet/apple/${bookingId}?t=${encodeURIComponent(token)}`;

export const GOOGLE_OFFLINE =
  "Adding to Google Wallet needs a connection. Your ticket is still saved on this phone; try again once you're online.";
const GOOGLE_FAILED = "We couldn't reach Google Wallet just now. Your ticket is still here; please try again.";

/**
 * Asks the server for a fresh save link and goes to Google with it. Offline, or refused, it stays
 * on the ticket and says why: nothing on the phone changes.
 */
export async function openGoogleWallet(bookingId: number, token: string): Promise<string | null> {
  if (!navigator.onLine) return GOOGLE_OFFLINE;
  try {
    const reply = await getJson<{ url: string }>(
      `/api/wallet/google/${bookingId}?t=${encodeURIComponent(token)}` as `/api/${string}`,
    );
    if (!reply.ok) return GOOGLE_FAILED;
    window.location.assign(reply.data.url);
    return null;
  } catch (error) {
    return error instanceof CallFailed ? GOOGLE_OFFLINE : GOOGLE_FAILED;
  }
}
