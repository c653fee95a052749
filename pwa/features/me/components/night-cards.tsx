import { Link } from "react-router-dom";
import { resultsWhen } from "../../../../common/results-time.ts";
import { EventTime, formatPrice } from "../../events/index.ts";
import type { MyNight } from "../me-api.ts";

type Night<S extends MyNight["standing"]> = Extract<MyNight, { standing: S }>;

function When({ night }: { night: MyNight }) {
  return (
    <dl className="night-facts">
      <div>
        <dt>When</dt>
        <dd>
          <EventTime iso={night.eventDate} zone={night.timeZone} />
        </dd>
      </div>
      <div>
        <dt>Location</dt>
        <dd>{night.eventLocation}</dd>
      </div>
    </dl>
  );
}

/**
 * The night's receipt or tax invoice, and its refund's adjustment note, as the /me session downloads
 * them (docs/api.md, `GET /api/me-invoice/{bookingId}`): only those the server says were written.
 */
function Documents({ night }: { night: MyNight }) {
  if (!night.invoiceNumber) return null;
  const base = `/api/me-invoice/${night.bookingId}`;
  return (
    <p className="night-documents">
      <a className="button" href={base} download aria-label={`Download invoice ${night.invoiceNumber}`}>
        Download invoice
      </a>
      {night.adjustmentNumber ? (
        <a
          className="button"
          href={`${base}?kind=adjustment`}
          download
          aria-label={`Download adjustment note ${night.adjustmentNumber}`}
        >
          Download adjustment note
        </a>
      ) : null}
    </p>
  );
}

/** A night that is over: when its matches come out, then the way to them. */
export function PastNight({ night }: { night: Night<"past"> }) {
  const { results } = night;
  return (
    <article className="night-card" aria-label={night.eventName}>
      <h3 className="night-title">{night.eventName}</h3>
      <When night={night} />
      {results.reportPath ? (
        <Link className="button primary" to={results.reportPath}>
          See your matches
        </Link>
      ) : (
        <p className="night-note">
          Your matches come out at {resultsWhen(Date.parse(results.resultsAt), night.timeZone, Date.now())}.
        </p>
      )}
      <Documents night={night} />
    </article>
  );
}

/** A night that will not happen for this guest: the event was cancelled, or the seat refunded. */
export function VoidNight({
  night,
  credited = false,
}: {
  night: Night<"cancelled" | "refunded" | "transferred">;
  /** The guest's cancel was taken as credit (issue 52): the night says so instead of "no refund". */
  credited?: boolean;
}) {
  if (night.standing === "transferred")
    return (
      <article className="night-card is-void" aria-label={night.eventName}>
        <h3 className="night-title">{night.eventName}</h3>
        <p className="ticket-status">Given to a friend</p>
        <p className="night-note">
          You gave this ticket to a friend, so it is NOT VALID: their own ticket gets them in. Your payment and receipt
          stay yours.
        </p>
        <When night={night} />
        <Documents night={night} />
      </article>
    );
  const refund =
    night.byYou && night.refundedCents === 0
      ? credited
        ? "You took its price as credit on your number, shown under Credit."
        : "No refund was due under the event's policy."
      : night.refundedCents !== null
        ? `${formatPrice(night.refundedCents / 100)} was refunded to your card.`
        : night.standing === "cancelled"
          ? "Your payment is being refunded."
          : "Your refund is on its way.";
  return (
    <article className="night-card is-void" aria-label={night.eventName}>
      <h3 className="night-title">{night.eventName}</h3>
      <p className="ticket-status">{night.standing === "cancelled" ? "Cancelled" : "Refunded"}</p>
      <p className="night-note">
        {night.byYou
          ? "You cancelled this booking. "
          : night.standing === "cancelled"
            ? "This event was cancelled. "
            : "This booking was refunded. "}
        {refund}
      </p>
      <When night={night} />
      <Documents night={night} />
    </article>
  );
}
