import { eventOfReply } from "../../../common/event-wire.ts";
import { api, CallFailed, mapReply, send } from "../../lib/api.ts";
import { recordTicketNews, type SavedTicket, type TicketNews } from "./ticket-store.ts";

/** Refunded, cancelled and given to a friend are final; a paid or ended ticket may still be refunded. */
const settled = (ticket: SavedTicket) =>
  ticket.status === "refunded" ||
  ticket.status === "cancelled" ||
  ticket.status === "booking_cancelled" ||
  ticket.status === "transferred";

/**
 * Asks the server what each saved ticket is worth now (`POST /api/ticket-status`, docs/api.md), each
 * with its own capability, the texted link's token it was saved with, so a phone only ever learns
 * about its own tickets. Tickets saved without a token, and any the server could not be asked about
 * (offline, a refusal), keep what this phone last knew: the list still shows at the door with no network.
 * `unreached` hears of each ticket whose call could not be made at all, so the caller may ask again.
 */
export async function refreshTicketStatuses(
  tickets: SavedTicket[],
  unreached: (ticket: SavedTicket) => void = () => {},
): Promise<SavedTicket[]> {
  return Promise.all(
    tickets.map(async (ticket) => {
      if (!ticket.bookingId || !ticket.ticketToken || settled(ticket)) return ticket;
      let news: TicketNews;
      try {
        const reply = mapReply(
          await send(api["ticket-status"].$post({ json: { bookingId: ticket.bookingId, t: ticket.ticketToken } })),
          eventOfReply,
        );
        if (!reply.ok) return ticket;
        news = {
          status: reply.data.status,
          eventName: reply.data.eventName,
          eventDateTime: reply.data.eventDate,
          eventLocation: reply.data.eventLocation,
          timeZone: reply.data.timeZone,
          durationHours: reply.data.durationHours,
          amountCents: reply.data.amountCents,
          cancellationPolicy: reply.data.cancellationPolicy,
          invoiceNumber: reply.data.invoiceNumber,
        };
      } catch (error) {
        if (error instanceof CallFailed) unreached(ticket);
        else console.error(error);
        return ticket;
      }
      try {
        return (await recordTicketNews(ticket.key, news)) ?? { ...ticket, ...news };
      } catch (error) {
        // Storage refused the write: still show the news now.
        console.error(error);
        return { ...ticket, ...news };
      }
    }),
  );
}
