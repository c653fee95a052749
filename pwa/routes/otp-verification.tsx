import { useLocation } from "react-router-dom";
import { BookingFlow } from "../features/booking/components/booking-flow.tsx";
import { EventSummaryCard } from "../features/booking/components/event-summary.tsx";
import { MissingState } from "../features/booking/components/missing-state.tsx";
import type { BookingPageState } from "../features/booking/types.ts";

export function OtpVerificationPage() {
  const state = useLocation().state as Partial<BookingPageState> | null;
  const event = state?.event;
  const waitlist = state?.intent === "waitlist" && !state.offer;
  return (
    <main className="page">
      <h1>{waitlist ? "Join the waitlist" : "Book your seat"}</h1>
      {event ? (
        <>
          <EventSummaryCard event={event} />
          <BookingFlow event={event} intent={waitlist ? "waitlist" : "book"} offer={state.offer} />
        </>
      ) : (
        <MissingState message="Choose an event first: pick one from the list and press Book Tickets." />
      )}
    </main>
  );
}
