import type { SavedTicket } from "./ticket-store.ts";

/** What send-confirmation and POST /api/ticket answer for a paid booking. */
export type TicketReply = {
  qrCodeImage?: string;
  uniqueCode?: string;
  eventName?: string;
  eventDate?: string;
  eventLocation?: string;
  time_zone?: string;
  event_duration?: number;
  name?: string;
  phone?: string;
  userID?: number;
  eventID?: number;
};

export type TicketFields = Omit<SavedTicket, "key" | "savedAt">;

/**
 * The saved-ticket shape of a reply, one mapping for the success page and the texted link so both
 * keep the same ticket. `known` fills what the reply leaves out (the success URL's ids and name).
 * Null when the reply is not a ticket.
 */
export function ticketFromReply(
  data: TicketReply | null | undefined,
  known: { eventID?: number; userID?: number; eventName?: string; phone?: string } = {},
): TicketFields | null {
  const eventID = data?.eventID ?? known.eventID;
  const userID = data?.userID ?? known.userID;
  if (!data?.uniqueCode || !data.qrCodeImage || !eventID || !userID) return null;
  return {
    eventID,
    userID,
    eventName: data.eventName ?? known.eventName ?? "",
    eventDateTime: data.eventDate,
    eventLocation: data.eventLocation,
    timeZone: data.time_zone,
    durationHours: data.event_duration,
    name: data.name ?? "",
    phone: data.phone ?? known.phone,
    uniqueCode: data.uniqueCode,
    qrCodeImage: data.qrCodeImage,
  };
}
