import { type CalendarTicket, calendarFileName, ticketCalendar } from "../../../../common/calendar.ts";

/** Downloads the ticket's `.ics`; made on the phone, so it works at the venue with no signal. */
export function AddToCalendar({ ticket }: { ticket: CalendarTicket }) {
  if (!ticket.eventDateTime) return null;
  const download = () => {
    const ics = ticketCalendar(ticket, window.location.origin);
    if (!ics) return;
    const url = URL.createObjectURL(new Blob([ics], { type: "text/calendar;charset=utf-8" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = calendarFileName(ticket);
    document.body.append(link);
    link.click();
    link.remove();
    // Revoked later, not at once: some browsers start the download after the click handler returns.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  };
  return (
    <button type="button" className="button ticket-download" onClick={download}>
      Add to calendar
    </button>
  );
}
