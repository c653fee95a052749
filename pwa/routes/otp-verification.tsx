import { useLocation } from "react-router-dom";
import { BookingFlow } from "../features/booking/components/booking-flow.tsx";
import { EventSummaryCard } from "../features/booking/components/event-summary.tsx";
import { MissingState } from "../features/booking/components/missing-state.tsx";
import type { EventSummary } from "../features/events/types.ts";

export function OtpVerificationPage() {
  const event = (useLocation().state as { event?: EventSummary } | null)?.event;
  return (
    <main className="page">
      <h1>Book your seat</h1>
      {event ? (
        <>
          <EventSummaryCard event={event} />
          <BookingFlow event={event} />
        </>
      ) : (
        <MissingState message="Choose an event first: pick one from the list and press Book Tickets." />
      )}
    </main>
  );
}
