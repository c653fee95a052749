import appleBadge from "@wallet-badges/apple/en.svg?url";
import googleBadge from "@wallet-badges/google/en-AU.svg?url";
import { useState } from "react";
import { useReply } from "../../../lib/use-reply.ts";
import {
  appleWalletHref,
  openGoogleWallet,
  type Wallet,
  type WalletConfig,
  walletConfig,
  walletOrder,
} from "../wallet.ts";

type Ready = { status: "ready"; wallet: WalletConfig };
const NONE: Ready = { status: "ready", wallet: { apple: false, google: false } };

/** The set-up wallets, read once per page load (wallet.ts); until known, and on failure, none. */
export function useWalletConfig(): WalletConfig {
  const { state } = useReply<Ready, string>("wallet-config", {
    load: async () => ({ status: "ready", wallet: await walletConfig() }),
    failed: () => NONE,
  });
  return state.status === "ready" ? state.wallet : NONE.wallet;
}

/**
 * **Add to Apple Wallet** and **Add to Google Wallet** for a valid ticket, each only where the server
 * has its keys, in the order the phone's own wallet comes first, each drawn with its wallet's own
 * badge artwork (from `@neostore/cinto`; the image's alternative text is the button's name). Apple's
 * is a plain link to the .pkpass (Safari hands it to Wallet); Google's asks for a fresh save link and
 * goes there.
 */
export function WalletButtons({ bookingId, token }: { bookingId: number; token: string }) {
  const wallet = useWalletConfig();
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const shown = walletOrder(navigator.userAgent).filter((w) => wallet[w]);
  if (shown.length === 0) return null;
  const badge = (w: Wallet) =>
    w === "apple" ? (
      <a key="apple" className="wallet-badge" href={appleWalletHref(bookingId, token)}>
        <img src={appleBadge} alt="Add to Apple Wallet" width="126" height="40" />
      </a>
    ) : (
      <button
        key="google"
        type="button"
        className="wallet-badge"
        aria-busy={busy}
        onClick={async () => {
          if (busy) return;
          setBusy(true);
          setMessage(null);
          const problem = await openGoogleWallet(bookingId, token);
          setBusy(false);
          setMessage(problem);
        }}
      >
        <img src={googleBadge} alt="Add to Google Wallet" width="145" height="40" />
      </button>
    );
  return (
    <div className="wallet-badges">
      {shown.map(badge)}
      <p className="message wallet-message" role="status">
        {message}
      </p>
    </div>
  );
}
