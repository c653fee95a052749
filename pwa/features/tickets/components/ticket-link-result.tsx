import { ErrorNotice } from "../../../lib/error-notice.tsx";
import type { TicketLinkState } from "../open-ticket-link.ts";
import { TicketCard } from "./ticket-card.tsx";

/** What became of the texted ticket link: adding, added (and saved or not), or why it could not be. */
export function TicketLinkResult({ state, onRetry }: { state: TicketLinkState; onRetry: () => unknown }) {
  if (state.status === "none") return null;
  if (state.status === "loading") {
    return (
      <p className="empty" role="status" aria-busy="true">
        Adding your ticket to this phone…
      </p>
    );
  }
  if (state.status === "error") {
    return <ErrorNotice message={state.message} onRetry={state.canRetry ? onRetry : undefined} />;
  }
  if (state.saved) {
    return (
      <p className="notice ok ticket-added" role="status">
        Ticket added for {state.ticket.eventName}. It's saved on this phone, so it shows at the door even without a
        connection.
      </p>
    );
  }
  return (
    <section className="ticket-added" aria-label="Your ticket">
      <TicketCard ticket={state.ticket} />
      <p className="message" role="status">
        This browser couldn't save the ticket: download the QR or keep the text message.
      </p>
    </section>
  );
}
