import { useCallback, useState } from "react";
import { BookAgain } from "../features/booking/components/book-again.tsx";
import { AttendeeSummary } from "../features/booking/components/booking-details.tsx";
import { EventSummaryCard } from "../features/booking/components/event-summary.tsx";
import { HoldNotice } from "../features/booking/components/hold-notice.tsx";
import { MissingState } from "../features/booking/components/missing-state.tsx";
import { ProceedToPayment } from "../features/booking/components/proceed-to-payment.tsx";
import { PromoCode } from "../features/booking/components/promo-code.tsx";
import { useHeldBooking } from "../features/booking/use-held-booking.ts";
import "../features/booking/booking.css";

export function ConfirmationPage() {
  const { state, eventID, cancelled } = useHeldBooking();
  const [gone, setGone] = useState(false);
  const onGone = useCallback(() => setGone(true), []);
  if (!state) {
    return (
      <main className="page">
        <h1>Confirmation</h1>
        {cancelled ? (
          <p className="notice" role="status">
            Payment cancelled: nothing was charged.
          </p>
        ) : null}
        <MissingState message="Error: No user or event data available." eventID={eventID} />
      </main>
    );
  }
  return (
    <main className="page">
      <h1>Confirmation</h1>
      <HoldNotice until={state.holdExpiresAt} zone={state.event.timeZone} cancelled={cancelled} onGone={onGone} />
      <h2 className="booking-section-title">Your details</h2>
      <AttendeeSummary user={state.user} />
      <h2 className="booking-section-title">Event</h2>
      <EventSummaryCard event={state.event} gender={state.user.gender} />
      {gone ? (
        <BookAgain event={state.event} />
      ) : (
        <>
          <PromoCode userID={state.user.userID} eventID={state.event.id} />
          <ProceedToPayment user={state.user} event={state.event} />
        </>
      )}
    </main>
  );
}
