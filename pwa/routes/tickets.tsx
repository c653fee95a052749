import { TicketList } from "../features/tickets/components/ticket-list.tsx";

export function TicketsPage() {
  return (
    <main className="page">
      <h1>My tickets</h1>
      <TicketList />
    </main>
  );
}
