import { useEffect, useRef } from "react";
import { useLocation } from "react-router-dom";
import { ReplyView } from "../components/ui/reply-view.tsx";
import { useBookingStore } from "../features/booking/booking-store.ts";
import { BookingFlow } from "../features/booking/components/booking-flow.tsx";
import { EventSummaryCard } from "../features/booking/components/event-summary.tsx";
import { MissingState } from "../features/booking/components/missing-state.tsx";
import { useFlowEvent } from "../features/booking/use-flow-event.ts";

/** `/otp-verification?eventID=…`: each navigation to it decides afresh whether to begin or resume. */
export function OtpVerificationPage() {
  return <BookingPage key={useLocation().key} />;
}

const loading = (
  <p className="empty" role="status" aria-busy="true">
    Loading the event…
  </p>
);

function BookingPage() {
  const { flow, retry } = useFlowEvent();
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
        {flow.status === "ready" && waitlist ? "Join the waitlist" : "Book your seat"}
      </h1>
      {flow.status === "missing" ? (
        <MissingState message="Choose an event first: pick one from the list and press Book Tickets." />
      ) : (
        <ReplyView
          state={flow}
          loading={loading}
          idle={loading}
          error="We couldn't load this event. Please check your connection and try again."
          onRetry={retry}
        >
          {({ event }) => (
            <>
              <EventSummaryCard event={event} />
              <BookingFlow event={event} />
            </>
          )}
        </ReplyView>
      )}
    </main>
  );
}
