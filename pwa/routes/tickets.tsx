import { TicketLinkResult } from "../features/tickets/components/ticket-link-result.tsx";
import { TicketList } from "../features/tickets/components/ticket-list.tsx";
import { WalletFromLink } from "../features/tickets/components/wallet-from-link.tsx";
import { useTicketLink } from "../features/tickets/open-ticket-link.ts";

export function TicketsPage() {
  const { state, retry } = useTicketLink();
  return (
    <main className="page">
      <h1>My tickets</h1>
      <TicketLinkResult state={state} onRetry={retry} />
      {/* The email's Add to Google Wallet: on to Google once the linked ticket is open. */}
      <WalletFromLink state={state} />
      {/* The list is read once the texted ticket is saved, so it includes it. */}
      {state.status === "loading" ? null : <TicketList />}
    </main>
  );
}
