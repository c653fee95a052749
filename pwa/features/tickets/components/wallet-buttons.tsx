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
 * A wallet's glyph beside the badge's words: a card slipping into a wallet, drawn here (no artwork is
 * fetched from anyone's server; docs/decisions/054-wallet-buttons.md). Decorative: the words name the button.
 */
function WalletGlyph() {
  return (
    <svg className="wallet-glyph" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
      <rect x="3" y="4" width="18" height="6" rx="1.5" fill="#4b9be8" />
      <rect x="3" y="7" width="18" height="6" rx="1.5" fill="#f5b83d" />
      <rect x="3" y="10" width="18" height="6" rx="1.5" fill="#e9574f" />
      <path d="M2 12h6a4 4 0 0 0 8 0h6v7a2 2 0 0 1-2 2H4a2 2 0 0 1-2-2z" fill="#fff" />
    </svg>
  );
}

/**
 * **Add to Apple Wallet** and **Add to Google Wallet** for a valid ticket, each only where the server
 * has its keys, in the order the phone's own wallet comes first. Apple's is a plain link to the
 * .pkpass (Safari hands it to Wallet); Google's asks for a fresh save link and goes there.
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
        <WalletGlyph />
        <span>Add to Apple Wallet</span>
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
        <WalletGlyph />
        <span>Add to Google Wallet</span>
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
