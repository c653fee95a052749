import { useEffect, useState } from "react";
import { useNavigate } from "react-router-dom";
import type { EventView } from "../../events/index.ts";
import { paidByCreditPath, startCheckout, useSignedInCredit } from "../../payment/index.ts";
import { useBookingStore } from "../booking-store.ts";
import { creditBoxLabel, creditNote } from "../credit-at-checkout.ts";
import type { BookingUser } from "../types.ts";

export function ProceedToPayment({ user, event }: { user: BookingUser; event: EventView }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const navigate = useNavigate();
  // Credit (issue 52): the box is the flow's, kept in its one store; the balance is the /me session's.
  const useCredit = useBookingStore((s) => s.useCredit);
  const setUseCredit = useBookingStore((s) => s.setUseCredit);
  const promo = useBookingStore((s) => s.promo);
  const credit = useSignedInCredit(user.phone);
  const creditCents = credit.status === "ready" ? credit.cents : 0;
  const priceCents =
    promo && promo.userID === user.userID && promo.eventID === event.id
      ? Math.round(promo.amount * 100)
      : event.priceCents;
  // Back from the payment page may restore this page as it was left (back/forward cache):
  // the button must work again, not stay busy forever.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setBusy(false);
    };
    window.addEventListener("pageshow", onPageShow);
    return () => window.removeEventListener("pageshow", onPageShow);
  }, []);
  const proceed = async () => {
    setBusy(true);
    setError(null);
    try {
      // On success the browser leaves for the payment page, so the busy state stays on; a booking
      // paid wholly by credit has no page to leave for, and shows its ticket at once.
      const went = await startCheckout(user, event, { useCredit: useCredit && creditCents > 0 });
      if (went === "paid-by-credit") navigate(paidByCreditPath({ userID: user.userID, eventID: event.id }));
    } catch (e) {
      setBusy(false);
      // start-checkout throws errors whose message is written for the attendee.
      setError(e instanceof Error && e.message ? e.message : "Could not start the payment. Please try again.");
    }
  };
  const paysAll = useCredit && creditCents >= priceCents;
  return (
    <div className="booking-actions">
      {creditCents > 0 ? (
        <div className="use-credit">
          <label>
            <input
              type="checkbox"
              checked={useCredit}
              onChange={(e) => setUseCredit(e.currentTarget.checked)}
              disabled={busy}
              aria-describedby="use-credit-note"
            />{" "}
            {creditBoxLabel(creditCents)}
          </label>
          <p className="hint" id="use-credit-note">
            {creditNote(useCredit, creditCents, priceCents)}
          </p>
        </div>
      ) : null}
      <button type="button" className="button primary" onClick={proceed} disabled={busy} aria-busy={busy}>
        {paysAll ? "Book with my credit" : "Proceed to Payment"}
      </button>
      <p className="message" role="status">
        {busy ? (paysAll ? "Booking your seat with your credit…" : "Taking you to the secure payment page…") : null}
      </p>
      <p className="message error" role="alert">
        {error}
      </p>
    </div>
  );
}
