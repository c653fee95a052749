import { Link } from "react-router-dom";
import { cancelSignInPath, type ticketStatusAfter } from "../cancel-booking.ts";
import type { SavedTicket } from "../ticket-store.ts";
import { CancelBooking } from "./cancel-booking.tsx";

/**
 * **Cancel my booking** under a ticket saved on this phone (My tickets, the texted link, the success
 * page). A ticket saved before tickets carried their price and policy, and never refreshed since,
 * leads to /me, which knows both once signed in.
 */
export function TicketCancel({
  ticket,
  onCancelled,
}: {
  ticket: Pick<
    SavedTicket,
    "eventID" | "userID" | "eventName" | "eventDateTime" | "amountCents" | "cancellationPolicy" | "status"
  >;
  onCancelled(announcement: string, ticketStatus: ReturnType<typeof ticketStatusAfter>): void;
}) {
  if (ticket.status !== "paid" || !ticket.eventDateTime) return null;
  const target = { eventID: ticket.eventID, userID: ticket.userID };
  if (ticket.amountCents === undefined || !ticket.cancellationPolicy) {
    return (
      <p className="cancel-booking">
        <Link className="button" to={cancelSignInPath(target)}>
          Cancel my booking
        </Link>
      </p>
    );
  }
  return (
    <CancelBooking
      {...target}
      eventName={ticket.eventName}
      eventDate={ticket.eventDateTime}
      amountCents={ticket.amountCents}
      policy={ticket.cancellationPolicy}
      signInPath={cancelSignInPath(target)}
      onCancelled={onCancelled}
    />
  );
}
