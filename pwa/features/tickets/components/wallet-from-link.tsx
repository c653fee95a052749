import { useEffect, useRef, useState } from "react";
import { useSearchParams } from "react-router-dom";
import type { TicketLinkState } from "../open-ticket-link.ts";
import { openGoogleWallet, walletConfig } from "../wallet.ts";

/**
 * The ticket email's **Add to Google Wallet**: the ticket link with `&wallet=google`. Once the link's
 * ticket is open (and saved), a save link made now is asked for and the phone goes on to Google; the
 * email itself never carries one (docs/decisions/054-wallet-buttons.md). Offline or refused, the
 * ticket stays on screen with the reason, and its own button can try again.
 */
export function WalletFromLink({ state }: { state: TicketLinkState }) {
  const [search, setSearch] = useSearchParams();
  const [message, setMessage] = useState<string | null>(null);
  const wanted = search.get("wallet") === "google";
  const done = useRef(false);
  const ticket = state.status === "added" ? state.ticket : null;
  useEffect(() => {
    if (!wanted || done.current || !ticket) return;
    done.current = true;
    setSearch(
      (current) => {
        const rest = new URLSearchParams(current);
        rest.delete("wallet");
        return rest;
      },
      { replace: true },
    );
    const { bookingId, ticketToken } = ticket;
    if (!bookingId || !ticketToken) return;
    void walletConfig().then(async (wallet) => {
      if (wallet.google) setMessage(await openGoogleWallet(bookingId, ticketToken));
    });
  }, [wanted, ticket, setSearch]);
  return message ? (
    <p className="notice" role="status">
      {message}
    </p>
  ) : null;
}
