import { useLocation } from "react-router-dom";
import { AttendeeSummary } from "../features/booking/components/booking-details.tsx";
import { EventSummaryCard } from "../features/booking/components/event-summary.tsx";
import { MissingState } from "../features/booking/components/missing-state.tsx";
import { ProceedToPayment } from "../features/booking/components/proceed-to-payment.tsx";
import type { ConfirmationState } from "../features/booking/types.ts";
import "../features/booking/booking.css";

export function ConfirmationPage() {
  const state = useLocation().state as Partial<ConfirmationState> | null;
  if (!state?.user || !state.event) {
    return (
      <main className="page">
        <h1>Confirmation</h1>
        <MissingState message="Error: No user or event data available." />
      </main>
    );
  }
  return (
    <main className="page">
      <h1>Confirmation</h1>
      <p>Your seat is held for 30 minutes. Check your details, then pay to confirm it.</p>
      <h2 className="booking-section-title">Your details</h2>
      <AttendeeSummary user={state.user} />
      <h2 className="booking-section-title">Event</h2>
      <EventSummaryCard event={state.event} />
      <ProceedToPayment user={state.user} event={state.event} />
    </main>
  );
}
