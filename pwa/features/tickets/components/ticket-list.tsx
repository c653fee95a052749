import { Link } from "react-router-dom";
import { ErrorNotice } from "../../../lib/error-notice.tsx";
import { groupTickets } from "../ticket-standing.ts";
import type { SavedTicket } from "../ticket-store.ts";
import { useSavedTickets } from "../use-saved-tickets.ts";
import { TicketCard } from "./ticket-card.tsx";

function Tickets({
  tickets,
  headingLevel,
  canCancel = false,
}: {
  tickets: SavedTicket[];
  headingLevel: 2 | 3 | 4;
  /** Each paid ticket leads to **Cancel my booking** on /me (which signs the phone in first if need be). */
  canCancel?: boolean;
}) {
  return (
    <ul className="ticket-list">
      {tickets.map((ticket) => (
        <li key={ticket.key}>
          <TicketCard ticket={ticket} headingLevel={headingLevel} />
          {canCancel && ticket.status === "paid" ? (
            <p className="ticket-cancel">
              <Link className="button" to="/me">
                Cancel my booking
              </Link>{" "}
              <span className="hint">On My nights, signed in with this number: it shows what comes back first.</span>
            </p>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/**
 * The tickets saved on this device, upcoming then past. `level` is the heading level of its groups
 * (2 on /tickets; 3 inside a section of its own, as on /me when signed out).
 */
export function TicketList({ level = 2 }: { level?: 2 | 3 } = {}) {
  const Group = level === 2 ? "h2" : "h3";
  const inner = level === 2 ? 3 : 4;
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
  const { upcoming, past } = groupTickets(state.tickets, Date.now());
  // On /tickets; on /me (signed out) the sign-in is already on the page.
  const canCancel = level === 2;
  if (past.length === 0) return <Tickets tickets={upcoming} headingLevel={level} canCancel={canCancel} />;
  return (
    <>
      {upcoming.length > 0 ? (
        <section className="ticket-group" aria-labelledby="tickets-upcoming">
          <Group id="tickets-upcoming">Upcoming</Group>
          <Tickets tickets={upcoming} headingLevel={inner} canCancel={canCancel} />
        </section>
      ) : null}
      <section className="ticket-group" aria-labelledby="tickets-past">
        <Group id="tickets-past">Past</Group>
        <Tickets tickets={past} headingLevel={inner} />
      </section>
    </>
  );
}
