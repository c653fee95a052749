// What other features use of the tickets: the card and its Cancel my booking (/me, the payment's
// success page), the one ticket shape the server answers, and the phone's saved tickets.
export { CancelBooking } from "./components/cancel-booking.tsx";
export { TicketCancel } from "./components/ticket-cancel.tsx";
export { TicketCard } from "./components/ticket-card.tsx";
export { ticketFromReply } from "./ticket-reply.ts";
export { asSavedTicket, getTicket, type SavedTicket, saveTicket } from "./ticket-store.ts";
