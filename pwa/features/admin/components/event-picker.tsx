import { ErrorNotice } from "../../../lib/error-notice.tsx";
import { formatAtVenue, statusLabel } from "../format.ts";
import type { useAdminEvents } from "../use-admin-events.ts";

type Props = {
  id: string;
  events: ReturnType<typeof useAdminEvents>;
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
