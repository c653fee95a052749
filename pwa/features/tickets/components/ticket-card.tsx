import { useEffect, useState } from "react";
import { eventOfReply } from "../../../../common/event-wire.ts";
import type { api, Ok } from "../../../lib/api.ts";
import { getJson } from "../../../lib/api-reply.ts";
import { EventTime } from "../../events/index.ts";
import { ticketStanding } from "../ticket-standing.ts";
import type { SavedTicket } from "../ticket-store.ts";
import { AddToCalendar } from "./add-to-calendar.tsx";
import { GiveTicket } from "./give-ticket.tsx";
import { WalletButtons } from "./wallet-buttons.tsx";
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
  | "status"
  | "bookingId"
  | "ticketToken"
  | "invoiceNumber"
>;

/**
 * The event's venue notes, read from its public answer (get-event, which the service worker keeps for
 * offline use): they are the event's, so an edit after the booking still reaches the saved ticket.
 */
function useVenueNotes(eventID: number, wanted: boolean): string | null {
  const [notes, setNotes] = useState<string | null>(null);
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    getJson<Ok<(typeof api)["get-event"][":id"]["$get"]>>(`/api/get-event/${eventID}`)
      .then((reply) => {
        if (live && reply.ok) setNotes(eventOfReply(reply.data).venueNotes ?? null);
      })
      // Offline and never fetched: the ticket shows what it keeps.
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [eventID, wanted]);
  return notes;
}

/** The saved ticket's receipt or tax invoice: its link token is the proof (docs/api.md, `GET /api/invoice`). */
const invoiceHref = (bookingId: number, token: string) =>
  `/api/invoice?bookingId=${bookingId}&t=${encodeURIComponent(token)}`;

const VOID_LABEL = {
  refunded: "Refunded",
  cancelled: "Cancelled",
  booking_cancelled: "Cancelled",
  transferred: "Given to a friend",
} as const;
const VOID_NOTE = {
  refunded: "This booking was refunded, so this ticket is no longer valid.",
  cancelled: "This event was cancelled, so this ticket is no longer valid. Your payment is being refunded.",
  booking_cancelled: "You cancelled this booking, so this ticket is no longer valid.",
  transferred: "NOT VALID: you gave this ticket to a friend, and their own ticket gets them in.",
} as const;

/**
 * One ticket. Valid and upcoming: the QR big enough to scan, the code readable aloud, and its
 * actions. Refunded or cancelled: said plainly, and the QR is not drawn at all (a struck-out
 * placeholder stands in its place), so no door scanner can read a dead ticket. Past: a record only.
 */
export function TicketCard({ ticket, headingLevel = 2 }: { ticket: TicketView; headingLevel?: 2 | 3 | 4 }) {
  const Heading = (["h2", "h3", "h4"] as const)[headingLevel - 2] ?? "h2";
  const { voided, past } = ticketStanding(ticket, Date.now());
  const usable = !voided && !past;
  const venueNotes = useVenueNotes(ticket.eventID, usable);
  return (
    <article
      className={`ticket-card${voided ? " is-void" : ""}${past ? " is-past" : ""}`}
      aria-label={`Ticket for ${ticket.eventName}`}
    >
      <Heading className="ticket-event">{ticket.eventName}</Heading>
      {voided ? (
        <div className="ticket-void-note">
          <p className="ticket-status">{VOID_LABEL[voided]}</p>
          <p>{VOID_NOTE[voided]}</p>
        </div>
      ) : past ? (
        <p className="ticket-past-note">This night is over.</p>
      ) : null}
      {usable ? (
        <img
          className="ticket-qr"
          src={ticket.qrCodeImage}
          alt={`QR code for ${ticket.name}'s ticket`}
          width={240}
          height={240}
        />
      ) : voided && !past ? (
        <div
          className="ticket-qr-void"
          role="img"
          aria-label={`No QR code: this ticket is ${VOID_LABEL[voided].toLowerCase()}`}
        >
          <span aria-hidden="true">Not valid</span>
        </div>
      ) : null}
      <dl className="ticket-facts">
        <div>
          <dt>Unique code</dt>
          <dd className="ticket-code">{voided ? <s>{ticket.uniqueCode}</s> : ticket.uniqueCode}</dd>
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
        {usable && venueNotes ? (
          <div>
            <dt>Venue notes</dt>
            <dd>{venueNotes}</dd>
          </div>
        ) : null}
      </dl>
      {usable ? (
        <>
          <a className="button ticket-download" href={ticket.qrCodeImage} download={`ticket-${ticket.uniqueCode}.png`}>
            Download QR
          </a>
          <AddToCalendar ticket={ticket} />
          {ticket.bookingId && ticket.ticketToken ? (
            <WalletButtons bookingId={ticket.bookingId} token={ticket.ticketToken} />
          ) : null}
          {ticket.status === "paid" ? <GiveTicket eventID={ticket.eventID} userID={ticket.userID} /> : null}
        </>
      ) : null}
      {!voided && ticket.bookingId && ticket.ticketToken && ticket.invoiceNumber ? (
        <a
          className="button ticket-download"
          href={invoiceHref(ticket.bookingId, ticket.ticketToken)}
          download
          aria-label={`Download invoice ${ticket.invoiceNumber}`}
        >
          Download invoice
        </a>
      ) : null}
    </article>
  );
}
