import { useEffect, useRef } from "react";
import { useLocation } from "react-router-dom";
import { useBookingStore } from "../features/booking/booking-store.ts";
import { BookingFlow } from "../features/booking/components/booking-flow.tsx";
import { EventSummaryCard } from "../features/booking/components/event-summary.tsx";
import { MissingState } from "../features/booking/components/missing-state.tsx";
import { useFlowEvent } from "../features/booking/use-flow-event.ts";
import { ErrorNotice } from "../lib/error-notice.tsx";

/** `/otp-verification?eventID=…`: each navigation to it decides afresh whether to begin or resume. */
export function OtpVerificationPage() {
  return <BookingPage key={useLocation().key} />;
}

function BookingPage() {
  const flow = useFlowEvent();
  const waitlist = useBookingStore((s) => s.intent === "waitlist" && !s.offer);
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
        {flow.kind === "ready" && waitlist ? "Join the waitlist" : "Book your seat"}
      </h1>
      {flow.kind === "ready" ? (
        <>
          <EventSummaryCard event={flow.event} />
          <BookingFlow event={flow.event} />
        </>
      ) : flow.kind === "loading" ? (
        <p className="empty" role="status" aria-busy="true">
          Loading the event…
        </p>
      ) : flow.kind === "failed" ? (
        <ErrorNotice
          message="We couldn't load this event. Please check your connection and try again."
          onRetry={flow.retry}
        />
      ) : (
        <MissingState message="Choose an event first: pick one from the list and press Book Tickets." />
      )}
    </main>
  );
}
