import { useNavigate } from "react-router-dom";
import { paths } from "../../../app/paths.ts";
import type { EventView } from "../../events/types.ts";
import type { BookingPageState } from "../types.ts";

/** After a hold ran out: back to the booking of the same event, where the details typed are still filled in. */
export function BookAgain({ event }: { event: EventView }) {
  const navigate = useNavigate();
  const state: BookingPageState = { event };
  return (
    <div className="booking-actions">
      <button type="button" className="button primary" onClick={() => navigate(paths.otpVerification, { state })}>
        Book again
      </button>
    </div>
  );
}
