import { ErrorNotice } from "../../../lib/error-notice.tsx";
import { formatAtVenue, nationalPhone } from "../format.ts";
import type { WaitlistState } from "../use-waitlist.ts";

const STATUS_LABELS: Record<string, string> = {
  waiting: "Waiting",
  offered: "Offered a seat",
  closed: "Closed at the start",
};

/** Who waits for a seat, in order; at a balanced event each gender has its own line. */
export function WaitlistTable(props: { state: WaitlistState; zone: string; onRetry: () => unknown }) {
  const { state } = props;
  return (
    <div className="admin-waitlist">
      <h3 id="admin-waitlist-title">Waitlist</h3>
      {state.status === "loading" ? (
        <p role="status" className="admin-loading">
          Loading the waitlist...
        </p>
      ) : null}
      {state.status === "error" ? <ErrorNotice message="Couldn't load the waitlist." onRetry={props.onRetry} /> : null}
      {state.status === "ready" && state.rows.length === 0 ? <p className="empty">Nobody is waiting.</p> : null}
      {state.status === "ready" && state.rows.length > 0 ? (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable (WCAG 2.1.1)
        <section className="admin-table-wrap" tabIndex={0} aria-labelledby="admin-waitlist-title">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Position</th>
                <th scope="col">Name</th>
                <th scope="col">Gender</th>
                <th scope="col">Phone</th>
                <th scope="col">Status</th>
                <th scope="col">Joined</th>
              </tr>
            </thead>
            <tbody>
              {state.rows.map((row) => (
                <tr key={`${row.gender}-${row.position}-${row.phone}`}>
                  <td>{row.position}</td>
                  <td>{row.name}</td>
                  <td className="capitalize">{row.gender === "unasked" ? "—" : row.gender}</td>
                  <td>
                    <a href={`tel:${row.phone}`}>{nationalPhone(row.phone)}</a>
                  </td>
                  <td>{STATUS_LABELS[row.status] ?? row.status}</td>
                  <td>{formatAtVenue(row.joinedAt, props.zone)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
    </div>
  );
}
