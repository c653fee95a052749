import { useEffect, useRef } from "react";
import { useLocation } from "react-router-dom";
import { BookingFlow } from "../features/booking/components/booking-flow.tsx";
import { EventSummaryCard } from "../features/booking/components/event-summary.tsx";
import { MissingState } from "../features/booking/components/missing-state.tsx";
import type { BookingPageState } from "../features/booking/types.ts";

export function OtpVerificationPage() {
  const state = useLocation().state as Partial<BookingPageState> | null;
  const event = state?.event;
  const waitlist = state?.intent === "waitlist" && !state.offer;
  // Reached from a card far down the list, the page would open at that scroll position, its heading
  // under the sticky header: it opens at the top instead, with the heading focused for screen readers.
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    window.scrollTo({ top: 0 });
    heading.current?.focus({ preventScroll: true });
  }, []);
  return (
    <main className="page">
      <h1 ref={heading} tabIndex={-1} className="page-heading">
        {waitlist ? "Join the waitlist" : "Book your seat"}
      </h1>
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
