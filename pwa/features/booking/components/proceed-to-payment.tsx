import { useEffect, useState } from "react";
import type { EventView } from "../../events/index.ts";
import { startCheckout } from "../../payment/index.ts";
import type { BookingUser } from "../types.ts";

export function ProceedToPayment({ user, event }: { user: BookingUser; event: EventView }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
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
      // On success the browser leaves for the payment page, so the busy state stays on.
      await startCheckout(user, event);
    } catch (e) {
      setBusy(false);
      // start-checkout throws errors whose message is written for the attendee.
      setError(e instanceof Error && e.message ? e.message : "Could not start the payment. Please try again.");
    }
  };
  return (
    <div className="booking-actions">
      <button type="button" className="button primary" onClick={proceed} disabled={busy} aria-busy={busy}>
        Proceed to Payment
      </button>
      <p className="message" role="status">
        {busy ? "Taking you to the secure payment page…" : null}
      </p>
      <p className="message error" role="alert">
        {error}
      </p>
    </div>
  );
}
