import { Link } from "react-router-dom";
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
    return (
      <div className="notice error" role="alert">
        <p>This browser couldn't open the tickets saved on this device.</p>
        <button type="button" className="button" onClick={() => void reload()}>
          Try again
        </button>
      </div>
    );
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
