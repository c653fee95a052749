import { eventOfReply } from "../../../common/event-wire.ts";
import type { api, Ok } from "../../lib/api.ts";
import type { TicketFields } from "./ticket-store.ts";

/** What send-confirmation and POST /api/ticket answer for a paid booking (the server's one ticket shape). */
export type TicketReply = Ok<(typeof api)["ticket"]["$post"]>;

export type { TicketFields } from "./ticket-store.ts";

/**
 * The saved-ticket shape of a reply, one mapping for the success page, the texted link and /me's
 * upcoming nights (whose `ticket` is this reply without `success`), so all keep the same ticket.
 */
export function ticketFromReply(reply: Omit<TicketReply, "success">): TicketFields {
  // The reply's event fields by the names of the code (common/event-wire.ts).
  const data = eventOfReply(reply);
  return {
    eventID: data.eventID,
    userID: data.userID,
    eventName: data.eventName,
    eventDateTime: data.eventDate,
    eventLocation: data.eventLocation,
    timeZone: data.timeZone,
    durationHours: data.durationHours,
    name: data.name,
    phone: data.phone,
    uniqueCode: data.uniqueCode,
    qrCodeImage: data.qrCodeImage,
    bookingId: data.bookingId,
    ticketToken: data.ticketToken,
    amountCents: data.amountCents,
    cancellationPolicy: data.cancellationPolicy,
    invoiceNumber: data.invoiceNumber,
  };
}
