import { useNavigate } from "react-router-dom";
import { bookingStepPath } from "../../../app/paths.ts";
import type { EventView } from "../../events/index.ts";

/** After a hold ran out: back to the booking of the same event, where the details typed are still filled in. */
export function BookAgain({ event }: { event: EventView }) {
  const navigate = useNavigate();
  return (
    <div className="booking-actions">
      <button
        type="button"
        className="button primary"
        onClick={() => navigate(bookingStepPath("otpVerification", event.id))}
      >
        Book again
      </button>
    </div>
  );
}
