import { EventTime } from "../../events/components/event-time.tsx";
import type { SavedTicket } from "../ticket-store.ts";
import { AddToCalendar } from "./add-to-calendar.tsx";
import "../tickets.css";

export type TicketView = Pick<
  SavedTicket,
  | "eventID"
  | "userID"
  | "eventName"
  | "eventDateTime"
  | "eventLocation"
  | "timeZone"
  | "durationHours"
  | "name"
  | "uniqueCode"
  | "qrCodeImage"
>;

/** One ticket as shown at the door: the QR big enough to scan, the code readable aloud. */
export function TicketCard({ ticket, headingLevel = 2 }: { ticket: TicketView; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <article className="ticket-card" aria-label={`Ticket for ${ticket.eventName}`}>
      <Heading className="ticket-event">{ticket.eventName}</Heading>
      <img
        className="ticket-qr"
        src={ticket.qrCodeImage}
        alt={`QR code for ${ticket.name}'s ticket`}
        width={240}
        height={240}
      />
      <dl className="ticket-facts">
        <div>
          <dt>Unique code</dt>
          <dd className="ticket-code">{ticket.uniqueCode}</dd>
        </div>
        <div>
          <dt>Name</dt>
          <dd>{ticket.name}</dd>
        </div>
        {ticket.eventDateTime ? (
          <div>
            <dt>When</dt>
            <dd>
              <EventTime iso={ticket.eventDateTime} zone={ticket.timeZone} />
            </dd>
          </div>
        ) : null}
        {ticket.eventLocation ? (
          <div>
            <dt>Location</dt>
            <dd>{ticket.eventLocation}</dd>
          </div>
        ) : null}
      </dl>
      <a className="button ticket-download" href={ticket.qrCodeImage} download={`ticket-${ticket.uniqueCode}.png`}>
        Download QR
      </a>
      <AddToCalendar ticket={ticket} />
    </article>
  );
}
