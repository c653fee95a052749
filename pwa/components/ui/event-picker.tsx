import { ErrorNotice } from "../../lib/error-notice.tsx";
import { formatAtVenue, statusLabel } from "../../lib/event-labels.ts";
import "./ui.css";

/** What the picker shows of an event: the admin panel's list (features/admin/use-admin-events.ts) fits. */
export type PickableEvent = { id: number; name: string; startsAt: string | null; timeZone: string; status: string };

/** The staff's list of events as it loads: the admin panel's `useAdminEvents()` gives one. */
export type EventList = {
  state: { status: "loading" } | { status: "error"; message: string } | { status: "ready"; events: PickableEvent[] };
  reload(): unknown;
};

type Props = {
  id: string;
  events: EventList;
  value: number | null;
  onChange(id: number | null): void;
};

export function EventPicker({ id, events, value, onChange }: Props) {
  const { state, reload } = events;
  return (
    <div className="field admin-picker">
      <label htmlFor={id}>Event</label>
      {state.status === "error" ? (
        <ErrorNotice message={state.message} onRetry={reload} />
      ) : (
        <select
          id={id}
          value={value ?? ""}
          disabled={state.status === "loading"}
          aria-busy={state.status === "loading"}
          onChange={(e) => onChange(e.target.value ? Number(e.target.value) : null)}
        >
          <option value="">
            {state.status === "loading"
              ? "Loading events..."
              : state.events.length
                ? "Choose an event"
                : "No events yet: add one first"}
          </option>
          {state.status === "ready"
            ? state.events.map((e) => (
                <option key={e.id} value={e.id}>
                  {e.name} · {formatAtVenue(e.startsAt, e.timeZone)} · {statusLabel(e.status)}
                </option>
              ))
            : null}
        </select>
      )}
    </div>
  );
}
