import { useSearchParams } from "react-router-dom";
import { ConfirmBookingForm } from "../features/tickets/components/confirm-booking-form.tsx";

const positiveInt = (value: string | null) => {
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? n : null;
};

export function ConfirmBookingPage() {
  const [search] = useSearchParams();
  return (
    <main className="page">
      <h1>Confirm booking</h1>
      <ConfirmBookingForm eventID={positiveInt(search.get("eventID"))} userID={positiveInt(search.get("userID"))} />
    </main>
  );
}
