import { Link } from "react-router-dom";
import { ErrorNotice } from "../../../lib/error-notice.tsx";
import { useSavedTickets } from "../use-saved-tickets.ts";
import { TicketCard } from "./ticket-card.tsx";

export function TicketList() {
  const { state, reload } = useSavedTickets();
  if (state.status === "loading") {
    return (
      <p className="empty" role="status" aria-busy="true">
        Loading your tickets…
      </p>
    );
  }
  if (state.status === "error") {
    return <ErrorNotice message="This browser couldn't open the tickets saved on this device." onRetry={reload} />;
  }
  if (state.tickets.length === 0) {
    return (
      <div className="empty">
        <p>No tickets are saved on this device yet. Book an event and your ticket appears here, ready for the door.</p>
        <Link className="button primary" to="/">
          Browse events
        </Link>
      </div>
    );
  }
  return (
    <ul className="ticket-list">
      {state.tickets.map((ticket) => (
        <li key={ticket.key}>
          <TicketCard ticket={ticket} />
        </li>
      ))}
    </ul>
  );
}
