import { Link } from "react-router-dom";
import { ReplyView } from "../../../components/ui/reply-view.tsx";
import { useAnnouncement } from "../../../lib/announcement.tsx";
import { groupTickets } from "../ticket-standing.ts";
import type { SavedTicket } from "../ticket-store.ts";
import { useSavedTickets } from "../use-saved-tickets.ts";
import { TicketCancel } from "./ticket-cancel.tsx";
import { TicketCard } from "./ticket-card.tsx";

function Tickets({
  tickets,
  headingLevel,
  onCancelled,
}: {
  tickets: SavedTicket[];
  headingLevel: 2 | 3 | 4;
  /** Given, each valid ticket offers **Cancel my booking** (signing in on /me first if need be). */
  onCancelled?: (announcement: string) => void;
}) {
  return (
    <ul className="ticket-list">
      {tickets.map((ticket) => (
        <li key={ticket.key}>
          <TicketCard ticket={ticket} headingLevel={headingLevel} />
          {onCancelled ? <TicketCancel ticket={ticket} onCancelled={onCancelled} /> : null}
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
  const { state, reload, refresh } = useSavedTickets();
  const { announce, region } = useAnnouncement();
  // On /tickets; on /me (signed out) the sign-in is already on the page.
  const onCancelled =
    level === 2
      ? (announcement: string) => {
          announce(announcement);
          void refresh();
        }
      : undefined;
  return (
    <>
      {region}
      <SavedTickets state={state} reload={reload} level={level} onCancelled={onCancelled} />
    </>
  );
}

function SavedTickets({
  state,
  reload,
  level,
  onCancelled,
}: Pick<ReturnType<typeof useSavedTickets>, "state" | "reload"> & {
  level: 2 | 3;
  onCancelled?: (announcement: string) => void;
}) {
  return (
    <ReplyView
      state={state}
      loading={
        <p className="empty" role="status" aria-busy="true">
          Loading your tickets…
        </p>
      }
      error="This browser couldn't open the tickets saved on this device."
      onRetry={reload}
      isEmpty={(ready) => ready.tickets.length === 0}
      empty={
        <div className="empty">
          <p>
            No tickets are saved on this device yet. Book an event and your ticket appears here, ready for the door.
          </p>
          <Link className="button primary" to="/">
            Browse events
          </Link>
        </div>
      }
    >
      {({ tickets }) => <TicketGroups tickets={tickets} level={level} onCancelled={onCancelled} />}
    </ReplyView>
  );
}

function TicketGroups({
  tickets,
  level,
  onCancelled,
}: {
  tickets: SavedTicket[];
  level: 2 | 3;
  onCancelled?: (announcement: string) => void;
}) {
  const Group = level === 2 ? "h2" : "h3";
  const inner = level === 2 ? 3 : 4;
  const { upcoming, past } = groupTickets(tickets, Date.now());
  if (past.length === 0) return <Tickets tickets={upcoming} headingLevel={level} onCancelled={onCancelled} />;
  return (
    <>
      {upcoming.length > 0 ? (
        <section className="ticket-group" aria-labelledby="tickets-upcoming">
          <Group id="tickets-upcoming">Upcoming</Group>
          <Tickets tickets={upcoming} headingLevel={inner} onCancelled={onCancelled} />
        </section>
      ) : null}
      <section className="ticket-group" aria-labelledby="tickets-past">
        <Group id="tickets-past">Past</Group>
        <Tickets tickets={past} headingLevel={inner} />
      </section>
    </>
  );
}
