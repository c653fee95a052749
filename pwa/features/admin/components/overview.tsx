import { useState } from "react";
import { Link } from "react-router-dom";
import { FORMAT_LABELS } from "../../../../common/formats.ts";
import { ErrorNotice } from "../../../lib/error-notice.tsx";
import type { AdminEventSummary, EventNumbers } from "../admin-api.ts";
import { panelSearch } from "../admin-tabs.ts";
import { formatAud, statusLabel } from "../format.ts";
import { overviewOrder } from "../overview-order.ts";
import type { useAdminEvents } from "../use-admin-events.ts";
import { type NumbersState, useEventNumbers } from "../use-event-numbers.ts";
import { ShortOfNumbers, type ShortOutcome } from "./short-of-numbers-actions.tsx";
import { VenueTime } from "./venue-time.tsx";

/**
 * Every event on one screen: how it sells, what it earned, who came and how the night went. The
 * event list comes from the panel; each row's numbers from GET /api/admin-event-summary/{id}. Each
 * row links to the event's participants and its edit form.
 */
export function Overview({ events }: { events: ReturnType<typeof useAdminEvents> }) {
  const list = events.state.status === "ready" ? overviewOrder(events.state.events) : [];
  const { numbers, reload } = useEventNumbers(list.map((e) => e.id));

  if (events.state.status === "loading") {
    return (
      <p role="status" className="admin-loading">
        Loading events...
      </p>
    );
  }
  if (events.state.status === "error") return <ErrorNotice message={events.state.message} onRetry={events.reload} />;
  if (list.length === 0) return <p className="empty">No events yet: add one first.</p>;

  return (
    <div className="admin-overview">
      <div className="admin-toolbar">
        <p className="admin-summary">
          Events still to run come first; ended and cancelled ones below. Times are the venue's.
        </p>
        <CreditOutstanding numbers={numbers} />
        <button
          type="button"
          className="button"
          onClick={() => {
            void events.reload();
            void reload();
          }}
        >
          Refresh
        </button>
      </div>
      {/* A table wider than the window scrolls sideways; keyboard users need to focus it to scroll it
          (axe: scrollable-region-focusable), so the region takes focus though it is not a control. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable (WCAG 2.1.1) */}
      <section className="admin-table-wrap" aria-labelledby="overview-caption" tabIndex={0}>
        <table className="admin-table admin-overview-table">
          <caption id="overview-caption" className="sr-only">
            Every event with its sales, money and attendance
          </caption>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Starts</th>
              <th scope="col">Status</th>
              <th scope="col">Seats paid</th>
              <th scope="col">Holds</th>
              <th scope="col">Waitlist</th>
              <th scope="col">Checked in</th>
              <th scope="col">Revenue</th>
              <th scope="col">Matches</th>
              <th scope="col">Gave feedback</th>
              <th scope="col">Open</th>
            </tr>
          </thead>
          <tbody>
            {list.map((event) => (
              <OverviewRow
                key={event.id}
                event={event}
                numbers={numbers.get(event.id) ?? "loading"}
                events={list}
                onChanged={() => {
                  void events.reload();
                  void reload();
                }}
              />
            ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}

function OverviewRow({
  event,
  numbers,
  events,
  onChanged,
}: {
  event: AdminEventSummary;
  numbers: NumbersState;
  events: readonly AdminEventSummary[];
  onChanged(): void;
}) {
  const [outcome, setOutcome] = useState<ShortOutcome | null>(null);
  const n = typeof numbers === "string" ? null : numbers;
  const pending = numbers === "loading" ? "…" : "?";
  const cell = (value: (n: EventNumbers) => number | string | null) => {
    if (!n) return pending;
    const v = value(n);
    return v === null ? "—" : v;
  };
  return (
    <tr data-event-id={event.id}>
      <th scope="row">
        {event.name}
        {event.format && event.format !== "women_men" ? (
          <span className="admin-sub">{FORMAT_LABELS[event.format]}</span>
        ) : null}
      </th>
      <td>
        <VenueTime iso={event.startsAt} zone={event.timeZone} />
      </td>
      <td>
        <span className={`admin-badge status-${event.status}`}>{statusLabel(event.status)}</span>
        {event.shortOfNumbers ? (
          <ShortOfNumbers
            event={event}
            short={event.shortOfNumbers.short}
            events={events}
            onOutcome={(said) => {
              setOutcome(said);
              if (said.kind === "ok") onChanged();
            }}
          />
        ) : null}
        {outcome ? (
          <span role={outcome.kind === "error" ? "alert" : "status"} className="admin-sub">
            {outcome.text}
          </span>
        ) : null}
      </td>
      <td>
        {n ? <SeatsPaid numbers={n} /> : pending}
        {numbers === "error" ? <span className="admin-sub">Couldn't load the numbers.</span> : null}
      </td>
      <td>{cell((x) => x.held)}</td>
      <td>{cell((x) => x.waitlist)}</td>
      <td>{cell((x) => x.checkedIn)}</td>
      <td>
        {cell((x) => formatAud(x.revenue))}
        {n && n.discount > 0 ? <span className="admin-sub">after {formatAud(n.discount)} off</span> : null}
      </td>
      <td>{cell((x) => x.matches)}</td>
      <td>{cell((x) => x.feedbackGiven)}</td>
      <td>
        <span className="admin-row-links">
          <Link to={{ search: panelSearch("User Details", event.id) }} aria-label={`Participants of ${event.name}`}>
            Participants
          </Link>
          <Link to={{ search: panelSearch("Edit Event", event.id) }} aria-label={`Edit ${event.name}`}>
            Edit
          </Link>
        </span>
      </td>
    </tr>
  );
}

/**
 * **Credit outstanding** (issue 52, docs/decisions/057-credit.md): every guest's credit balance summed,
 * the nights the house still owes. One figure for the house, which each event's numbers carry alike;
 * shown once any of them has answered.
 */
function CreditOutstanding({ numbers }: { numbers: ReadonlyMap<number, NumbersState> }) {
  const first = [...numbers.values()].find((n): n is EventNumbers => typeof n !== "string");
  if (!first) return null;
  return (
    <p className="admin-summary admin-credit-outstanding">
      <strong>Credit outstanding {formatAud(first.creditOutstandingCents / 100)}</strong>
    </p>
  );
}

/** `12/20`, with the men's and women's seats beneath when the event keeps them balanced. */
function SeatsPaid({ numbers: { paid, seats } }: { numbers: EventNumbers }) {
  const balanced = seats.male !== null && seats.female !== null;
  return (
    <>
      {paid.total}/{seats.total}
      {balanced ? (
        <span className="admin-sub">
          Men {paid.male ?? 0}/{seats.male} · Women {paid.female ?? 0}/{seats.female}
        </span>
      ) : null}
    </>
  );
}
