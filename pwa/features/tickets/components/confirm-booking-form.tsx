import { type FormEvent, useId, useState } from "react";
import { Link } from "react-router-dom";
import { doorsOpenText } from "../../../../common/doors-open.ts";
import { EventTime } from "../../events/index.ts";
import { type CheckResult, confirmBookingCode, SHOW_AT_THE_DOOR, useEventDetails } from "../confirm-booking.ts";
import "../tickets.css";
import { ErrorNotice } from "../../../lib/error-notice.tsx";

export function ConfirmBookingForm({ eventID, userID }: { eventID: number | null; userID: number | null }) {
  const { state, reload } = useEventDetails(eventID, userID);
  const inputId = useId();
  const [code, setCode] = useState("");
  const [checking, setChecking] = useState(false);
  const [result, setResult] = useState<CheckResult | null>(null);

  if (state.status === "loading") {
    return (
      <p className="empty" role="status" aria-busy="true">
        Loading event details...
      </p>
    );
  }
  if (state.status === "error") {
    return <ErrorNotice message={state.message} onRetry={state.canRetry ? reload : undefined} />;
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!eventID || !userID || code === "" || checking) return;
    setChecking(true);
    setResult(null);
    setResult(await confirmBookingCode(eventID, userID, code));
    setChecking(false);
  };

  return (
    <div className="door-check">
      <dl className="door-event">
        <dt>Event</dt>
        <dd>{state.event.eventName}</dd>
        <dt>When</dt>
        <dd>
          <EventTime iso={state.event.eventDate} zone={state.event.timeZone} />
        </dd>
        <dt>Location</dt>
        <dd>{state.event.eventLocation}</dd>
      </dl>
      <form className="form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor={inputId}>Unique code</label>
          <input
            id={inputId}
            name="uniqueCode"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            required
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={64}
          />
        </div>
        <button type="submit" className="button primary" disabled={checking || code === ""} aria-busy={checking}>
          Confirm
        </button>
        <div role="status">
          <p className={`message door-result ${result?.confirmed ? "ok" : "error"}`}>{result?.message}</p>
          {result?.name ? (
            <p className="door-next">
              {`${result.name}'s ticket`}
              {result.doorsOpenAt
                ? `. ${doorsOpenText(Date.parse(result.doorsOpenAt), state.event.timeZone, Date.now())}: not checked in yet.`
                : result.notArrived
                  ? "."
                  : ": checked in."}
            </p>
          ) : result?.notArrived ? (
            <p className="door-next">
              {SHOW_AT_THE_DOOR} <Link to="/tickets">My tickets</Link>
            </p>
          ) : null}
        </div>
      </form>
    </div>
  );
}
