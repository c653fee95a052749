import { useState } from "react";
import { Link } from "react-router-dom";
import { paths } from "../../../app/paths.ts";
import { leaveWaitlist } from "../leave-waitlist.ts";
import { formatPhone } from "../phone.ts";

/** In line for a seat: the place, what happens next, and the way out. */
export function WaitlistStatus(props: {
  eventID: number;
  phone: string;
  /** Null when this phone was already waiting: the server does not say where. */
  position: number | null;
  /** Left already (a reload after Leave waitlist). */
  left?: boolean;
  onLeft: () => void;
  onUnverified: () => void;
}) {
  const [left, setLeft] = useState(props.left ?? false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<"unverified" | "failed" | null>(null);

  const leave = async () => {
    setBusy(true);
    setProblem(null);
    const outcome = await leaveWaitlist({ eventID: props.eventID, phone: props.phone });
    setBusy(false);
    if (outcome === "left") {
      setLeft(true);
      props.onLeft();
    } else setProblem(outcome);
  };

  return (
    <div className="waitlist-status">
      <p className="message ok" role="status">
        {left
          ? "You've left the waitlist."
          : props.position === null
            ? "You're already on the waitlist for this event."
            : `You're number ${props.position} on the waitlist.`}
      </p>
      {left ? (
        <p>
          <Link to={paths.home}>Back to upcoming events</Link>
        </p>
      ) : (
        <>
          <p>
            When a seat frees up we'll text {formatPhone(props.phone)} a link. The seat is then kept for you for a
            while: open the link to book it.
          </p>
          <p className="message error" role="alert">
            {problem === "unverified"
              ? "Your mobile number needs to be verified again before you can leave the waitlist."
              : problem === "failed"
                ? "Could not leave the waitlist. Please check your connection and try again."
                : null}
          </p>
          {problem === "unverified" ? (
            <button type="button" className="button" onClick={props.onUnverified}>
              Verify my number again
            </button>
          ) : null}
          <button type="button" className="button" onClick={leave} disabled={busy} aria-busy={busy}>
            Leave waitlist
          </button>
        </>
      )}
    </div>
  );
}
